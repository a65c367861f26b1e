"""Adding a game touches one place: its module (GAME, the rules with their irregularity rules,
and TABLE, its table profile) and its line in games.registry. This module is such a game,
High Card, registered here only; the table, its lamp and button maps, its settings and the
config's defaults take it with no other change, and every rule and clause comes from here."""
from __future__ import annotations

import pytest
from table_helpers import Run

from controller.config.load import config_from_dict
from controller.config.table_settings import table_settings
from controller.table import inputs as i
from controller.table import machine as m
from controller.table.buttons import UnknownButton, button_map, command_for_button
from controller.table.lamps import lamp_ids
from games import registry
from games.cards import Card, DeckKind
from games.round import (
    LOSE,
    PUSH,
    Complete,
    Deal,
    Game,
    HandView,
    Irregular,
    IrregularityRule,
    Pay,
    PayLine,
    RoundResult,
    RoundState,
    Step,
    Wager,
    win,
)
from games.round import Consequence as C
from games.round import IrregularityKind as K
from games.table_profile import Button, TableProfile

KEY = "highcard"
HANDS = ("player", "dealer")
_HOLD = (K.EXTRA_CARD, K.MISSING_CARD, K.MISREAD, K.WRONG_HAND_SIZE, K.DEVICE_LOST)
_REFUSE = (K.LATE_WAGER, K.BAD_DECISION)


class HighCard(Game):
    """One card to the player, one to the dealer; the higher rank wins (aces high), equal ranks tie."""

    key, title = KEY, "High Card"
    deck_kind, deck_counts, default_decks = DeckKind.STANDARD52, (1, 2), 1
    wagers = {
        "player": Wager("player", "Player", "highcard §3", (PayLine("player wins", Pay(1)), PayLine("tie", None))),
        "tie": Wager("tie", "Tie", "highcard §4", (PayLine("tie", Pay(10)),)),
    }
    irregularities = {kind: IrregularityRule(kind, f"highcard §5.{n}",
                                             C.HOLD if kind in _HOLD else C.REFUSE if kind in _REFUSE else C.VOID,
                                             kind.value.replace("_", " "))
                      for n, kind in enumerate(K, start=1)}

    def max_cards(self, spots: tuple[int, ...] = ()) -> int:
        return len(HANDS)

    def next_step(self, state: RoundState) -> Step:
        dealt = len(state.cards)
        return Deal(HANDS[dealt], 0) if dealt < len(HANDS) else Complete()

    def with_card(self, state: RoundState, card: Card) -> RoundState:
        step = self.next_step(state)
        if not isinstance(step, Deal):
            raise Irregular(self.rule(K.EXTRA_CARD), f"{card} after both cards were dealt")
        return state.evolve(cards=(*state.cards, card), dealt_to=(*state.dealt_to, step))

    def result(self, state: RoundState) -> RoundResult:
        if len(state.cards) < len(HANDS):
            raise Irregular(self.rule(K.MISSING_CARD), "a hand has no card")
        player, dealer = (14 if c.rank == 1 else c.rank for c in state.cards)
        winner = "player" if player > dealer else "dealer" if dealer > player else "tie"
        bets = {"player": win(self.wagers["player"], "player wins") if winner == "player"
                else PUSH if winner == "tie" else LOSE,
                "tie": win(self.wagers["tie"], "tie") if winner == "tie" else LOSE}
        hands = {name: HandView((card,), value) for name, card, value in zip(HANDS, state.cards, (player, dealer))}
        return RoundResult(KEY, winner, hands, bets)


GAME = HighCard()
TABLE = TableProfile(
    result_lamps=tuple(GAME.wagers),
    buttons=(Button(40, "confirm", meaning="the foot pedal: the result is announced and settled"),),
    burn=False,
)


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(registry.GAME_MODULES, KEY, __name__)  # the registry line


def test_the_maps_and_the_defaults_come_from_its_profile():
    assert {name for name in lamp_ids(KEY) if name.startswith("bet_")} == {"bet_player", "bet_tie"}
    assert button_map(KEY)[40].command == "confirm" and 11 not in button_map(KEY)
    assert command_for_button(KEY, 40) == i.Command("confirm", {}, source="panel")
    with pytest.raises(UnknownButton):
        command_for_button(KEY, 41)
    config = config_from_dict({"game": KEY, "decks": 2}, source=None)
    settings = table_settings(config)
    assert (config.shoe.burn, config.shoe.deck_per_round) == (False, False)
    assert (settings.burn, settings.deck_per_round, settings.spots) == (False, False, ())


def test_a_round_is_dealt_decided_lit_and_settled_by_the_pedal():
    run = Run(KEY, decks=2)
    run.new_shoe()  # no burn: the profile says so
    run.open_round()
    run.cards("9h", "As")
    result = run.journal("result")[-1]
    assert result["winner"] == "dealer" and result["bets"]["player"]["result"] == "lose"
    assert run.lamps()["bet_player"] == "off" and run.lamps()["result"] == "on"
    run.send(command_for_button(KEY, 40))
    assert run.state == m.SETTLED
    run.open_round()
    run.cards("Kd", "Kc")
    assert run.journal("result")[-1]["winner"] == "tie"
    assert (run.lamps()["bet_player"], run.lamps()["bet_tie"]) == ("slow", "on")  # push, win


def test_its_irregularity_rules_and_clauses_are_its_own():
    run = Run(KEY)
    run.new_shoe()
    run.open_round()
    run.cards("2c")
    run.send(i.ShoeDoor(True))
    assert (run.irregularity()["clause"], run.state) == ("highcard §5.8", m.VOID)  # order altered: void
    run.send(i.ShoeDoor(False))
    run.open_round()
    run.card("??")  # a misread: held for the supervisor, the game's own clause
    assert run.irregularity()["clause"] == "highcard §5.4" and run.state == m.HELD

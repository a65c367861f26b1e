"""High Card, a game of one card each: the player's against the dealer's, higher rank wins
(aces high), equal ranks tie. Its rules (GAME) and table profile (TABLE)."""
from __future__ import annotations

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
    result_lamps={"player": 16, "tie": 17},
    buttons=(Button(40, "confirm", meaning="the foot pedal: the result is announced and settled"),),
    burn=False,
)

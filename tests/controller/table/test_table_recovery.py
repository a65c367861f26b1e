"""Restore after a crash from the table's own journal records: the shoe and round number
carry on; the interrupted round resumes only where that is provable, else it is void (L4)."""
import random

import pytest
from table_helpers import Run, fortune6_dealing

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.effects import Journal
from controller.table.recovery import RecoveredRound, RecoveredShoe, TableRecovery
from controller.table.table import Table
from games.cards import parse_card
from games.registry import get_game


def records(effects) -> list[tuple[str, dict]]:
    return [(e.kind, dict(e.payload)) for e in effects if isinstance(e, Journal)]


def restored(run: Run) -> Run:
    again = Run(run.game.key, decks=run.table.decks)
    again.last = again.table.restore(TableRecovery.from_journal(records(run.effects)))
    again.effects += again.last
    again.counter = run.counter
    return again


def test_between_rounds_the_shoe_and_round_number_carry_on():
    run = Run("fortune6", decks=4)
    run.baccarat_shoe()
    for zero in "KQ":
        run.open_round()
        run.cards("As", zero + "h", "8h", zero + "s")
        run.cmd("confirm")
    again = restored(run)
    assert again.journal("recovered")[0]["outcome"] == "no round in progress"
    assert again.table.shoe.snapshot() == run.table.shoe.snapshot()
    assert again.table.shoe.composition == run.table.shoe.composition
    again.open_round()
    assert again.table.play.number == 3
    again.card("As")
    assert again.state == m.DEALING  # two more Aces of spades are still in the 4 decks
    again.cards("Jh", "8c", "Js")
    again.cmd("confirm")
    again.open_round()
    again.card("As")
    again.cards("Th", "8d", "Ts")
    again.cmd("confirm")
    again.open_round()
    again.card("As")  # the fifth: only the journal's counts can know it
    assert again.void()["kind"] == "foreign_card"


def test_a_result_journaled_but_not_settled_stands():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.cards("9h", "Kh", "Kd", "8d")
    again = restored(run)
    assert again.state == m.RESULT and again.journal("recovered")[0]["outcome"] == "result stands"
    assert again.lamps()["bet_player"] == "on" and not again.journal("void")
    assert again.cmd("confirm").ok


def test_mid_round_it_waits_for_the_shoes_counter_then_resumes():
    run = fortune6_dealing()
    again = restored(run)
    assert again.state == m.HELD and again.irregularity()["clause"] == "local ruling L4"
    assert again.lamps()["supervisor"] == "fast"
    again.send(i.ShoeLinkRestored(draw_counter=run.counter))
    assert again.state == m.DEALING and again.table.play.hands() == {"player": ["2h"], "banker": ["3c"]}
    again.cards("Kh", "Kd", "9s", "4d")
    assert again.state == m.RESULT


def test_mid_round_a_card_drawn_while_the_daemon_was_down_is_held_to_be_keyed_in():
    """Ruling 24: the daemon down is the shoe unheard; a card its counter shows is a missing card."""
    run = fortune6_dealing()
    again = restored(run)
    again.send(i.ShoeLinkRestored(draw_counter=run.counter + 1))
    held = again.irregularity()
    assert (held["kind"], held["clause"], held["consequence"]) == ("missing_card", "fortune6 §5.2 (ruling 24)", "hold")
    assert again.state == m.HELD and again.table.hold.need == "card" and not again.journal("void")
    again.key()
    assert again.cmd("reconstruct", card="Kh").ok
    assert again.state == m.DEALING and again.table.play.hands() == {"player": ["2h", "Kh"], "banker": ["3c"]}


def test_a_shoe_without_a_draw_counter_cannot_prove_anything():
    run = Run("fortune6")
    run.cmd("new_shoe")
    for token in ("2s", "Kd", "Qc"):
        run.send(i.Card(parse_card(token).code))
    run.open_round()
    run.send(i.Card(0x0102))
    again = restored(run)
    assert again.void()["clause"] == "local ruling L4, fortune6 §5.4" and again.state == m.VOID


def test_a_round_held_for_the_supervisor_at_the_crash_is_held_again():
    """The whole story, with the journal cases it cannot prove: test_table_recovery_holds.py."""
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.card("??", misread=True)
    again = restored(run)
    assert again.state == m.HELD and again.table.hold.need == "card" and not again.journal("void")
    assert again.journal("recovered")[0]["outcome"] == "held for the supervisor"


def test_complete_cards_without_their_result_record_are_decided_now():
    recovery = TableRecovery(
        last_round=7, shoe=RecoveredShoe(number=2, state=m.IN_PLAY, codes_out=(0x0109, 0x010D, 0x011D, 0x0128),
                                         drawn=10, draw_counter=10),
        round=RecoveredRound(7, bets_closed=True, steps=tuple(("card", c) for c in (0x0109, 0x010D, 0x011D, 0x0128))))
    table = Table("fortune6")
    effects = table.restore(recovery)
    kinds = [e.kind for e in effects if isinstance(e, Journal)]
    assert kinds == ["result", "settlement", "recovered"] and table.state == m.RESULT  # a settlement with every result
    assert next(e for e in effects if isinstance(e, Journal) and e.kind == "result").durable


def test_restore_is_for_a_fresh_table_only():
    run = Run("fortune6")
    run.cmd("new_shoe")
    with pytest.raises(ValueError, match="fresh table"):
        run.table.restore(TableRecovery())


@pytest.mark.parametrize("game", ["fortune6", "fubacc"])
def test_a_crash_after_any_input_of_a_shoe_loses_no_result(game):
    """Deal a short shoe; for every crash point, restore from the journal, let the shoe prove
    its counter, feed the rest: the results are the uncrashed table's, and nothing is void."""
    g = get_game(game)
    cards = list(g.deck_kind.shoe(g.default_decks).elements())
    random.Random(3).shuffle(cards)
    feed = [i.ShoeLinkRestored(draw_counter=0), i.Command("new_shoe")]  # the shoe connects, counting from 0
    position = 0

    def draw():
        nonlocal position
        position += 1
        feed.append(i.Card(cards[position - 1].code, position))
    plan = Run(game)
    plan.send(feed[0])
    plan.send(feed[1])
    while plan.table.shoe.burning:
        draw()
        plan.send(feed[-1])
    for _ in range(3):
        for inp in (i.Command("place_bets"), i.Command("no_more_bets")):
            feed.append(inp)
            plan.send(inp)
        while plan.state in (m.BETS_CLOSED, m.DEALING, m.DRAWING, m.AWAITING):
            if plan.state == m.AWAITING:
                feed.append(i.Command("decide", {"decision": "fold"}))
            else:
                draw()
            plan.send(feed[-1])
        feed.append(i.Command("confirm"))
        plan.send(feed[-1])
    expected = [(r["round"], r["cards"], r["bets"], r.get("spots")) for r in plan.journal("result")]
    assert len(expected) == 3 and not plan.journal("void")
    for crash in range(1, len(feed)):
        before = Run(game)
        for inp in feed[:crash]:
            before.send(inp)
        again = restored(before)
        last = before.table.counter.last
        again.send(i.ShoeLinkRestored(draw_counter=last))
        for inp in feed[crash:]:
            again.send(inp)
        got = [(r["round"], r["cards"], r["bets"], r.get("spots")) for r in before.journal("result") + again.journal("result")]
        assert not again.journal("void"), crash
        assert sorted({x[0]: x for x in got}.values()) == expected, crash

"""A card judged once: the card flow decides one verdict (controller.table.verdicts) without
changing anything, and the round in play applies each verdict type with its own function.
The behaviour each verdict leads to is tested where it matters (irregularities, holds,
recovery); here: which verdict each situation gets, and that deciding it is free of effects."""
import pathlib
import re
import typing

import pytest
from table_helpers import Run

from controller.table import verdicts as v
from controller.table.arrival import Arrival
from games.cards import NO_READ_CODE, parse_card

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "table.md"


def arrival(token: str, counter: int, **flags) -> Arrival:
    if token == "??":
        return Arrival(NO_READ_CODE, None, counter, misread=True, **flags)
    card = parse_card(token)
    return Arrival(card.code, card, counter, **flags)


def burning(run: Run) -> None:
    assert run.cmd("new_shoe").ok


def between_rounds(run: Run) -> None:
    run.baccarat_shoe()


def betting(run: Run) -> None:
    run.baccarat_shoe()
    assert run.cmd("place_bets").ok


def due(run: Run) -> None:
    run.baccarat_shoe()
    run.open_round()


def held(run: Run) -> None:
    due(run)
    run.card("??")
    assert run.state == "held"


def void(run: Run) -> None:
    betting(run)
    run.card("4h")
    assert run.state == "void"


def complete(run: Run) -> None:
    due(run)
    run.cards("9s", "Kd", "9h", "Qc")  # a natural each: no third card
    assert run.state == "result"


CASES = [
    (burning, arrival("2s", 1), v.Burn, None),
    (burning, Arrival(0x7777, None, 1, foreign="0x7777 is not the code of any card"), v.Burn, None),
    (between_rounds, arrival("4h", 9), v.Irregularity, "outside"),
    (betting, arrival("4h", 9), v.Irregularity, "before_no_more_bets"),
    (due, arrival("4h", 9), v.Deal, None),
    (due, arrival("??", 9), v.Irregularity, "misread"),
    (due, arrival("4h", 9, double_draw=True), v.Irregularity, "double_draw"),
    (due, Arrival.missing("unheard"), v.Irregularity, None),
    (held, arrival("4h", 9), v.Wait, None),
    (void, arrival("5h", 9), v.Ignore, None),
    (complete, arrival("5h", 9), v.Irregularity, "extra"),
]


@pytest.mark.parametrize(("setup", "card", "kind", "status"), CASES,
                         ids=[f"{c[0].__name__}-{c[2].__name__}-{c[3]}" for c in CASES])
def test_each_situation_gets_its_verdict_and_judging_changes_nothing(setup, card, kind, status):
    run = Run("fortune6")
    setup(run)
    before, shoe_before = run.table.snapshot(), run.table.shoe.snapshot()
    verdict = run.table.cards.judge(card)
    assert type(verdict) is kind
    assert getattr(verdict, "status", None) == status
    assert run.table.snapshot() == before and run.table.shoe.snapshot() == shoe_before


def test_a_card_due_is_dealt_to_the_hand_the_game_names_and_a_misread_one_waits_to_be_keyed_in():
    run = Run("fortune6")
    due(run)
    dealt = run.table.cards.judge(arrival("4h", 9))
    assert isinstance(dealt, v.Deal) and (dealt.to.hand, dealt.to.position) == ("player", 0)
    assert [str(c) for c in dealt.state.cards] == ["4h"] and run.table.round.current.state.cards == ()
    unread = run.table.cards.judge(arrival("??", 9))
    assert isinstance(unread, v.Irregularity) and unread.rule.clause == "local ruling L5"
    assert unread.pending == (unread.card,) and unread.keyed == 1


def test_a_card_whose_own_counter_just_voided_the_round_is_its_evidence_even_if_foreign():
    run = Run("fortune6")
    void(run)
    foreign = Arrival(0x7777, None, 9, foreign="0x7777 is not the code of any card")
    assert isinstance(run.table.cards.judge(foreign), v.Irregularity)  # a foreign card after the void: noted
    assert isinstance(run.table.cards.judge(foreign, voided_now=True), v.Ignore)


def test_every_verdict_has_the_one_function_that_applies_it():
    verdicts = set(typing.get_args(v.Verdict))
    assert set(Run("fortune6").table.round.appliers) == verdicts


def test_the_documented_table_names_every_verdict():
    section = DOC.read_text(encoding="utf-8").split("### What becomes of a card", 1)[1].split("\n### ", 1)[0]
    named = set(re.findall(r"^\|[^|]*\|[^|]*\| `(\w+)` \|", section, flags=re.M))
    assert {kind.__name__ for kind in typing.get_args(v.Verdict)} - {"JoinHold"} <= named
    assert "`JoinHold`" in section


def test_a_foreign_burn_card_is_burnt_and_noted_and_a_card_missed_where_due_is_keyed_in():
    run = Run("fortune6")
    burning(run)
    foreign = run.table.cards.judge(Arrival(0x7777, None, 1, foreign="0x7777 is not the code of any card"))
    assert isinstance(foreign, v.Burn) and isinstance(foreign.foreign, v.Irregularity)
    assert foreign.foreign.rule.kind.value == "foreign_card" and foreign.foreign.status is None
    run = Run("fortune6")
    due(run)
    missed = run.table.cards.judge(Arrival.missing("unheard"))
    assert isinstance(missed, v.Irregularity) and missed.rule.clause.endswith("(ruling 24)")
    assert missed.keyed == 1 and missed.pending == (Arrival.missing("unheard"),)

"""Which decisions the rules allow, when, and the refusals (fubacc procedures 6-8, 12-15)."""
import pytest
from fubacc_cases import cards

from games.fubacc.game import GAME
from games.round import AwaitDecision, Complete, Consequence, Irregular, IrregularityKind


def dealt(text, spots=(1,)):
    state = GAME.start(spots=spots)
    for card in cards(text):
        state = GAME.with_card(state, card)
    return state


def refused(state, spot, decision) -> str:
    with pytest.raises(Irregular) as raised:
        GAME.with_decision(state, spot, decision)
    rule = raised.value.rule
    assert (rule.kind, rule.consequence) == (IrregularityKind.BAD_DECISION, Consequence.REFUSE)
    return raised.value.detail


@pytest.mark.parametrize("packet, options", [
    ("Kd 6h 2c  8s 7h Qd", ("fold", "play", "no_ante")),  # a 6: no bonus
    ("9h Kd 2c  8s 7h Qd", ("fold", "play", "bonus", "no_ante")),  # natural 9
    ("5c 3h 2c  8s 7h Qd", ("fold", "play", "bonus", "no_ante")),  # natural 8
    ("Ks Tc 2c  9h 7h Qd", ("fold", "play", "bonus", "no_ante")),  # two monkeys vs up 9
    ("Ks Tc 2c  8h 7h Qd", ("fold", "play", "no_ante")),  # two monkeys vs up 8: no rescue
    ("Ks 8c 2c  9h 7h Qd", ("fold", "play", "bonus", "no_ante")),  # natural 8 (one monkey)
    ("Ks 7c 2c  9h 7h Qd", ("fold", "play", "no_ante")),  # 7 vs 9: nothing
])
def test_first_options_offer_bonus_only_when_eligible(packet, options):
    assert GAME.next_step(dealt(packet)) == AwaitDecision(1, options)


def test_hit_or_stay_only_after_play():
    state = dealt("Kd 6h 2c  8s 7h Qd")
    assert "hit or stay comes only after play" in refused(state, 1, "hit")
    state = GAME.with_decision(state, 1, "play")
    assert GAME.next_step(state) == AwaitDecision(1, ("hit", "stay"))
    assert "not allowed now" in refused(state, 1, "fold")
    assert isinstance(GAME.next_step(GAME.with_decision(state, 1, "stay")), Complete)


def test_bonus_refused_when_not_eligible_names_the_rule():
    detail = refused(dealt("Ks Tc 2c  8h 7h Qd"), 1, "bonus")
    assert "no natural 8 or 9" in detail and "one of fold, play, no_ante" in detail


def test_unknown_decision_is_refused_naming_it():
    assert "'hti' is not allowed now; one of fold, play, no_ante" in refused(dealt("Kd 6h 2c  8s 7h Qd"), 1, "hti")


def test_decisions_are_case_and_space_insensitive():
    state = GAME.with_decision(dealt("Kd 6h 2c  8s 7h Qd"), 1, " PLAY ")
    assert state.decision_of(1) == ("play",)


def test_play_hit_in_one_string_is_two_checked_steps():
    state = GAME.with_decision(dealt("Kd 6h 2c  8s 7h Qd"), 1, "play,hit")
    assert state.decision_of(1) == ("play", "hit") and isinstance(GAME.next_step(state), Complete)
    # refused as a whole: the caller keeps its state (states are immutable)
    assert "already decided (fold); 'hit' is not asked for" in refused(dealt("Kd 6h 2c  8s 7h Qd"), 1, "fold,hit")


def test_no_decision_before_the_packets_are_dealt():
    assert "before the packets are dealt (5 of 6 cards)" in refused(dealt("Kd 6h 2c  8s 7h"), 1, "fold")


def test_spots_decide_in_seat_order():
    state = dealt("Kd 6h 2c  9h Kc 3c  8s 7h Qd 4d 5d Ad", spots=(2, 5, 6))
    assert GAME.next_step(state).spot == 2
    assert "out of turn; spot 2 decides first" in refused(state, 5, "fold")
    state = GAME.with_decision(state, 2, "fold")
    assert GAME.next_step(state) == AwaitDecision(5, ("fold", "play", "bonus", "no_ante"))
    assert "spot 2 has already decided (fold)" in refused(state, 2, "play")


def test_decision_for_a_seat_that_is_not_live():
    assert "spot 3 is not live (live: 1)" in refused(dealt("Kd 6h 2c  8s 7h Qd"), 3, "fold")


def test_no_decision_after_the_round_is_complete():
    state = GAME.with_decision(dealt("Kd 6h 2c  8s 7h Qd"), 1, "fold")
    assert isinstance(GAME.next_step(state), Complete)
    assert "has already decided (fold)" in refused(state, 1, "play")


def test_result_before_every_spot_decided_is_refused():
    with pytest.raises(Irregular) as raised:
        GAME.result(dealt("Kd 6h 2c  8s 7h Qd"))
    assert raised.value.rule.kind is IrregularityKind.BAD_DECISION and "has not decided" in raised.value.detail


def test_no_default_decision():
    assert GAME.default_decision(dealt("Kd 6h 2c  8s 7h Qd"), 1) is None


@pytest.mark.parametrize("decision", ["fold", "bonus"])
def test_lucky_monkey_is_settled_after_fold_and_bonus(decision):
    state = GAME.with_decision(dealt("Ks Tc 2c  9h 7h Qd"), 1, decision)  # monkeys vs up 9
    bets = GAME.result(state).spots[1]["bets"]
    assert (bets["lucky_monkey"].result.value, bets["lucky_monkey"].pays) == ("win", "30:1")
    assert bets["ante"].result.value == ("lose" if decision == "fold" else "win")

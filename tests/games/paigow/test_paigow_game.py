"""The Fortune Pai Gow round: deal order (ruling 17a), settings, fouls (§3.7.2), settlement
(§3.11-3.15), bonuses in the result, and every irregularity with its clause."""
import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paigow_helpers import cards

from games.cards import DeckKind, parse_card
from games.registry import get_game
from games.replay import play_json, run_round
from games.round import (
    AwaitDecision,
    Complete,
    Consequence,
    Deal,
    Irregular,
    IrregularityKind,
    Result,
)

GAME = get_game("paigow")
DECK = DeckKind.PAIGOW53.cards

DEALER = "Kc Qh 9s 6h 4c 3d 2s"  # House Way: K-6-4-3-2 high, Q-9 low


def shoe(*hands):
    """Cards in shoe order: the spots' packets in seat order, then the dealer's."""
    return [c for hand in hands for c in cards(hand)]


def play(spot_hands: dict, dealer=DEALER, decisions=None):
    spots = tuple(sorted(spot_hands))
    order = [spot_hands[s] for s in spots] + [dealer]
    return run_round(GAME, shoe(*order), spots=spots, decisions=decisions)


def test_game_shape():
    assert GAME.key == "paigow" and GAME.deck_kind is DeckKind.PAIGOW53
    assert GAME.deck_counts == (1,) and GAME.default_decks == 1
    assert GAME.uses_spots and GAME.max_spots == 6
    assert GAME.max_cards((1,)) == 14
    assert GAME.max_cards((1, 2, 3, 4, 5, 6)) == 49 <= len(DECK)  # a seventh spot would need 56


@pytest.mark.parametrize("spots, message", [
    ((), "at least one spot"), ((1, 7), "seats 1-6"), ((0,), "seats 1-6"), ((2, 2), "named twice"),
])
def test_start_refuses_bad_spots(spots, message):
    with pytest.raises(ValueError, match=message):
        GAME.start(spots=spots)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(1, 6), min_size=1), st.randoms(use_true_random=False))
def test_deal_order_packets_in_seat_order_then_dealer(spots, rnd):
    shuffled = list(DECK)
    rnd.shuffle(shuffled)
    state = GAME.start(spots=tuple(spots))
    seen = []
    while isinstance(step := GAME.next_step(state), Deal):
        seen.append((step.hand, step.position, step.initial))
        state = GAME.with_card(state, shuffled[len(seen) - 1])
    expected = [(f"spot{s}", i, True) for s in sorted(spots) for i in range(7)] + [("dealer", i, True) for i in range(7)]
    assert seen == expected
    for spot in sorted(spots):  # then each spot sets its hand, in seat order
        step = GAME.next_step(state)
        assert isinstance(step, AwaitDecision) and step.spot == spot
        assert len(step.options) == 22 and step.options[0] == "house"
        state = GAME.with_decision(state, spot, GAME.default_decision(state, spot))
    assert isinstance(GAME.next_step(state), Complete)
    result = GAME.result(state)
    assert set(result.spots) == set(spots)
    for spot in spots:
        assert result.spots[spot]["cards"] == list(state.hand(f"spot{spot}"))


# ---------------------------------------------------------------- settlement

def test_player_wins_both_hands():
    _, result = play({1: "As Ah Kd Qd 8s 7c 5h"})
    spot = result.spots[1]
    assert (spot["high_vs_dealer"], spot["low_vs_dealer"]) == ("win", "win")
    assert spot["bets"]["standard"].result is Result.WIN
    assert spot["bets"]["standard"].net(100) == Fraction(95)  # 1:1 less 5% commission


def test_player_loses_both_hands():
    _, result = play({1: "Jc 9d 7h 5c 3s 2h 4d"})
    assert result.spots[1]["bets"]["standard"].result is Result.LOSE
    assert result.spots[1]["bets"]["standard"].net(100) == -100


def test_win_one_lose_one_is_a_tie():
    _, result = play({1: "Ac Jd 8c 6d 4s 3c 2d"})
    bet = result.spots[1]["bets"]["standard"]
    assert bet.result is Result.PUSH and bet.line.outcome == "tie" and bet.net(100) == 0


def test_copy_low_goes_to_the_dealer():
    _, result = play({1: "Qs 9c Ad 7s 5d 3h 2c"})  # low Q-9 copies the dealer's Q-9
    spot = result.spots[1]
    assert spot["low_vs_dealer"] == "lose" and spot["high_vs_dealer"] == "win"
    assert spot["bets"]["standard"].result is Result.PUSH
    assert "spot 1: low hand is a copy; the dealer wins it (paigow §3.15)" in result.notes


def test_two_copies_lose():
    _, result = play({1: "Ks Qc 9h 6c 4h 3h 2h"})
    assert result.spots[1]["bets"]["standard"].result is Result.LOSE


def test_dealer_hand_is_in_the_result():
    _, result = play({1: "As Ah Kd Qd 8s 7c 5h"})
    assert result.hands["dealer"].cards == tuple(cards("Kc 6h 4c 3d 2s Qh 9s"))
    assert result.hands["dealer_high"].total == "High Card, K-6-4-3-2"
    assert result.hands["dealer_low"].total == "Q-9"
    assert result.winner is None
    json.dumps(result.to_json())


# ---------------------------------------------------------------- settings and fouls

def test_player_setting_is_played_as_set():
    _, result = play({1: "Ks Kh 9c 7d 4s 3h 2c"}, decisions={1: ["9c+7d"]})
    spot = result.spots[1]
    assert spot["setting"] == "9c+7d" and not spot["fouled"]
    assert spot["low"].cards == tuple(cards("9c 7d"))
    assert spot["house_way_rule"] is None


def test_fouled_setting_is_reset_by_the_house_way():
    _, result = play({1: "Ks Kh 9c 7d 4s 3h 2c"}, decisions={1: ["Ks+Kh"]})
    spot = result.spots[1]
    assert spot["fouled"] and spot["reset_by_house_way"]
    assert set(spot["low"].cards) == set(cards("9c 7d"))  # A.1: pair high, two highest low
    assert spot["house_way_rule"].startswith("A.1 one pair")
    assert any("spot 1: setting Ks+Kh fouled" in n and "§3.7.2" in n for n in result.notes)


def test_house_decision_sets_by_appendix_a():
    _, result = play({1: "Ks Kh 9c 7d 4s 3h 2c"}, decisions={1: ["HOUSE"]})
    assert result.spots[1]["setting"] == "house" and not result.spots[1]["fouled"]


def test_setting_names_are_canonical():
    state, _ = play({1: "Ks Kh 9c 7d 4s 3h 2c"}, decisions={1: ["9C + 7d"]})
    assert state.decisions == ((1, "9c+7d"),)


def _dealt(spots=(1, 2)):
    state = GAME.start(spots=spots)
    for card in DECK[: 7 * (len(spots) + 1)]:
        state = GAME.with_card(state, card)
    return state


@pytest.mark.parametrize("decision, message", [
    ("Qd+Jd", "Qd is not one of the spot's cards (As 2s 3s 4s 5s 6s 7s)"),
    ("As+Zz", "bad card 'Zz'"),
    ("As+As", "As named twice"),
    ("As+2s+3s", "give \"house\" or the low hand as two cards"),
    ("fold", "give \"house\" or the low hand as two cards"),
])
def test_bad_settings_are_refused(decision, message):
    state = _dealt()
    with pytest.raises(Irregular) as refused:
        GAME.with_decision(state, 1, decision)
    assert refused.value.rule.kind is IrregularityKind.BAD_DECISION
    assert refused.value.rule.consequence is Consequence.REFUSE
    assert message in refused.value.detail
    assert GAME.next_step(GAME.with_decision(state, 1, "house")) == AwaitDecision(2, GAME.options(state, 2))


def test_settings_out_of_turn_are_refused():
    state = _dealt()
    with pytest.raises(Irregular, match="spot 1 sets its hand first"):
        GAME.with_decision(state, 2, "house")
    with pytest.raises(Irregular, match="no setting is due now"):
        GAME.with_decision(GAME.start(spots=(1,)), 1, "house")


def test_result_before_the_round_is_done():
    state = GAME.start(spots=(1,))
    with pytest.raises(Irregular) as missing:
        GAME.result(state)
    assert missing.value.rule.kind is IrregularityKind.MISSING_CARD
    with pytest.raises(Irregular, match="spot 1 has not set its hand"):
        GAME.result(_dealt((1,)))


# ---------------------------------------------------------------- bonuses in the result

def test_fortune_bonus_ignores_the_setting_and_envy_pays_the_others():
    sf7 = "9h Th Jh Qh Kh 8h 7h"
    royal_match = "Ad Kd Qd Jd Td Ks Qs"
    _, result = play({1: sf7, 2: royal_match, 3: "2c 3c 4d 5d 8s 9c Js"}, dealer="2d 3h 4h 5s 6s 8d 9d",
                     decisions={2: ["Ad+Kd"]})  # the player's own setting does not matter (ruling 19)
    one, two, three = (result.spots[s] for s in (1, 2, 3))
    assert one["fortune_hand"] == "seven_card_straight_flush"
    assert one["bets"]["fortune_bonus"].net(10) == 25_000
    assert two["fortune_hand"] == "royal_match" and two["bets"]["fortune_bonus"].pays == "1000:1"
    assert (one["envy"], one["envy_excluded_by"]) == (0, "paigow §3.18.1.2")
    assert (two["envy"], two["envy_excluded_by"]) == (250, None)  # another spot has a 7-card SF
    assert (three["envy"], three["envy_excluded_by"]) == (300, None)
    assert three["bets"]["fortune_bonus"].result is Result.LOSE


def test_dealer_royal_match_cancels_envy():
    _, result = play({1: "9h Th Jh Qh Kh 8h 7h", 2: "2c 3c 4c 5d 8s 9c Jc"}, dealer="Ad Kd Qd Jd Td Ks Qs")
    assert result.spots[2]["envy"] == 0 and result.spots[2]["envy_excluded_by"] == "paigow §3.18.1.1"


# ---------------------------------------------------------------- irregularities

def test_every_irregularity_kind_has_a_rule_with_a_source():
    assert set(GAME.irregularities) == set(IrregularityKind)
    for rule in GAME.irregularities.values():
        assert rule.clause.startswith(("paigow §", "local ruling L"))
    expected = {
        IrregularityKind.FOREIGN_CARD: ("paigow §5.1", Consequence.VOID),
        IrregularityKind.WRONG_HAND_SIZE: ("paigow §5.2", Consequence.HOLD),
        IrregularityKind.EXTRA_CARD: ("paigow §5.3", Consequence.HOLD),
        IrregularityKind.DOUBLE_DRAW: ("paigow §5.4", Consequence.VOID),
        IrregularityKind.INSUFFICIENT_CARDS: ("paigow §5.5", Consequence.VOID),
        IrregularityKind.LATE_WAGER: ("paigow §5.6", Consequence.REFUSE),
        IrregularityKind.CARD_BEFORE_NO_MORE_BETS: ("local ruling L3", Consequence.VOID),
        IrregularityKind.DEVICE_LOST: ("local ruling L4", Consequence.HOLD),
        IrregularityKind.MISREAD: ("local ruling L5", Consequence.HOLD),
        IrregularityKind.BAD_DECISION: ("paigow §3.7.1", Consequence.REFUSE),
    }
    for kind, (clause, consequence) in expected.items():
        assert (GAME.rule(kind).clause, GAME.rule(kind).consequence) == (clause, consequence)


def test_void_too_few_cards():
    out = play_json(GAME, shoe("As Ah Kd Qd 8s 7c 5h", "Kc Qh 9s 6h"), spots=(1,))
    assert out["void"] and out["clause"] == "paigow §5.3" and out["irregularity"] == "missing_card"
    assert "card 12 is due to dealer" in out["detail"]


def test_void_extra_card():
    out = play_json(GAME, shoe("As Ah Kd Qd 8s 7c 5h", DEALER, "Jh"), spots=(1,))
    assert out["void"] and out["clause"] == "paigow §5.3" and out["irregularity"] == "extra_card"


def test_void_foreign_card():
    hand = shoe("As Ah Kd Qd 8s 7c", DEALER)
    hand.insert(3, parse_card("4-gold"))
    out = play_json(GAME, hand, spots=(1,))
    assert out["void"] and out["clause"] == "paigow §5.1" and "4-gold" in out["detail"]


def test_void_duplicate_card():
    out = play_json(GAME, shoe("As Ah Kd Qd 8s 7c 5h", "Kc Qh 9s 6h 4c 3d As"), spots=(1,))
    assert out["void"] and out["clause"] == "paigow §5.5 (ruling 17a)"
    assert "As was already dealt as card 1" in out["detail"]


def test_bad_decision_is_refused_not_void():
    with pytest.raises(Irregular, match="Qs is not one of the spot's cards"):
        play_json(GAME, shoe("As Ah Kd Qd 8s 7c 5h", DEALER), spots=(1,), decisions={1: ["Qs+Ah"]})


def test_play_json_result():
    out = play_json(GAME, shoe("As Ah Kd Qd 8s 7c 5h", DEALER), spots=(1,))
    assert not out["void"]
    assert out["spots"]["1"]["bets"]["standard"] == {"result": "win", "pays": "1:1 less 5%"}
    assert out["dealer"]["cards"] == ["Kc", "6h", "4c", "3d", "2s", "Qh", "9s"]

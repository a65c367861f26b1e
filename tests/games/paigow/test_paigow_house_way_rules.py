"""House Way rows the examples do not reach, the cases Appendix A is silent on (each as
documented in docs/paigow.md), and properties over any seven cards."""
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paigow_helpers import cards, ranks

from games.cards import DeckKind, parse_card
from games.paigow.hands import CARD_INFO, FLUSH, PAIR, STRAIGHT, category, high_value, is_foul, low_value
from games.paigow.house_way import house_way

DECK = DeckKind.PAIGOW53.cards


def low_ranks(text):
    return ranks(house_way(cards(text)).low)


def rule(text):
    return house_way(cards(text)).rule


# ---------------------------------------------------------------- two pairs: the joker counts

def test_two_low_pairs_with_the_joker_keep_both_pairs_high():
    setting = house_way(cards("4c 4h 2s 2h @ Qd 7s"))
    assert set(setting.low) == set(cards("@ Qd"))
    assert rule("4c 4h 2s 2h @ Qd 7s").endswith("both pairs high, two highest low")


def test_high_and_low_pair_with_the_joker_keep_both_pairs_high():
    assert low_ranks("Kc Kh 5s 5h @ 6d 4s") == [0, 6]


def test_high_and_low_pair_with_only_a_king_split():
    """A King is enough only for the low/low and low/medium rows."""
    assert low_ranks("Qc Qh 5s 5h Kd 8d 4s") == [5, 5]


def test_two_medium_pairs_with_an_ace_keep_both_high():
    assert low_ranks("Tc Th 8s 8h Ad 9d 2s") == [9, 14]


def test_pair_of_aces_made_with_the_joker_splits():
    assert low_ranks("As @ 7s 7h Kd 9d 2s") == [7, 7]
    assert "pair of aces" in rule("As @ 7s 7h Kd 9d 2s")


# ---------------------------------------------------------------- three of a kind, full houses

def test_three_aces_with_the_joker():
    setting = house_way(cards("As Ah @ Kd 9c 5s 2h"))
    assert ranks(setting.low) in ([13, 14], [0, 13])
    assert category(high_value(setting.high)) == PAIR  # a pair of aces high


def test_silent_three_aces_whose_joker_the_straight_needs_use_the_three_aces_row():
    """(silent) A A @ K Q J 2: the straight A-K-Q-J-@ leaves no pair for the low hand, which
    A.5 asks for; Appendix A does not say more, so A.4's three-aces row applies."""
    setting = house_way(cards("As Ah @ Kd Qc Js 2h"))
    assert setting.rule.startswith("A.4 three aces")
    assert ranks(setting.low) in ([13, 14], [0, 13])


def test_three_of_a_kind_with_a_flush_plays_the_pair_low():
    setting = house_way(cards("9h 9s 9d 2h 5h 7h @"))
    assert set(setting.low) == set(cards("9s 9d"))
    assert category(high_value(setting.high)) == FLUSH


def test_kings_exception_needs_a_straight_or_flush_to_stay_high():
    """Three Kings, Ace and Joker without any straight/flush: the plain full-house row."""
    setting = house_way(cards("Kc Kd Kh @ As 3d 2s"))
    assert setting.rule.startswith("A.6 full house")
    assert set(setting.low) == set(cards("@ As"))


def test_kings_exception_with_a_flush():
    setting = house_way(cards("Kc Kd Kh @ Ah 9h 4h"))
    assert setting.rule.startswith("A.5 three Kings")
    assert ranks(setting.low) == [13, 13]
    assert category(high_value(setting.high)) == FLUSH


def test_silent_three_queens_ace_and_joker_use_the_full_house_row():
    """(silent) The exception names three Kings only; three Queens keep the full-house row."""
    setting = house_way(cards("Qc Qd Qh @ As Kd Js"))
    assert setting.rule.startswith("A.6 full house")
    assert ranks(setting.low) == [0, 14]


def test_pair_of_twos_ace_and_king_with_the_joker_as_the_ace():
    setting = house_way(cards("Qc Qh Qs 2h 2c @ Ks"))
    assert set(setting.low) == set(cards("@ Ks"))


def test_full_house_with_pair_of_twos_without_the_king_splits():
    assert low_ranks("Qc Qh Qs 2h 2c Ad Js") == [2, 2]


def test_three_aces_full_house_plays_the_pair_low():
    assert low_ranks("Ac Ah As 5h 5c Kd 3s") == [5, 5]


# ---------------------------------------------------------------- four and five of a kind

def test_four_tens_with_the_joker_play_the_joker_low():
    setting = house_way(cards("Tc Th Ts Td @ Jd 5s"))
    assert ranks(setting.low) == [0, 11]
    assert ranks(setting.high) == [5, 10, 10, 10, 10]


def test_four_kings_split():
    assert low_ranks("Kc Kh Ks Kd Qh 9d 4s") == [13, 13]


def test_four_sixes_with_an_ace_never_split():
    assert low_ranks("6c 6h 6s 6d Ah 9d 4s") == [9, 14]


def test_four_of_a_kind_with_three_of_a_kind_plays_a_pair_of_the_three_low():
    setting = house_way(cards("9c 9h 9s 9d 3h 3d 3s"))
    assert ranks(setting.low) == [3, 3]
    assert ranks(setting.high) == [3, 9, 9, 9, 9]


def test_four_aces_with_the_joker_as_the_fourth():
    setting = house_way(cards("Ac Ah As @ Qh 9d 4s"))
    assert ranks(setting.low) == [14, 14]  # two natural aces low; the joker pairs the high ace
    assert "four aces: always split" in setting.rule


def test_silent_four_aces_with_three_kings_split_the_aces():
    """(silent) "Four aces with a pair of Kings" is read literally: with three Kings the aces
    split as the row's main rule says, leaving aces full of kings high."""
    setting = house_way(cards("Ac Ah As Ad Kh Kd Ks"))
    assert ranks(setting.low) == [14, 14]
    assert ranks(setting.high) == [13, 13, 13, 14, 14]


def test_five_aces_with_two_singles():
    setting = house_way(cards("Ac Ah As Ad @ 9h 4d"))
    assert ranks(setting.low) == [14, 14]
    assert setting.rule.startswith("A.8 five aces: split")


# ---------------------------------------------------------------- straights and flushes (A.5)

def test_one_pair_joker_straight_keeps_the_pair_low():
    setting = house_way(cards("@ 2s 3h 4c 5d 9s 9h"))
    assert ranks(setting.low) == [9, 9]
    assert category(high_value(setting.high)) == STRAIGHT


def test_no_pair_seven_card_straight_plays_the_two_highest_low():
    setting = house_way(cards("9s 8h 7c 6d 5s 4h 3c"))
    assert ranks(setting.low) == [8, 9]  # high 7-6-5-4-3 still a straight


def test_no_pair_joker_goes_low_as_an_ace_when_the_straight_does_not_need_it():
    setting = house_way(cards("@ 9s 8h 7c 6d 5s 2h"))
    assert set(setting.low) == set(cards("@ 2h"))


def test_one_pair_without_straight_or_flush():
    assert rule("Ks Kh 9c 7d 4s 3h 2c").startswith("A.1 one pair")


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("text, message", [
    ("As Ks Qs Js Ts 9s", "seven cards, not 6"),
    ("As Ks Qs Js Ts 9s 8s 7s", "seven cards, not 8"),
    ("As Ks Qs Js Ts 9s As", "duplicate card As"),
])
def test_bad_input(text, message):
    with pytest.raises(ValueError, match=message):
        house_way(cards(text))


def test_foreign_card_is_refused():
    with pytest.raises(ValueError, match="4-gold is not a pai gow card"):
        house_way(cards("As Ks Qs Js Ts 9s") + [parse_card("4-gold")])


# ---------------------------------------------------------------- properties

sevens = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)


@settings(max_examples=600, deadline=None)
@given(sevens, st.randoms(use_true_random=False))
def test_house_way_never_fouls_and_uses_exactly_the_seven(seven, rnd):
    setting = house_way(seven)
    assert len(setting.high) == 5 and len(setting.low) == 2
    assert sorted(setting.high + setting.low) == sorted(seven)
    high, low = high_value(setting.high), low_value(setting.low)
    assert not is_foul(high, low)
    # the same seven in any order are set to the same hand values
    shuffled = list(seven)
    rnd.shuffle(shuffled)
    again = house_way(shuffled)
    assert (high_value(again.high), low_value(again.low)) == (high, low)


@settings(max_examples=400, deadline=None)
@given(sevens)
def test_straights_and_flushes_stay_high_for_no_pair_and_one_pair(seven):
    """A.5: with no pair or one pair (the joker counted as an Ace), a straight or better
    anywhere in the seven is kept in the high hand."""
    values = [CARD_INFO[c][0] for c in seven]
    paired = max(values.count(v) for v in values)
    pairs = len({v for v in values if values.count(v) == 2})
    best = max(high_value(five) for five in combinations(seven, 5))
    setting = house_way(seven)
    if paired <= 2 and pairs <= 1 and category(best) >= STRAIGHT:
        assert category(high_value(setting.high)) >= STRAIGHT
        assert setting.rule.startswith("A.5")
    elif paired <= 2 and pairs <= 1:
        assert setting.rule.startswith("A.1")

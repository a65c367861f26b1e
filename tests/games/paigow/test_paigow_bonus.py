"""Fortune Bonus (§4.1.2, rulings 19-20) and Envy Bonus (§3.18, ruling 21).

`reference_outcome` judges seven cards the slow, independent way: the category of each of the
21 five-card hands (games.paigow.hands) plus the seven-card hands checked card by card. The
flags evaluator the game and the exact count use must agree with it."""
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paigow_helpers import cards

from games.cards import Card, DeckKind
from games.paigow.bonus import FORTUNE_TABLE, envy_for_spots, fortune_outcome
from games.paigow.hands import (
    FIVE_ACES,
    FLUSH,
    FULL_HOUSE,
    QUADS,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    high_value,
)
from games.paigow.rules import FORTUNE_BONUS, STANDARD

FIVE_CARD_LINES = {
    FIVE_ACES: "five_aces", ROYAL_FLUSH: "royal_flush", STRAIGHT_FLUSH: "straight_flush",
    QUADS: "four_of_a_kind", FULL_HOUSE: "full_house", FLUSH: "flush", TRIPS: "three_of_a_kind",
    STRAIGHT: "straight",
}
PAY_ORDER = [outcome for outcome, _, _, _ in FORTUNE_TABLE]


def _seven_straight_flush(naturals) -> bool:
    if len({c.suit for c in naturals}) != 1 or len(naturals) != 7:
        return False
    low = sorted(c.rank for c in naturals)  # Ace low
    high = sorted(14 if r == 1 else r for r in low)  # Ace high
    return any(run == list(range(run[0], run[0] + 7)) for run in (low, high))


def reference_outcome(seven):
    made = set()
    for five in combinations(seven, 5):
        kind = high_value(five) >> 20
        if kind in FIVE_CARD_LINES:
            made.add(FIVE_CARD_LINES[kind])
    naturals = [c for c in seven if not c.is_joker]
    if len(naturals) == 7 and _seven_straight_flush(naturals):
        made.add("seven_card_straight_flush")
    if len(naturals) == 6 and len({c.suit for c in naturals}) == 1:
        suit = naturals[0].suit
        if any(_seven_straight_flush(naturals + [Card(r, suit)]) for r in range(1, 14) if Card(r, suit) not in naturals):
            made.add("seven_card_straight_flush_with_joker")
    for low in combinations(seven, 2):
        if {c.rank for c in low} == {12, 13} and low[0].suit == low[1].suit:  # natural K-Q suited
            high = [c for c in seven if c not in low]
            if high_value(high) >> 20 == ROYAL_FLUSH:
                made.add("royal_match")
    return next((o for o in PAY_ORDER if o in made), None)


# one hand for every line of §4.1.2 (and the best line it makes)
LINES = [
    ("Jc Tc 9c 8c 7c 6c 5c", "seven_card_straight_flush"),
    ("As 2s 3s 4s 5s 6s 7s", "seven_card_straight_flush"),  # ruling 18: A-2-...-7
    ("8h 9h Th Jh Qh Kh Ah", "seven_card_straight_flush"),
    ("Ad Kd Qd Jd Td Ks Qs", "royal_match"),
    ("Ad Kd @ Jd Td Ks Qs", "royal_match"),  # the joker completes the royal flush (ruling 19)
    ("Jc Tc @ 8c 7c 6c 5c", "seven_card_straight_flush_with_joker"),
    ("2d 3d 4d 5d 6d 7d @", "seven_card_straight_flush_with_joker"),
    ("Ac Ah As Ad @ 9h 4d", "five_aces"),
    ("Ah Kh Qh Jh Th 4c 2d", "royal_flush"),
    ("Ah Kh Qh Jh @ 4c 2d", "royal_flush"),
    ("9s 8s 7s 6s 5s Kh 2d", "straight_flush"),
    ("9s 8s 7s @ 5s Kh 2d", "straight_flush"),
    ("As 2s 3s 4s 5s Kh Qd", "straight_flush"),  # the wheel
    ("9s 9h 9c 9d 5s Kh 2d", "four_of_a_kind"),
    ("As Ah Ac @ 5s Kh 2d", "four_of_a_kind"),  # the joker is the fourth ace
    ("9s 9h 9c 5d 5s Kh 2d", "full_house"),
    ("As Ah @ 5d 5s Kh 2d", "full_house"),
    ("Ks 9s 7s 4s 2s Kh 3d", "flush"),
    ("Ks 9s 7s 4s @ Kh 3d", "flush"),
    ("9s 9h 9c Kd 5s 3h 2d", "three_of_a_kind"),
    ("As Ah @ Kd 7s 3h 2d", "three_of_a_kind"),
    ("9s 8h 7c 6d 5s Kh 2d", "straight"),
    ("9s 8h 7c @ 5s Kh 2d", "straight"),
    ("As 2h 3c 4d 5s Kh 9d", "straight"),
]


@pytest.mark.parametrize("text, outcome", LINES)
def test_every_pay_line(text, outcome):
    assert fortune_outcome(cards(text)) == outcome
    assert reference_outcome(cards(text)) == outcome


def test_every_line_is_reached():
    assert {o for _, o in LINES} == set(PAY_ORDER)


def test_pay_table_is_4_1_2():
    pays = [(line.outcome, line.pays.win, line.pays.per) for line in FORTUNE_BONUS.lines]
    assert pays == [
        ("seven_card_straight_flush", 2500, 1), ("royal_match", 1000, 1),
        ("seven_card_straight_flush_with_joker", 500, 1), ("five_aces", 250, 1), ("royal_flush", 100, 1),
        ("straight_flush", 50, 1), ("four_of_a_kind", 20, 1), ("full_house", 5, 1), ("flush", 4, 1),
        ("three_of_a_kind", 3, 1), ("straight", 2, 1),
    ]
    assert FORTUNE_BONUS.clause == "paigow §4.1.2"


def test_standard_wager_pays_even_money_less_five_percent():
    assert STANDARD.line("win").pays.ratio == pytest.approx(0.95)
    assert str(STANDARD.line("win").pays) == "1:1 less 5%"
    assert STANDARD.line("tie").pays is None  # §3.14: a standoff


@pytest.mark.parametrize("text", [
    "As Ah 9c 9d 5s 5h 2d",  # three pair pays nothing (ruling 20)
    "As Ah 9c 9d 5s Kh 2d",  # two pair
    "As Ah 9c 8d 5s Kh 2d",  # one pair
    "@ Kh 9c 8d 5s 4h 2d",  # the joker alone is an Ace
    "Kc Qh 9c 8d 5s 4h 2d",
])
def test_no_pay(text):
    assert fortune_outcome(cards(text)) is None


def test_three_of_a_kind_pays_over_a_straight():
    """Seven cards with both: the higher-paying line (3 to 1) is the best use (ruling 19)."""
    assert fortune_outcome(cards("9s 9h 9c 8d 7s 6h 5d")) == "three_of_a_kind"


def test_royal_match_needs_a_natural_suited_king_queen():
    assert fortune_outcome(cards("Ad Kd Qd Jd Td Ks Qh")) == "royal_flush"  # K-Q offsuit
    assert fortune_outcome(cards("Ad Kd Qd Jd Td Ks @")) == "royal_flush"  # the joker may not be the Queen
    # K-Q suited low but only A-J-T + joker left: four cards, no royal; A-K-Q-J-T is a straight
    assert fortune_outcome(cards("Ad Jd Td @ Ks Qs 3c")) == "straight"


def test_seven_card_straight_flush_with_joker_needs_six_suited():
    assert fortune_outcome(cards("Jc Tc @ 8c 7c 6c 5h")) == "straight_flush"


sevens = st.lists(st.sampled_from(DeckKind.PAIGOW53.cards), min_size=7, max_size=7, unique=True)


@settings(max_examples=500, deadline=None)
@given(sevens)
def test_flags_agree_with_the_reference(seven):
    assert fortune_outcome(seven) == reference_outcome(seven)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["s", "h", "d", "c"]), st.integers(1, 8), st.data())
def test_flags_agree_with_the_reference_on_flush_heavy_hands(suit, start, data):
    """Random hands rarely hold six or seven of a suit: build them on purpose."""
    run = [Card(1 if r == 14 else r, suit) for r in range(start, start + 7)]
    kept = data.draw(st.lists(st.sampled_from(run), min_size=5, max_size=7, unique=True))
    rest = [c for c in DeckKind.PAIGOW53.cards if c not in kept]
    extra = data.draw(st.lists(st.sampled_from(rest), min_size=7 - len(kept), max_size=7 - len(kept), unique=True))
    seven = kept + extra
    assert fortune_outcome(seven) == reference_outcome(seven)


# ---------------------------------------------------------------- Envy (§3.18, ruling 21)

SF7, RM = "seven_card_straight_flush", "royal_match"


def test_envy_pays_other_spots_fixed_money():
    envy = envy_for_spots({1: SF7, 2: None, 3: "flush"}, None)
    assert envy == {1: (0, "paigow §3.18.1.2"), 2: (250, None), 3: (250, None)}
    envy = envy_for_spots({1: RM, 2: None}, None)
    assert envy[2] == (50, None)


def test_envy_one_payment_per_qualifying_hand():
    envy = envy_for_spots({1: SF7, 2: RM, 3: None}, "full_house")
    assert envy[3] == (300, None)


def test_no_envy_when_the_dealer_has_a_seven_card_straight_flush_or_royal_match():
    for dealer in (SF7, RM):
        envy = envy_for_spots({1: SF7, 2: None}, dealer)
        assert envy == {1: (0, "paigow §3.18.1.1"), 2: (0, "paigow §3.18.1.1")}


def test_own_seven_card_straight_flush_excludes_even_with_another():
    envy = envy_for_spots({1: SF7, 2: SF7}, None)
    assert envy == {1: (0, "paigow §3.18.1.2"), 2: (0, "paigow §3.18.1.2")}


def test_own_royal_match_excludes_unless_another_spot_has_a_seven_card_straight_flush():
    assert envy_for_spots({1: RM, 2: RM}, None)[1] == (0, "paigow §3.18.1.3")
    assert envy_for_spots({1: RM, 2: SF7}, None)[1] == (250, None)


def test_seven_card_straight_flush_with_joker_and_five_aces_pay_no_envy():
    envy = envy_for_spots({1: "seven_card_straight_flush_with_joker", 2: "five_aces", 3: None}, None)
    assert envy == {1: (0, None), 2: (0, None), 3: (0, None)}

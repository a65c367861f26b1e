"""Hand values: §3.9 high-hand order with its examples, §3.10 low hands, the joker (rulings
18-20), copies (§3.15) and the foul test (§3.7.2)."""
import pytest
from paigow_helpers import cards

from games.paigow.hands import (
    FIVE_ACES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    category,
    describe_high,
    describe_low,
    high_value,
    is_foul,
    low_value,
)


def hv(text):
    return high_value(cards(text))


def lv(text):
    return low_value(cards(text))


# §3.9's own examples, highest first, then the rest of the order down to High Card
ORDER_EXAMPLES = [
    ("Ac Ah Ad As @", FIVE_ACES),
    ("Ad Kd Qd Jd Td", ROYAL_FLUSH),
    ("Kc Qc Jc Tc 9c", STRAIGHT_FLUSH),  # "Highest Straight Flush"
    ("Qh Jh Th 9h 8h", STRAIGHT_FLUSH),  # "Second Highest Straight Flush"
    ("5s 4s 3s 2s As", STRAIGHT_FLUSH),  # ruling 18: the wheel is the lowest straight flush
    ("Ac Ah Ad As 2c", QUADS),
    ("Kc Kh Kd As Ah", FULL_HOUSE),
    ("Jh 8h 6h 5h 2h", FLUSH),
    ("Ad Ks Qc Js Td", STRAIGHT),  # "Highest Straight"
    ("Kh Qd Jc Td 9s", STRAIGHT),  # "Second Highest Straight"
    ("5d 4s 3c 2s Ad", STRAIGHT),  # ruling 18: the wheel is the lowest straight
    ("Ts Th Tc 4d 2s", TRIPS),
    ("Qs Qh 6c 6h 2d", TWO_PAIR),
    ("Ac Ah 9d 5s 3c", PAIR),
    ("Kc 9d 7s 4h 2c", HIGH_CARD),
]


@pytest.mark.parametrize("text, kind", ORDER_EXAMPLES)
def test_categories(text, kind):
    assert category(hv(text)) == kind


def test_the_order_is_strict_from_five_aces_down():
    values = [hv(text) for text, _ in ORDER_EXAMPLES]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


def test_3_9_1_examples():
    assert hv("Qs Jd Tc 9h 8s") > hv("Th 9c 8d 7s 6h")  # 3.9.1.1
    assert hv("8s 8h Qc Td 2s") > hv("8c 8d Jh 9s 7c")  # 3.9.1.2: the Queen after the 8s
    assert hv("As Kh Jc 4d 2s") > hv("Ac Kd Th 6s 3c")  # 3.9.1.3: the Jack after A-K


def test_kickers_are_compared_to_the_last_card():
    assert hv("Ks 9h 7c 4d 3s") > hv("Kc 9d 7h 4s 2c")
    assert hv("Qs Qh 6c 6h 3d") > hv("Qc Qd 6s 6d 2s")
    assert hv("Qs Qh 7c 7h 2d") > hv("Qc Qd 6s 6d As")
    assert hv("3s 3h 3c Ah 2d") < hv("4s 4h 4c 3h 2s")


def test_copies_are_equal_values_whatever_the_suits():
    """§3.15: a copy is an identical rank; the comparison gives ==, and the dealer wins it."""
    assert hv("As Kh 9c 6d 3s") == hv("Ah Kc 9d 6s 3h")
    assert hv("Jh 8h 6h 5h 2h") == hv("Js 8s 6s 5s 2s")
    assert lv("Ks Qh") == lv("Kd Qc")


# ---------------------------------------------------------------- the joker (rulings 18-20)

def test_joker_completes_a_straight_at_its_best():
    assert hv("@ Ks Qh Jc Td") == hv("As Kh Qc Jd Th")  # as the Ace
    assert hv("@ Kh Qc Jd 9s") == hv("Ks Qh Jc Td 9d")  # fills the gap: K high
    assert hv("@ 2s 3h 4c 5d") == hv("6s 5h 4c 3d 2s")  # 6 high beats the wheel
    assert hv("@ As 2h 3c 4d") == hv("5s 4h 3c 2d Ah")  # the wheel (ruling 18)


def test_joker_completes_a_flush_as_the_highest_missing_rank():
    assert hv("@ Kh 9h 6h 3h") == hv("As Ks 9s 6s 3s")
    assert hv("@ Ah 9h 6h 3h") == hv("As Ks 9s 6s 3s")
    assert hv("@ Ah Kh 6h 3h") == hv("As Ks Qs 6s 3s")
    assert category(hv("@ Ah 9h 6h 3h")) == FLUSH


def test_joker_completes_straight_and_royal_flushes():
    assert category(hv("@ Kh Qh Jh Th")) == ROYAL_FLUSH
    assert category(hv("@ Ah Kh Jh Th")) == ROYAL_FLUSH
    assert hv("@ 9h 8h 6h 5h") == hv("9s 8s 7s 6s 5s")
    assert hv("@ 2h 3h 4h 5h") == hv("6s 5s 4s 3s 2s")


def test_joker_is_otherwise_an_ace():
    assert hv("@ 9s 9h 5c 3d") == hv("As 9c 9d 5h 3s")  # not trip nines
    assert hv("@ As 9h 5c 3d") == hv("Ac Ah 9d 5s 3s")  # a pair of aces
    assert hv("@ As Ah Ac 3d") == hv("As Ah Ac Ad 3s")  # four aces
    assert hv("@ As Ah Kc Kd") == hv("Ac Ad Ah Ks Kh")  # aces full
    assert hv("@ Ks Kh 7c 3d") == hv("As Kc Kd 7h 3s")  # kicker Ace
    assert category(hv("@ As Ah Ac Ad")) == FIVE_ACES


def test_five_aces_beat_a_royal_flush():
    assert hv("@ As Ah Ac Ad") > hv("As Ks Qs Js Ts")


def test_a_high_hand_has_five_cards():
    with pytest.raises(ValueError, match="five cards"):
        hv("As Ks Qs Js")


# ---------------------------------------------------------------- low hands (§3.10)

def test_low_order():
    order = ["As Ah", "@ Ac", "Ks Kh", "2s 2h", "As Kh", "@ Kc", "As Qh", "Ks Qh", "3s 2h"]
    values = [lv(t) for t in order]
    assert values == sorted(values, reverse=True)
    assert lv("As Ah") == lv("@ Ac")  # the joker is an Ace in the low hand
    assert lv("As Kh") == lv("@ Kc")
    assert lv("Js 4h") == lv("4c Jd")  # order of the cards does not matter


def test_low_high_card_compares_second_card():
    assert lv("Js 9h") > lv("Jc 8d")


# ---------------------------------------------------------------- fouls (§1.1.4, §3.7.2)

@pytest.mark.parametrize("high, low, foul", [
    ("Ks 9h 7c 4d 3s", "As 2h", True),  # low A-2 over high K-9
    ("As 9h 7c 4d 3s", "Ks Qh", False),
    ("As Kh 7c 4d 3s", "Ac Kd", False),  # equal top two: "equal or higher" is allowed
    ("As Qh 7c 4d 3s", "Ac Kd", True),
    ("Ks 9h 7c 4d 3s", "2s 2h", True),  # any pair beats no pair
    ("8s 8h 7c 4d 3s", "9s 9h", True),
    ("8s 8h 7c 4d 3s", "8c 8d", False),  # equal pairs: not a foul
    ("8s 8h 7c 4d 3s", "As Kh", False),
    ("8s 8h 7c 7d 3s", "As Ah", False),  # two pair beats any low
    ("6s 5h 4c 3d 2s", "As Ah", False),  # a straight beats any low
    ("@ 9h 7c 4d 3s", "Ks Qh", False),  # the joker as the high hand's Ace
    ("Ks 9h 7c 4d 3s", "@ 2h", True),  # the joker as the low hand's Ace
])
def test_foul(high, low, foul):
    assert is_foul(hv(high), lv(low)) is foul


def test_names():
    assert describe_high(hv("Kc Kh Kd 2s 2h")) == "Full House, Ks over 2s"
    assert describe_high(hv("5d 4s 3c 2s Ad")) == "Straight, 5 high"
    assert describe_high(hv("Qs Qh 6c 6h 2d")) == "Two Pair, Qs and 6s"
    assert describe_high(hv("8s 8h Qc Td 2s")) == "Pair of 8s"
    assert describe_high(hv("Kc 9d 7s 4h 2c")) == "High Card, K-9-7-4-2"
    assert describe_high(hv("@ As Ah Ac Ad")) == "Five Aces"
    assert describe_low(lv("@ Ac")) == "Pair of As"
    assert describe_low(lv("Js 4h")) == "J-4"

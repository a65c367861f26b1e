"""The exact Fortune Bonus count: the rank-pattern x suit method (games/paigow/bonus_count.py)
against brute force over every hand of reduced decks, and the full 53-card deck against
published tables and counts derived by hand.

Published: Brian Alspach, "7-Card Poker Hands with Joker" and "Pai Gow Poker Computations"
(2003): the best five-card hand of every seven-card hand of the 53-card deck, and of every
seven-card hand of the 52-card deck (Table 1)."""
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from games.cards import JOKER, Card
from games.paigow.bonus import (
    ROYAL_FLUSH,
    fortune_outcome_of,
    poker_category_of,
    seven_card_flags,
)
from games.paigow.bonus_count import count_flags, tally
from games.paigow.game import odds


def deck(ranks, suits, joker):
    cards = [Card(1 if v == 14 else v, s) for s in suits for v in ranks]
    return cards + [JOKER] if joker else cards


@pytest.mark.parametrize("ranks, suits, joker", [
    # wheels, A-7 seven-card straight flushes (natural and joker), flushes, straights, trips
    ((2, 3, 4, 5, 6, 7, 14), "shd", True),
    # four suits: royals (natural and joker), Royal Match, four of a kind, five aces, full houses
    ((10, 11, 12, 13, 14), "shdc", True),
    ((2, 3, 4, 5, 6, 7, 14), "shd", False),  # no joker
])
def test_count_equals_brute_force_on_reduced_decks(ranks, suits, joker):
    brute = Counter(seven_card_flags(hand) for hand in combinations(deck(ranks, suits, joker), 7))
    assert dict(count_flags(ranks, len(suits), joker)) == dict(brute)


@pytest.fixture(scope="module")
def full():
    return count_flags()


def test_every_hand_counted_once(full):
    assert sum(full.values()) == comb(53, 7) == 154_143_080


def test_best_five_card_hand_matches_alspach_53_card_table(full):
    assert tally(full, poker_category_of) == {
        "five_aces": 1_128, "straight_flush": 210_964, "four_of_a_kind": 307_472,
        "full_house": 4_188_528, "flush": 6_172_088, "straight": 11_236_028,
        "three_of_a_kind": 7_470_676, "two_pair": 35_553_816, "pair": 64_221_960,
        "high_card": 24_780_420,
    }


def test_hands_holding_a_royal_flush(full):
    """By hand: per suit, a natural royal + any 2 of the other 48 cards, or four of its five
    cards + the joker + 2 of the 47 cards left (not the fifth: that hand is counted above).
    (Alspach's note "26,124 are royal flushes" is 8 fewer; his main table matches exactly.)"""
    by_hand = 4 * (comb(48, 2) + 5 * comb(47, 2))
    assert sum(n for flags, n in full.items() if flags & ROYAL_FLUSH) == by_hand == 26_132


def test_no_joker_matches_the_52_card_seven_card_table():
    assert tally(count_flags(joker=False), poker_category_of) == {
        "straight_flush": 41_584, "four_of_a_kind": 224_848, "full_house": 3_473_184,
        "flush": 4_047_644, "straight": 6_180_020, "three_of_a_kind": 6_461_620,
        "two_pair": 31_433_400, "pair": 58_627_800, "high_card": 23_294_460,
    }


def _seven_sf_with_joker_by_hand() -> int:
    """Six cards of one suit that a seventh rank turns into a 7-card run (A low or high)."""
    runs = [set(range(low, low + 7)) for low in range(1, 9)]  # 1 = Ace low, 14 = Ace high
    count = 0
    for six in combinations(range(2, 15), 6):
        spots = set(six) | ({1} if 14 in six else set())
        if any(len(run & spots) >= 6 and not (14 in six and 1 in run and 14 in run) for run in runs):
            count += 1
    return 4 * count


def test_top_lines_derived_by_hand(full):
    counts = tally(full, fortune_outcome_of)
    assert counts["seven_card_straight_flush"] == 4 * 8  # 4 suits x runs A-7 .. 8-A
    assert counts["royal_match"] == 4 * 3 + 4 * 5 * 3  # royal (natural, or joker for one of 5) x K-Q of 3 suits
    assert counts["five_aces"] == comb(48, 2)  # four aces, joker, any two others
    assert counts["seven_card_straight_flush_with_joker"] == _seven_sf_with_joker_by_hand() == 196


def test_fortune_bonus_table_and_house_edge():
    report = odds(1)
    bet = report.bets["fortune_bonus"]
    counts = {o.outcome: o.count for o in bet.outcomes}
    assert counts == {
        "seven_card_straight_flush": 32, "royal_match": 72, "seven_card_straight_flush_with_joker": 196,
        "five_aces": 1_128, "royal_flush": 26_020, "straight_flush": 184_644, "four_of_a_kind": 307_472,
        "full_house": 4_188_528, "flush": 6_172_088, "three_of_a_kind": 7_672_500, "straight": 11_034_204,
        "lose": 124_556_196,
    }
    assert bet.total == comb(53, 7)
    expected = Fraction(124_556_196 - (32 * 2500 + 72 * 1000 + 196 * 500 + 1128 * 250 + 26020 * 100
                                       + 184644 * 50 + 307472 * 20 + 4188528 * 5 + 6172088 * 4
                                       + 7672500 * 3 + 11034204 * 2), comb(53, 7))
    assert bet.house_edge == expected  # 9.94%
    assert any("ruling 21" in note for note in report.notes)  # Envy is fixed money, outside the edge


def test_odds_refuses_other_deck_counts():
    with pytest.raises(ValueError, match="one deck"):
        odds(2)

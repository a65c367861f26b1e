"""Every example of Appendix A ("House Way"), with the row of rule text that decides it.

Ruling 22: the examples contain typos. Where an example is not a legal seven (a card written
twice) or its setting contradicts its own rule text, the rule text stands; each such case is
marked TYPO below with what was corrected and why. Appendix A writes the joker as "@".

`same_setting` accepts a setting that differs from the printed one only by which of two
cards of equal rank goes low (e.g. 9♦9♣ low vs 9♥9♦ low with 9♣ high): the hands' values are
identical, so nothing on the table depends on it.
"""
import pytest
from paigow_helpers import cards, same_setting

from games.paigow.house_way import house_way

# (section, seven cards as printed or corrected, low, high, the rule text's row)
EXAMPLES = [
    # 1. No pair & one pair
    ("1 no pair", "K♣ Q♥ 9♠ 6♥ 4♣ 3♦ 2♠", "Q♥ 9♠", "K♣ 6♥ 4♣ 3♦ 2♠", "A.1 no pair"),
    ("1 one pair", "3♣ 3♥ K♠ J♥ 9♠ 8♦ 5♠", "K♠ J♥", "3♣ 3♥ 9♠ 8♦ 5♠", "A.1 one pair"),
    # 2. Two pairs
    ("2 low+low", "4♣ 4♥ 2♠ 2♥ K♠ Q♦ 7♠", "K♠ Q♦", "4♣ 4♥ 2♠ 2♥ 7♠",
     "A.2 low/medium pairs: split unless a King, Ace or Joker: both pairs high"),
    ("2 low+medium", "8♣ 8♥ 6♠ 6♥ Q♣ 9♦ 7♠", "6♠ 6♥", "8♣ 8♥ Q♣ 9♦ 7♠",
     "A.2 low/medium pairs: split unless a King, Ace or Joker: lower pair low"),
    ("2 low+high", "K♣ K♥ 5♠ 5♥ A♣ 6♦ 4♠", "A♣ 6♦", "K♣ K♥ 5♠ 5♥ 4♠",
     "A.2 high+low or two medium pairs: split unless an Ace or Joker: both pairs high"),
    ("2 medium+medium", "10♣ 10♥ 8♠ 8♥ K♣ 9♦ 2♠", "8♠ 8♥", "10♣ 10♥ K♣ 9♦ 2♠",
     "A.2 high+low or two medium pairs: split unless an Ace or Joker: lower pair low"),
    ("2 medium+high", "J♣ J♥ 9♠ 9♥ A♣ K♦ 3♠", "9♠ 9♥", "J♣ J♥ A♣ K♦ 3♠",
     "A.2 medium+high or two high pairs: always split"),
    ("2 high+high", "K♣ K♥ Q♠ Q♥ A♠ J♦ 9♠", "Q♠ Q♥", "K♣ K♥ A♠ J♦ 9♠",
     "A.2 medium+high or two high pairs: always split"),
    ("2 aces+any", "A♠ A♥ 2♠ 2♥ K♣ Q♦ J♠", "2♠ 2♥", "A♠ A♥ K♣ Q♦ J♠",
     "A.2 pair of aces and any other pair: always split"),
    # 3. Three pairs
    ("3 three pairs", "J♣ J♥ 7♠ 7♥ 2♣ 2♦ 6♠", "J♣ J♥", "7♠ 7♥ 2♣ 2♦ 6♠", "A.3 three pairs"),
    # 4. Three of a kind
    ("4 three of a kind", "7♣ 7♥ 7♠ J♥ 8♣ 4♦ 3♠", "J♥ 8♣", "7♣ 7♥ 7♠ 4♦ 3♠", "A.4 three of a kind high"),
    # TYPO: printed high "A♠, A♥, Q♣, J♦, 2♠" repeats the low's A♠ and drops A♣; the rule text
    # ("Pair of Aces" high, "Ace and the next highest card" low) gives A♥ A♣ high.
    ("4 three aces", "A♠ A♥ A♣ K♥ Q♣ J♦ 2♠", "A♠ K♥", "A♥ A♣ Q♣ J♦ 2♠", "A.4 three aces"),
    ("4 two three of a kinds", "10♣ 10♥ 10♠ 4♥ 4♣ 4♦ 8♠", "10♣ 10♥", "4♥ 4♣ 4♦ 10♠ 8♠",
     "A.4 two three of a kinds"),
    # 5. Straights, flushes, straight flushes and royal flushes
    ("5 no pair straight", "J♣ 10♥ 8♠ 7♦ 6♥ 5♦ 4♣", "J♣ 10♥", "8♠ 7♦ 6♥ 5♦ 4♣", "A.5 no pair"),
    # TYPO: printed "7,♠" (the comma before the suit) is the 7♠, in the seven and in the high hand.
    ("5 no pair straight over flush", "K♥ 8♥ 6♥ 5♥ 4♥ 7♠ 3♦", "K♥ 8♥", "7♠ 6♥ 5♥ 4♥ 3♦", "A.5 no pair"),
    ("5 one pair flush", "A♥ 8♥ 6♥ 5♥ 4♥ Q♣ 8♠", "Q♣ 8♠", "A♥ 8♥ 6♥ 5♥ 4♥", "A.5 one pair"),
    # TYPO: printed "Q♥8♥" lacks its comma: two cards, Q♥ and 8♥.
    ("5 one pair pair low", "A♥ Q♥ 8♥ 6♥ 5♥ 4♥ 8♠", "8♥ 8♠", "A♥ Q♥ 6♥ 5♥ 4♥", "A.5 one pair"),
    ("5 two pair", "Q♥ 10♥ 7♥ 6♥ 5♥ 10♣ 6♠", "6♥ 6♠", "10♥ 10♣ Q♥ 7♥ 5♥",
     "A.2 low/medium pairs: split unless a King, Ace or Joker: lower pair low"),
    ("5 three pair", "A♠ @ 2♠ 2♦ 3♥ 3♦ 4♣", "A♠ @", "3♥ 3♦ 2♠ 2♦ 4♣", "A.3 three pairs"),
    ("5 three of a kind", "10♣ 9♥ 8♠ 7♦ 6♥ 9♦ 9♣", "9♦ 9♣", "10♣ 9♥ 8♠ 7♦ 6♥", "A.5 three of a kind"),
    # TYPO (both full-house examples): "K,♣" is the K♣.
    ("5 full house", "A♥ A♠ @ K♣ K♦ Q♥ J♦", "K♣ K♦", "A♥ A♠ @ Q♥ J♦", "A.6 full house"),
    ("5 full house kings exception", "K♣ K♦ K♥ @ A♠ J♦ 10♠", "K♣ K♦", "A♠ K♥ @ J♦ 10♠",
     "A.5 three Kings, Ace and Joker"),
    # TYPO: printed "A♠,A♥,A♠,@" holds the A♠ twice, impossible in one deck; the third ace is
    # taken as A♦. The rule ("Use Four of a Kind Rule": four aces always split) and the printed
    # setting agree: two aces low, ace + joker + K Q J high (the joker completes the straight).
    ("5 four of a kind", "A♠ A♥ A♦ @ K♦ Q♥ J♦", "A♠ A♥", "A♦ K♦ Q♥ J♦ @", "A.7 four aces: always split"),
    # 6. Full house
    ("6 trips and pair", "K♣ K♥ K♠ 2♥ 2♣ 7♦ 6♠", "2♥ 2♣", "K♣ K♥ K♠ 7♦ 6♠", "A.6 full house"),
    ("6 pair of 2s, ace and king", "Q♣ Q♥ Q♠ 2♥ 2♣ A♦ K♠", "A♦ K♠", "Q♣ Q♥ Q♠ 2♥ 2♣",
     "A.6 full house with pair of 2s, Ace and King"),
    ("6 trips and two pairs", "J♣ J♥ J♠ 4♥ 4♣ 3♦ 3♠", "4♥ 4♣", "J♣ J♥ J♠ 3♦ 3♠",
     "A.6 three of a kind and two pairs"),
    # 7. Four of a kind
    ("7 2s-6s", "4♣ 4♥ 4♠ 4♦ 8♥ 7♦ 3♠", "8♥ 7♦", "4♣ 4♥ 4♠ 4♦ 3♠", "A.7 four 2s-6s"),
    ("7 7s-10s split", "7♣ 7♥ 7♠ 7♦ Q♥ J♦ 5♠", "7♣ 7♥", "7♠ 7♦ Q♥ J♦ 5♠", "A.7 four 7s-10s: split"),
    ("7 7s-10s ace", "7♣ 7♥ 7♠ 7♦ A♥ J♦ 5♠", "A♥ J♦", "7♣ 7♥ 7♠ 7♦ 5♠", "A.7 four 7s-10s with Ace or Joker"),
    ("7 jacks-aces", "J♣ J♥ J♠ J♦ Q♥ 9♦ 4♠", "J♣ J♥", "J♠ J♦ Q♥ 9♦ 4♠", "A.7 four Jacks-Kings"),
    ("7 with a pair", "Q♣ Q♥ Q♠ Q♦ 2♥ 2♦ 3♠", "2♥ 2♦", "Q♣ Q♥ Q♠ Q♦ 3♠",
     "A.7 four of a kind with a pair or three of a kind"),
    ("7 four aces with a pair", "A♣ A♥ A♠ A♦ Q♥ Q♦ 9♠", "A♣ A♥", "A♠ A♦ Q♥ Q♦ 9♠", "A.7 four aces: always split"),
    ("7 four aces with kings", "A♣ A♥ A♠ A♦ K♥ K♦ 9♠", "K♥ K♦", "A♣ A♥ A♠ A♦ 9♠",
     "A.7 four aces with a pair of Kings"),
    # 8. Five of a kind
    # TYPO: printed high "A♣,A♦,@,Q♥,Q♦" repeats the low's A♣; the seven's A♠ goes high.
    ("8 five aces", "A♣ A♥ A♠ A♦ @ Q♥ Q♦", "A♣ A♥", "A♠ A♦ @ Q♥ Q♦", "A.8 five aces: split"),
    # TYPO: printed "@K♥" lacks its comma.
    ("8 five aces with kings", "A♣ A♥ A♠ A♦ @ K♥ K♦", "K♥ K♦", "A♣ A♥ A♠ A♦ @", "A.8 five aces with a pair of Kings"),
]


@pytest.mark.parametrize("section, seven, low, high, row", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_appendix_a_example(section, seven, low, high, row):
    setting = house_way(cards(seven))
    assert setting.rule.startswith(row), setting.rule
    assert same_setting(setting, cards(low), cards(high)), (setting.low, setting.high)


def test_examples_are_legal_sevens_after_the_typo_fixes():
    for _, seven, low, high, _ in EXAMPLES:
        hand = cards(seven)
        assert len(set(hand)) == 7
        assert sorted(cards(low) + cards(high)) == sorted(hand)


def test_printed_typo_hands_are_refused():
    """The three-ace example as printed in the four-of-a-kind row holds A♠ twice: not a hand."""
    with pytest.raises(ValueError, match="duplicate card As"):
        house_way(cards("A♠ A♥ A♠ @ K♦ Q♥ J♦"))


def test_exact_cards_where_appendix_a_prints_them():
    """Where no card of equal rank could be swapped, the printed cards come out exactly."""
    setting = house_way(cards("K♣ K♦ K♥ @ A♠ J♦ 10♠"))
    assert setting.low == tuple(cards("K♣ K♦"))
    setting = house_way(cards("A♣ A♥ A♠ A♦ @ Q♥ Q♦"))
    assert setting.low == tuple(cards("A♣ A♥"))  # earliest aces low; the joker stays high

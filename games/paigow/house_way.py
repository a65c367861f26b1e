"""The House Way (Appendix A): how the dealer sets seven cards, and how a fouled hand is re-set.

Shapes are read with the joker counted as an Ace (Appendix A does: "A♠,@" is a pair of
aces, "A♥,A♠,@" three aces). Section 5 (straights and flushes) overrides sections 1 and 4
for no pair, one pair and three of a kind; every other shape uses its own row, as
Appendix A says ("Use Two Pair rule", "Use Full House Rule", ...).

Each row names the ranks that go to the low hand. Where several cards fit (three aces,
an ace or the joker), the one leaving the better high hand is chosen (this is how
Appendix A's own "A♠,A♥,A♠,@,K♦,Q♥,J♦" keeps a straight with the joker), then the earliest
cards in the order given. Rows where Appendix A is silent are marked "(silent: ...)" and
documented in docs/paigow.md.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any

from games.cards import Card
from games.paigow.hands import (
    ACE,
    CARD_INFO,
    JOKER_SUIT,
    STRAIGHT_OR_BETTER_DRAWS,
    info_high_value,
    info_low_value,
    rank_bits,
    straight_top,
)

KING = 13


@dataclass(frozen=True, slots=True)
class Setting:
    high: tuple[Card, ...]  # five cards
    low: tuple[Card, Card]
    rule: str  # the Appendix A row that decided it, e.g. "A.2 two pairs: split"

    def to_json(self) -> dict[str, Any]:
        return {"high": [str(c) for c in self.high], "low": [str(c) for c in self.low]}


def setting_from_low(cards: Iterable[Card], low: tuple[Card, Card], rule: str) -> Setting:
    """The setting with `low` (two of `cards`) in the low hand and the other five high."""
    rest = list(cards)
    for card in low:
        rest.remove(card)
    return Setting(tuple(rest), low, rule)


def _group(value: int) -> str:
    """Appendix A.2's pair groups: Low 2-6, Medium 7-10, High J-A."""
    return "low" if value <= 6 else "medium" if value <= 10 else "high"


class _Hand:
    """The seven cards read once: (value, suit) per card (joker = Ace), positions by value, shape."""

    __slots__ = ("cards", "infos", "values", "where", "order", "shape", "made")

    def __init__(self, cards: tuple[Card, ...], infos: list[tuple[int, int]]):
        self.cards = cards
        self.infos = infos
        self.values = [value for value, _ in infos]
        self.where: dict[int, list[int]] = {}
        for i, v in enumerate(self.values):
            self.where.setdefault(v, []).append(i)
        self.order = sorted(self.where, key=lambda v: (len(self.where[v]), v), reverse=True)
        self.shape = [len(self.where[v]) for v in self.order]
        self.made = _has_straight_or_flush(infos)

    def of_count(self, count: int) -> list[int]:
        """Values held exactly `count` times, highest first."""
        return [v for v in self.order if len(self.where[v]) == count]

    def pick(self, first: int, second: int, rule: str) -> Setting:
        """Put one card of value `first` and one of `second` low; the best high hand decides
        between interchangeable cards, then the order given."""
        if first == second:
            pairs = list(combinations(self.where[first], 2))
        else:
            pairs = [(a, b) if a < b else (b, a) for a, b in product(self.where[first], self.where[second])]
        if len(pairs) > 1:  # max() keeps the first of equals: earliest cards win ties
            pairs.sort()
            pairs = [max(pairs, key=self._high_after)]
        return self.setting(*pairs[0], rule)

    def _high_after(self, pair: tuple[int, int]) -> int:
        i, j = pair
        return info_high_value([x for k, x in enumerate(self.infos) if k != i and k != j])

    def setting(self, i: int, j: int, rule: str) -> Setting:
        high = tuple(c for k, c in enumerate(self.cards) if k != i and k != j)
        return Setting(high, (self.cards[i], self.cards[j]), rule)

    def keep_made_hand(self, rule: str, low_values: tuple[int, int] | None = None,
                       pair_only: bool = False) -> Setting | None:
        """Appendix A.5: the highest low hand that leaves a straight, flush, straight flush or
        royal flush in the high hand (optionally only lows of `low_values`, or only pairs)."""
        values = self.values
        lows: list[tuple[int, int, int]] = []  # (-low value, i, j)
        for i, j in combinations(range(7), 2):
            if low_values and sorted((values[i], values[j])) != sorted(low_values):
                continue
            if pair_only and values[i] != values[j]:
                continue
            lows.append((-info_low_value(values[i], values[j]), i, j))
        lows.sort()  # highest low first, then the order given: stop at the first low that works
        best: tuple[int, int] | None = None
        best_high, best_low = -1, 0
        for low, i, j in lows:
            if best is not None and low != best_low:
                break
            high = self._high_after((i, j))
            if high >> 20 in STRAIGHT_OR_BETTER_DRAWS and high > best_high:
                best, best_high, best_low = (i, j), high, low
        return None if best is None else self.setting(*best, rule)


def _has_straight_or_flush(infos: Iterable[tuple[int, int]]) -> bool:
    suits = [0, 0, 0, 0]
    mask, wild = 0, 0
    for value, suit in infos:
        if suit == JOKER_SUIT:
            wild = 1
        else:
            suits[suit] += 1
            mask |= rank_bits(value)
    return max(suits) + wild >= 5 or straight_top(mask, bool(wild)) > 0


def house_way(cards: Iterable[Card]) -> Setting:
    """Set seven cards by Appendix A. Raises ValueError unless given seven distinct pai gow cards."""
    cards = tuple(cards)
    if len(cards) != 7:
        raise ValueError(f"the House Way sets seven cards, not {len(cards)}")
    try:
        infos = [CARD_INFO[card] for card in cards]
    except KeyError as unknown:
        raise ValueError(f"{unknown.args[0]} is not a pai gow card") from None
    if len(set(infos)) != 7:
        raise ValueError(f"duplicate card {next(str(c) for c in cards if cards.count(c) > 1)}")
    hand = _Hand(cards, infos)
    top = hand.shape[0]
    if top == 5:
        return _five_aces(hand)
    if top == 4:
        return _four_of_a_kind(hand)
    if top == 3:
        return _three_of_a_kind(hand)
    pairs = hand.of_count(2)
    if len(pairs) == 3:
        return hand.pick(pairs[0], pairs[0], "A.3 three pairs: highest pair low")
    if len(pairs) == 2:
        return _two_pairs(hand, pairs)
    singles = hand.of_count(1)
    if hand.made:
        shape = "one pair" if pairs else "no pair"
        kept = hand.keep_made_hand(f"A.5 {shape}: straight/flush high, highest low")
        if kept is None:  # cannot be: the five cards that make it stay high when the other two go low
            raise AssertionError(f"{' '.join(map(str, cards))}: a straight or flush that no setting keeps high")
        return kept
    if pairs:
        return hand.pick(singles[0], singles[1], "A.1 one pair: pair high, two highest low")
    return hand.pick(singles[1], singles[2], "A.1 no pair: highest high, second and third low")


def _two_pairs(hand: _Hand, pairs: list[int]) -> Setting:
    high_pair, low_pair = pairs
    singles = hand.of_count(1)
    groups = (_group(high_pair), _group(low_pair))
    if high_pair == ACE:
        keep = False
        row = "A.2 pair of aces and any other pair: always split"
    elif groups in (("low", "low"), ("medium", "low")):
        keep = singles[0] >= KING
        row = "A.2 low/medium pairs: split unless a King, Ace or Joker"
    elif groups in (("high", "low"), ("medium", "medium")):
        keep = singles[0] == ACE
        row = "A.2 high+low or two medium pairs: split unless an Ace or Joker"
    else:
        keep = False
        row = "A.2 medium+high or two high pairs: always split"
    if keep:
        return hand.pick(singles[0], singles[1], f"{row}: both pairs high, two highest low")
    return hand.pick(low_pair, low_pair, f"{row}: lower pair low")


def _three_of_a_kind(hand: _Hand) -> Setting:
    trips = hand.of_count(3)
    pairs = hand.of_count(2)
    singles = hand.of_count(1)
    if len(trips) == 2:
        return hand.pick(trips[0], trips[0], "A.4 two three of a kinds: pair of the higher low")
    three = trips[0]
    if pairs:
        kings_exception = _kings_ace_joker(hand, three)
        if kings_exception:
            return kings_exception
        if len(pairs) == 2:
            return hand.pick(pairs[0], pairs[0], "A.6 three of a kind and two pairs: highest pair low")
        if pairs[0] == 2 and singles == [ACE, KING]:
            return hand.pick(ACE, KING, "A.6 full house with pair of 2s, Ace and King: Ace-King low")
        return hand.pick(pairs[0], pairs[0], "A.6 full house: three of a kind high, pair low")
    if hand.made:
        kept = hand.keep_made_hand("A.5 three of a kind: straight/flush high, pair low", pair_only=True)
        if kept:
            return kept
        # (silent: the joker is both the third ace and needed for the straight) -> A.4
    if three == ACE:
        return hand.pick(ACE, singles[0], "A.4 three aces: pair high, Ace and next highest low")
    return hand.pick(singles[0], singles[1], "A.4 three of a kind high, two highest low")


def _kings_ace_joker(hand: _Hand, three: int) -> Setting | None:
    """A.5's full-house exception: three Kings, an Ace and the Joker play the pair of Kings low
    whenever a straight/flush can stay high."""
    if three != KING or not hand.made:
        return None
    aces = [hand.cards[i] for i in hand.where.get(ACE, ())]
    if len(aces) != 2 or not any(CARD_INFO[c][1] == JOKER_SUIT for c in aces):
        return None
    return hand.keep_made_hand("A.5 three Kings, Ace and Joker: Kings low, straight/flush high",
                               low_values=(KING, KING))


def _four_of_a_kind(hand: _Hand) -> Setting:
    quad = hand.order[0]
    rest = hand.shape[1:]
    singles = hand.of_count(1)
    if quad == ACE:
        pairs = hand.of_count(2)
        if pairs == [KING]:
            return hand.pick(KING, KING, "A.7 four aces with a pair of Kings: Kings low")
        return hand.pick(ACE, ACE, "A.7 four aces: always split")
    if rest[0] >= 2:  # a pair or three of a kind beside the four
        other = hand.order[1]
        return hand.pick(other, other, "A.7 four of a kind with a pair or three of a kind: pair low")
    if quad <= 6:
        return hand.pick(singles[0], singles[1], "A.7 four 2s-6s: never split, two highest low")
    if quad <= 10:
        if singles[0] == ACE:
            return hand.pick(singles[0], singles[1], "A.7 four 7s-10s with Ace or Joker: Ace low, four high")
        return hand.pick(quad, quad, "A.7 four 7s-10s: split")
    return hand.pick(quad, quad, "A.7 four Jacks-Kings: always split")


def _five_aces(hand: _Hand) -> Setting:
    if hand.of_count(2) == [KING]:
        return hand.pick(KING, KING, "A.8 five aces with a pair of Kings: Kings low")
    return hand.pick(ACE, ACE, "A.8 five aces: split, two aces low")

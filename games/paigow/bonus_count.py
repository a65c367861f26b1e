"""Exact count of what every seven-card hand makes, without dealing 154,143,080 hands.

The hands split by whether they hold a flush suit: five natural cards of one suit, or four
and the joker. In seven cards at most one suit can, so:

* every hand is counted once by its rank multiset: a multiset with counts c_r (plus the joker
  or not) is dealt in prod C(suits, c_r) ways, all with the same `rank_flags`;
* the flush hands are then enumerated directly: the flush suit (any of `suits`, by symmetry),
  its k ranks, and the rank multiset of the other cards drawn from the other suits
  (prod C(suits - 1, m_r) ways). Each such hand moves from "ranks only" to "ranks + flush".

Royal Match depends on one more thing: the two cards beside a royal flush are a King and a
Queen of the same (other) suit in suits - 1 of their (suits - 1)^2 deals.

`count_flags` is generic in the ranks, the number of suits and the joker, so the method is
checked against brute force on reduced decks (tests/games/paigow/test_paigow_bonus_count.py).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from itertools import combinations
from math import comb, prod
from types import MappingProxyType
from typing import TypeVar

from games.paigow.bonus import rank_flags, suit_flags
from games.paigow.hands import rank_bits

FULL_RANKS = tuple(range(2, 15))
KING, QUEEN = 13, 12
Outcome = TypeVar("Outcome")


def _multisets(values: tuple[int, ...], size: int, cap: int) -> Iterator[dict[int, int]]:
    """Every {value: count} with counts <= cap summing to size (zero counts left out)."""
    counts: dict[int, int] = {}

    def walk(index: int, left: int) -> Iterator[dict[int, int]]:
        if left == 0:
            yield dict(counts)
            return
        if index == len(values):
            return
        value = values[index]
        for n in range(min(cap, left), -1, -1):
            if n:
                counts[value] = n
            yield from walk(index + 1, left - n)
            counts.pop(value, None)

    yield from walk(0, size)


def _ways(multiset: dict[int, int], suits: int) -> int:
    return prod(comb(suits, n) for n in multiset.values())


def _merge(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out = dict(a)
    for value, n in b.items():
        out[value] = out.get(value, 0) + n
    return out


@lru_cache(maxsize=8)
def count_flags(ranks: tuple[int, ...] = FULL_RANKS, suits: int = 4, joker: bool = True,
                hand_size: int = 7) -> MappingProxyType[int, int]:
    """flags -> number of `hand_size`-card hands from the deck `ranks` x `suits` (+ joker).
    Cached (it is pure); the mapping is read-only."""
    if suits < 2:
        raise ValueError("the flush split needs at least two suits")
    totals: Counter[int] = Counter()
    for wild in (False, True) if joker else (False,):
        naturals = hand_size - wild
        # 1. every hand by its ranks alone
        for multiset in _multisets(ranks, naturals, suits):
            totals[rank_flags(multiset, wild)] += _ways(multiset, suits)
        # 2. the flush hands: move each from its rank flags to rank + suit flags
        for k in range(5 - wild, naturals + 1):
            others = list(_multisets(ranks, naturals - k, suits - 1))
            for suited_ranks in combinations(ranks, k):
                in_suit = {v: 1 for v in suited_ranks}
                mask = 0
                for v in suited_ranks:
                    mask |= rank_bits(v)
                plain = suit_flags(mask, k, wild, False)
                matched = suit_flags(mask, k, wild, True)
                for rest in others:
                    ways = _ways(rest, suits - 1) * suits
                    flags = rank_flags(_merge(in_suit, rest), wild)
                    totals[flags] -= ways
                    if matched != plain and rest == {KING: 1, QUEEN: 1}:
                        same_suit = (suits - 1) * suits  # K and Q of one of the other suits
                        totals[flags | matched] += same_suit
                        totals[flags | plain] += ways - same_suit
                    else:
                        totals[flags | plain] += ways
    if sum(totals.values()) != comb(len(ranks) * suits + joker, hand_size):  # the split lost a hand
        raise ArithmeticError(f"counted {sum(totals.values())} hands")
    return MappingProxyType({flags: n for flags, n in totals.items() if n})


def tally(counts: Mapping[int, int], classify: Callable[[int], Outcome]) -> Counter[Outcome]:
    """Fold flag counts into outcome counts with `classify(flags) -> outcome`."""
    out: Counter[Outcome] = Counter()
    for flags, n in counts.items():
        out[classify(flags)] += n
    return out


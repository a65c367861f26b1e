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
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from itertools import combinations
from math import comb, prod
from types import MappingProxyType
from typing import TypeVar

from games.cards import Card
from games.paigow.bonus import rank_flags, suit_flags
from games.paigow.hands import CARD_INFO, JOKER_SUIT, rank_bits

FULL_RANKS = tuple(range(2, 15))
KING, QUEEN = 13, 12
Outcome = TypeVar("Outcome")


def _multisets(values: tuple[int, ...], size: int, cap: int | Mapping[int, int]) -> Iterator[dict[int, int]]:
    """Every {value: count} with counts <= cap (one for all, or per value) summing to size
    (zero counts left out)."""
    counts: dict[int, int] = {}
    caps = cap if isinstance(cap, Mapping) else dict.fromkeys(values, cap)

    def walk(index: int, left: int) -> Iterator[dict[int, int]]:
        if left == 0:
            yield dict(counts)
            return
        if index == len(values):
            return
        value = values[index]
        for n in range(min(caps[value], left), -1, -1):
            if n:
                counts[value] = n
            yield from walk(index + 1, left - n)
            counts.pop(value, None)

    yield from walk(0, size)


def _ways(multiset: dict[int, int], copies: int | Mapping[int, int]) -> int:
    """Deals of the rank multiset from `copies` cards of each rank (one number for all, or per rank)."""
    return prod(comb(copies if isinstance(copies, int) else copies[v], n) for v, n in multiset.items())


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
        # 2. the flush hands: one suit's, times the suits (they are alike), moved to rank + suit flags
        _move_flushes(totals, ranks, dict.fromkeys(ranks, suits - 1), naturals, wild,
                      kq_elsewhere=suits - 1, times=suits)
    if sum(totals.values()) != comb(len(ranks) * suits + joker, hand_size):  # the split lost a hand
        raise ArithmeticError(f"counted {sum(totals.values())} hands")
    return MappingProxyType({flags: n for flags, n in totals.items() if n})


def count_flags_of(cards: Iterable[Card], hand_size: int = 7) -> dict[int, int]:
    """flags -> number of `hand_size`-card hands from exactly these cards (a pai gow deck with
    some already out, each card at most once). The same split as `count_flags`, without its
    symmetry between suits: ranks first, then each suit's flush hands moved over in turn."""
    suits_of: dict[int, set[int]] = {}
    joker = False
    for card in set(cards):
        value, suit = CARD_INFO[card]
        if suit == JOKER_SUIT:
            joker = True
        else:
            suits_of.setdefault(value, set()).add(suit)
    ranks = tuple(sorted(suits_of))
    copies = {value: len(suits) for value, suits in suits_of.items()}
    kings_queens = suits_of.get(KING, set()) & suits_of.get(QUEEN, set())
    totals: Counter[int] = Counter()
    for wild in (False, True) if joker else (False,):
        naturals = hand_size - wild
        for multiset in _multisets(ranks, naturals, copies):
            totals[rank_flags(multiset, wild)] += _ways(multiset, copies)
        for suit in sorted(set().union(*suits_of.values())):
            in_suit = tuple(v for v in ranks if suit in suits_of[v])
            others = {v: copies[v] - (suit in suits_of[v]) for v in ranks}
            _move_flushes(totals, in_suit, others, naturals, wild, kq_elsewhere=len(kings_queens - {suit}), times=1)
    if sum(totals.values()) != comb(sum(copies.values()) + joker, hand_size):  # the split lost a hand
        raise ArithmeticError(f"counted {sum(totals.values())} hands")
    return {flags: n for flags, n in totals.items() if n}


def _move_flushes(totals: Counter[int], in_suit: tuple[int, ...], others: Mapping[int, int], naturals: int, wild: bool,
                  kq_elsewhere: int, times: int) -> None:
    """Move the hands whose flush suit holds the ranks `in_suit` from their rank flags to rank +
    suit flags. `others`: the cards of each rank in the other suits; `kq_elsewhere`: the other
    suits holding both a King and a Queen (Royal Match's low hand); `times`: suits alike."""
    ranks = tuple(others)
    for k in range(5 - wild, naturals + 1):
        rests = list(_multisets(ranks, naturals - k, others))
        for suited_ranks in combinations(in_suit, k):
            held = dict.fromkeys(suited_ranks, 1)
            mask = 0
            for v in suited_ranks:
                mask |= rank_bits(v)
            plain = suit_flags(mask, k, wild, False)
            matched = suit_flags(mask, k, wild, True)
            for rest in rests:
                ways = _ways(rest, others) * times
                flags = rank_flags(_merge(held, rest), wild)
                totals[flags] -= ways
                if matched != plain and rest == {KING: 1, QUEEN: 1}:
                    same_suit = kq_elsewhere * times  # the K and Q of one same other suit
                    totals[flags | matched] += same_suit
                    totals[flags | plain] += ways - same_suit
                else:
                    totals[flags | plain] += ways


def tally(counts: Mapping[int, int], classify: Callable[[int], Outcome]) -> Counter[Outcome]:
    """Fold flag counts into outcome counts with `classify(flags) -> outcome`."""
    out: Counter[Outcome] = Counter()
    for flags, n in counts.items():
        out[classify(flags)] += n
    return out


"""Replayed: an index of the opening cards of every shoe dealt at the table, and the check.

The index keeps each past shoe's first DEPTH cards (up to its first unread card) as bytes
(one byte a card number), in sorted order. Two facts make it cheap and exact:

* the openings sharing the longest prefix with a given one are its neighbours in sorted order,
  so adding an opening tells, for every k, whether its first k cards are new to the index;
* distinct k-card openings are disjoint events for a new shoe, so the chance that a fair
  shuffle's first k cards equal SOME past opening is exactly

      P_k = sum over the distinct past k-card openings a of ways(a) / N(N-1)...(N-k+1)

  (deck_index.sequence_ways), kept as one integer numerator per k, updated on each add.

The check (per shoe) fixes k* = the least k with P_k <= level before the shoe's first card,
and fires when the shoe's first k* cards equal a past opening. The events "the first k cards
match" shrink as k grows, so checking card by card changes nothing: a fair shoe fires with
probability exactly P_k* <= level.
"""
from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence
from fractions import Fraction

from games.integrity.deck_index import falling, sequence_ways

DEPTH = 16  # opening cards kept per shoe: 16 cards of one deck already have 1 chance in 8e26


def _common(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class OpeningIndex:
    """The openings of past shoes of one composition (one deck kind and deck count)."""

    def __init__(self, composition: Sequence[int], depth: int = DEPTH):
        self.composition = tuple(composition)
        self.size = sum(self.composition)
        self.depth = min(depth, self.size)
        self._openings: list[bytes] = []
        self._labels: dict[bytes, list[str]] = {}
        self._ways = [0] * (self.depth + 1)  # k -> sum of ways(a) over distinct past k-card openings
        self._shoes = 0

    def __len__(self) -> int:
        """How many shoes were added (with at least one card read)."""
        return self._shoes

    def add(self, label: str, cards: Sequence[int | None]) -> bytes:
        """A finished shoe's cards in order (numbers; None for an unread card). Returns its
        opening as the index keeps it (b"" when its first card was unread: nothing is kept)."""
        opening = bytearray()
        for x in cards[: self.depth]:
            if x is None:
                break
            opening.append(x)
        key = bytes(opening)
        if not key:
            return key
        self._shoes += 1
        if key in self._labels:
            self._labels[key].append(label)
            return key
        for k in self._new_depths(key):  # the k-card openings this one adds
            self._ways[k] += sequence_ways(key[:k], self.composition)
        insort(self._openings, key)
        self._labels[key] = [label]
        return key

    def remove(self, label: str, key: bytes) -> None:
        """Forget a shoe added before (`key`: what add returned): exactly as if it had never
        been added, so the index can keep only the most recent shoes."""
        labels = self._labels.get(key)
        if not key or not labels or label not in labels:
            raise KeyError(f"{label!r} with that opening is not in the index")
        self._shoes -= 1
        labels.remove(label)
        if labels:
            return
        del self._labels[key]
        del self._openings[bisect_left(self._openings, key)]
        for k in self._new_depths(key):  # the k-card openings no other shoe has
            self._ways[k] -= sequence_ways(key[:k], self.composition)

    def _new_depths(self, key: bytes) -> range:
        """The k for which `key`'s first k cards begin no opening in the index (key not in it)."""
        at = bisect_left(self._openings, key)
        shared = max([_common(key, self._openings[i]) for i in (at - 1, at) if 0 <= i < len(self._openings)], default=0)
        return range(shared + 1, len(key) + 1)

    def probability(self, k: int) -> Fraction:
        """P_k: the chance that a fair shoe's first k cards equal some past opening."""
        if not 1 <= k <= self.depth:
            raise ValueError(f"k must be 1..{self.depth}, got {k}")
        return Fraction(self._ways[k], falling(self.size, k))

    def alarm_depth(self, level: Fraction) -> int | None:
        """k*: the least k with P_k <= level, or None when no depth qualifies (then even a
        full match of DEPTH cards is not rare enough to call)."""
        for k in range(1, self.depth + 1):
            if self._ways[k] * level.denominator <= level.numerator * falling(self.size, k):
                return k
        return None

    def matching(self, prefix: bytes) -> list[str]:
        """The labels of past shoes whose opening begins with `prefix`."""
        out: list[str] = []
        at = bisect_left(self._openings, prefix)
        while at < len(self._openings) and self._openings[at].startswith(prefix):
            out += self._labels[self._openings[at]]
            at += 1
        return out

    def deepest_match(self, prefix: bytes) -> int:
        """The most opening cards `prefix` shares with any past opening."""
        at = bisect_left(self._openings, prefix)
        return max([_common(prefix, self._openings[i]) for i in (at - 1, at) if 0 <= i < len(self._openings)], default=0)


class ReplayCheck:
    """One shoe against the index as it stood before the shoe's first card."""

    def __init__(self, index: OpeningIndex | None, level: Fraction):
        self.index = index
        self.level = level
        self.depth = None if index is None else index.alarm_depth(level)
        self.prefix = bytearray()
        self.open = index is not None  # still reading the opening (no unread card yet)
        self.fired = False
        self.matched: list[str] = []

    def feed(self, x: int | None) -> list[str] | None:
        """The labels of the past shoes replayed, when the check fires (once), else None."""
        if not self.open or self.index is None:
            return None
        if x is None or len(self.prefix) >= self.index.depth:
            self.open = False
            return None
        self.prefix.append(x)
        if self.depth is not None and len(self.prefix) == self.depth:
            matched = self.index.matching(bytes(self.prefix))
            if matched:
                self.fired, self.matched = True, matched
                return matched
        return None

    def shared(self) -> int:
        """How many of this shoe's opening cards match a past shoe's opening."""
        return 0 if self.index is None else self.index.deepest_match(bytes(self.prefix))

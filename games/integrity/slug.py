"""Slug: a run of the previous shoe's cards coming out again in the same order.

A match of length L is a run of L cards of this shoe equal, card for card, to L consecutive
cards of the previous shoe (as dealt; unread cards match nothing). Under a fair shuffle of a
composition with N cards and at most D copies of any card, the chance that a given run of L
positions shows a given sequence is at most D^L / N(N-1)...(N-L+1) (deck_index.sequence_ways;
equality when the sequence repeats no card). With n cards dealt from this shoe and M from the
previous one there are (n-L+1)(M-L+1) pairs of runs, so

    P(a match of length >= L anywhere) <= E_L <= (n-L+1)(M-L+1) D^L / N(N-1)...(N-L+1)

(Markov's inequality on the count of matches, whose exact expectation E_L is
`expected_matches`). The check takes L* = the least L whose bound is <= level, fixed before
the shoe's first card, and fires when a match reaches L* cards (at 1e-6, L* is 7 for an 8-deck
shoe after an 8-deck shoe; 5 for a 6-card deck after another).
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from games.integrity.deck_index import falling, sequence_ways


def match_bound(length: int, dealt: int, previous: int, composition: Sequence[int]) -> Fraction:
    """The bound (n-L+1)(M-L+1) D^L / (N)_L on P(a match of `length` cards), capped at 1."""
    size = sum(composition)
    pairs = max(0, dealt - length + 1) * max(0, previous - length + 1)
    if pairs == 0 or length > size:
        return Fraction(0)
    return min(Fraction(1), Fraction(pairs * max(composition) ** length, falling(size, length)))


def expected_matches(length: int, dealt: int, previous: Sequence[int | None], composition: Sequence[int]) -> Fraction:
    """E_L exactly: the expected number of (this shoe's run, previous shoe's run) pairs of
    `length` cards that match, when `dealt` cards of this shoe are fair-shuffled."""
    size = sum(composition)
    if length > size or dealt < length:
        return Fraction(0)
    ways = 0
    for j in range(len(previous) - length + 1):
        window = previous[j:j + length]
        if None not in window:
            ways += sequence_ways([x for x in window if x is not None], composition)
    return Fraction((dealt - length + 1) * ways, falling(size, length))


class SlugCheck:
    def __init__(self, previous: Sequence[int | None], composition: Sequence[int], dealt: int, level: Fraction,
                 width: int):
        """`previous`: the previous shoe's cards (numbers, None unread); `dealt`: the most cards
        this shoe can deal; `width`: how many card numbers the deck kind has."""
        self.previous = list(previous) + [None]  # a sentinel: every index j has a j + 1
        self.level = level
        self.width = width
        self.length = alarm_length(len(previous), composition, dealt, level)  # L*, None: no run rare enough
        self.positions: dict[int, list[int]] = {}
        for j, x in enumerate(previous):
            if x is not None:
                self.positions.setdefault(x, []).append(j)
        # (card, next card) pairs of the previous shoe, as card * width + next: the fast test
        self.pairs = frozenset(a * width + b for a, b in zip(previous, self.previous[1:]) if a is not None and b is not None)
        self.prev: int | None = None
        self.runs: dict[int, int] = {}  # previous-shoe index j -> length of the match ending at j (>= 2)
        self.longest = 0
        self.longest_at: tuple[int, int] = (0, 0)  # (this shoe's last position, previous shoe's last index)
        self.fired = False

    def bound(self, length: int, dealt: int, composition: Sequence[int]) -> Fraction:
        return match_bound(length, dealt, len(self.previous) - 1, composition)

    def feed(self, x: int | None, position: int) -> tuple[int, int] | None:
        """One card at 0-based `position`; (match length, previous shoe's index of its last
        card) when the check fires (once), else None."""
        prev, self.prev = self.prev, x
        if x is None or prev is None or prev * self.width + x not in self.pairs:
            if self.runs:
                self.runs = {}
            if not self.longest and x in self.positions:
                self.longest, self.longest_at = 1, (position, self.positions[x][0])
            if self.length == 1 and not self.fired and x in self.positions:
                self.fired = True
                return 1, self.positions[x][0]
            return None
        runs, following = self.runs, self.previous
        self.runs = new = {j + 1: runs.get(j, 1) + 1 for j in self.positions[prev] if following[j + 1] == x}
        j = max(new, key=new.__getitem__)
        length = new[j]
        if length > self.longest:
            self.longest, self.longest_at = length, (position, j)
        if not self.fired and self.length is not None and length >= self.length:
            self.fired = True
            return length, j
        return None


def alarm_length(previous: int, composition: Sequence[int], dealt: int, level: Fraction) -> int | None:
    """L*: the least L whose match_bound is <= level (integers only: it runs once a shoe)."""
    size, copies = sum(composition), max(composition)
    ways = 1  # falling(size, length)
    for length in range(1, min(previous, dealt, size) + 1):
        ways *= size - length + 1
        pairs = (dealt - length + 1) * (previous - length + 1)
        if pairs * copies ** length * level.denominator <= level.numerator * ways:
            return length
    return None

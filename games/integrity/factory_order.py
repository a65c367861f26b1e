"""Unshuffled: cards that follow one another in a factory order, as a CUSUM of exact likelihood ratios.

A step is a card with a known card before it. It *follows the factory order* when it is that
card's successor in its suit (deck_index: rank one up or one down) and, if the card before was
itself reached that way, in the same direction. Under a fair shuffle the chance of a follow at
each step is exact and known from the cards still unseen:

    p_t = (copies left of the qualifying successors) / (cards left)

(an unread card is left in the pool: by exchangeability the next card is then a uniform draw
from the unseen cards as if it were still in the shoe). Against the alternative "9 cards in 10
follow" the step's likelihood ratio is

    L_t = (9/10) / p_t  after a follow,   (1/10) / (1 - p_t)  otherwise   (1 when p_t is 0 or 1).

Under a fair shuffle E[L_t | the cards before] = 1 exactly, so for every step s the product
Lambda(s, t) = L_s ... L_t (t >= s) is a nonnegative martingale starting at 1, and Ville's
inequality gives P(sup_t Lambda(s, t) >= A) <= 1/A. A shoe has at most S steps (S = cards it
can deal - 1), so by the union bound over the start s

    P(some run of steps anywhere in the shoe reaches Lambda >= A) <= S / A.

The statistic is the CUSUM W_t = max_s Lambda(s, t) = L_t * max(1, W_{t-1}); the check fires
when W_t >= A = S / level, and states the bound S / W_t <= level. This is a bound, not an exact
probability (docs/integrity.md has the derivation and how tight it is measured to be). A factory
deck makes every step a follow with p about 2 per 52: L is about 23 on the first follow and 46 on
each after it, so at 1e-6 per shoe it fires on the 6th to 8th card of any deck kind.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.integrity.deck_index import DeckIndex

FOLLOW_NUM, FOLLOW_DEN = 9, 10  # the alternative: 9 cards in 10 follow the factory order


@dataclass
class FactoryOrderState:
    """What the check reports: the CUSUM and where its run began, the longest run of follows."""

    cusum: tuple[int, int] | None = None  # W = num / den when >= 1 (None: below 1, no run under way)
    run_from: int = 0  # 0-based position of the first card of the run the CUSUM measures
    best: Fraction | None = None  # the largest W reached
    best_run: tuple[int, int] = (0, 0)  # (first, last) 0-based positions of the run at `best`
    follows: int = 0  # consecutive follows ending at the last card
    longest: int = 0  # the most consecutive follows in the shoe


class FactoryOrderCheck:
    def __init__(self, index: DeckIndex, composition: Sequence[int], steps: int, level: Fraction):
        """`steps`: the most steps the shoe can take (cards it can deal - 1); the union bound
        counts them, so runs are begun only at the first `steps` informative steps."""
        self.up, self.down = index.up, index.down
        self.left = list(composition)
        self.pool = sum(self.left)
        self.steps = max(1, steps)
        self.starts_left = self.steps
        self.level = level
        self.threshold = Fraction(self.steps) / level  # A
        self.prev: int | None = None
        self.direction = 0  # +1 / -1: the card before was reached by a follow up / down
        self.state = FactoryOrderState()
        self.fired = False

    def bound(self, cusum: Fraction) -> Fraction:
        """The false-alarm bound S / W for a CUSUM value W (at most 1)."""
        return min(Fraction(1), Fraction(self.steps) / cusum)

    def feed(self, x: int | None, position: int) -> Fraction | None:
        """One card (its number, None if unread) at 0-based `position`; the CUSUM value when
        the check fires (once), else None."""
        left, prev, st = self.left, self.prev, self.state
        if x is None or left[x] <= 0:  # unread, or a card the shoe cannot hold: no step, no count
            self.prev, self.direction, st.follows = None, 0, 0
            return None
        fired = None
        if prev is not None:
            d = self.direction
            up = self.up[prev] if d >= 0 else None
            down = self.down[prev] if d <= 0 else None
            qualifying = (0 if up is None else left[up]) + (0 if down is None else left[down])
            direction = 1 if x == up else -1 if x == down else 0
            if 0 < qualifying < self.pool:
                if (direction or st.cusum is not None or self.starts_left <= 0
                        or FOLLOW_DEN * qualifying >= FOLLOW_NUM * self.pool):
                    fired = self._step(direction != 0, qualifying, position)
                else:  # no follow, nothing under way, W would stay below 1: the common case
                    self.starts_left -= 1
            self.direction = direction
            if direction:
                st.follows += 1
                if st.follows > st.longest:
                    st.longest = st.follows
            else:
                st.follows = 0
        left[x] -= 1
        self.pool -= 1
        self.prev = x
        return fired

    def _step(self, follow: bool, qualifying: int, position: int) -> Fraction | None:
        st, pool = self.state, self.pool
        may_start = self.starts_left > 0
        self.starts_left -= 1
        if st.cusum is None:
            if not may_start:
                return None
            if not follow and FOLLOW_DEN * qualifying < FOLLOW_NUM * pool:
                return None  # W = (1/10) / (1 - p) < 1: nothing under way
            num, den, run_from = 1, 1, position - 1
        else:
            (num, den), run_from = st.cusum, st.run_from
        # W as an unreduced ratio of integers (exact, and several times cheaper than Fraction)
        if follow:
            num, den = num * FOLLOW_NUM * pool, den * FOLLOW_DEN * qualifying
        else:
            num, den = num * pool, den * FOLLOW_DEN * (pool - qualifying)
        if num < den:
            st.cusum = None
            return None
        st.cusum, st.run_from = (num, den), run_from
        if st.best is None or num * st.best.denominator > st.best.numerator * den:
            st.best, st.best_run = Fraction(num, den), (run_from, position)
        if not self.fired and num * self.threshold.denominator >= self.threshold.numerator * den:
            self.fired = True
            return Fraction(num, den)
        return None

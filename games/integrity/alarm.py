"""What an integrity check reports: the alarm (with its evidence) and each check's statistic.

The false-alarm rate is per shoe (per deck on a deck-per-round table) and shared equally by
the three checks (a union bound), so a fair shoe raises any alarm at all with probability at
most the rate. The consequence is local ruling L7 (docs/local-rulings.md).
"""
from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from games.cards import Card

DEFAULT_FALSE_ALARM_RATE = Fraction(1, 10**6)  # per fair shoe, all checks together
CLAUSE = "local ruling L7"
# How the table journals an alarm: an `irregularity` of this kind, whose consequence is a block:
# the round in progress completes, and no new round opens until the supervisor answers it.
IRREGULARITY_KIND = "shoe_integrity"
BLOCK = "block"
CONSEQUENCE = ("the round in progress completes; no new round opens until the supervisor, with the key, "
               "accepts the shoe or calls a new one; the error lamp shows it")


class Check(str, enum.Enum):
    UNSHUFFLED = "unshuffled"  # cards following one another in a factory order
    REPLAYED = "replayed"  # the opening of a shoe already dealt at this table
    SLUG = "slug"  # a run of the previous shoe's cards in the same order


CHECKS = tuple(Check)


def check_level(false_alarm_rate: Fraction) -> Fraction:
    """Each check's share of the per-shoe false-alarm rate."""
    rate = Fraction(false_alarm_rate)
    if not 0 < rate < 1:
        raise ValueError(f"the false-alarm rate must be between 0 and 1, got {false_alarm_rate}")
    return rate / len(CHECKS)


def probability_json(p: Fraction) -> dict[str, object]:
    """A probability as a float and, exactly, as a fraction (long ones shortened to a float's
    precision in the text, never in the arithmetic)."""
    text = str(p)
    return {"probability": float(p), "probability_exact": text if len(text) <= 80 else None}


@dataclass(frozen=True)
class Alarm:
    """An integrity check fired. `probability`: the chance that a fairly shuffled shoe of this
    composition fires this check at all (exact when `exact`, else an upper bound), which is at
    most `level`, the check's share of the false-alarm rate."""

    check: Check
    shoe: str  # the caller's label of the shoe (or deck)
    cards: tuple[Card | None, ...]  # the cards that make the evidence, in shoe order
    draw_counters: tuple[int | None, ...]  # the shoe's draw counter of each, as passed in
    positions: tuple[int, ...]  # each card's place in the shoe: 1 = the first card out
    probability: Fraction
    exact: bool
    level: Fraction
    detail: str
    evidence: Mapping[str, object] = field(default_factory=dict)

    clause = CLAUSE
    consequence = CONSEQUENCE

    def to_json(self) -> dict[str, object]:
        return {
            "check": self.check.value, "shoe": self.shoe, "clause": self.clause,
            "cards": [None if c is None else str(c) for c in self.cards],
            "draw_counters": list(self.draw_counters), "positions": list(self.positions),
            **probability_json(self.probability), "exact": self.exact, "level": float(self.level),
            "detail": self.detail, "evidence": dict(self.evidence),
        }


@dataclass(frozen=True)
class CheckStatistic:
    """A check's statistic over the cards fed so far, for reports. `smallest_probability` is the
    most extreme value reached, as a probability under a fair shuffle (exact or a bound, as the
    check's alarm would state it); None when the check had nothing to measure."""

    check: Check
    value: str  # the statistic in words: "longest run 3 cards", ...
    smallest_probability: Fraction | None
    exact: bool
    level: Fraction
    fired: bool
    detail: str = ""

    def to_json(self) -> dict[str, object]:
        p = self.smallest_probability
        return {
            "check": self.check.value, "value": self.value,
            "smallest_probability": None if p is None else float(p), "exact": self.exact,
            "level": float(self.level), "fired": self.fired, "detail": self.detail,
        }

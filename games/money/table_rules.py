"""What the rules texts say about wagers beyond their pay tables, by game key and wager key:
which bonus needs which line wager, which wager pays a commission, which stake follows from
another, which fixed-money bonus a wager earns, and where a bettor may stand.

Games are named here only by their keys (games.registry's), so this table follows a game
wherever its module lives; tests/games/money check every key against the registry.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Needs:
    """A wager that may stand only beside one of `any_of` at the same seat."""

    any_of: tuple[str, ...]
    clause: str


@dataclass(frozen=True)
class Commission:
    """The share of a winning stake the house keeps: the pay table's ratio is already net of it,
    so the gross win is stake x (ratio + rate) and the commission is what the pay falls short."""

    rate: Fraction
    clause: str


@dataclass(frozen=True)
class Derived:
    """A stake fixed by another: `multiple` x the `of` wager, placed when the result puts it in action."""

    of: str
    multiple: int
    clause: str


@dataclass(frozen=True)
class FixedBonus:
    """Fixed money a spot's result names under `field` (e.g. Envy), paid only to a spot holding `needs`."""

    field: str
    bet: str  # how the settlement names the payment
    needs: str
    clause: str


NEEDS: Mapping[str, Mapping[str, Needs]] = {
    "fortune7": {
        "one_up": Needs(("player", "banker"), "fortune7 One Up Bonus Bet, ruling 8"),
        "fortune7": Needs(("player", "banker"), "fortune7 Fortune 7 Bonus Bet, ruling 8"),
    },
    "paigow": {"fortune_bonus": Needs(("standard",), "paigow §3.5")},
}

# A wager a spot's decisions presuppose: wherever the result settles it, a stake must stand on it.
PRESUPPOSED: Mapping[str, Mapping[str, str]] = {
    "fubacc": {"ante": "fubacc way 1, procedures 1 and 6"},  # fold, play and bonus are an Ante's choices
    "paigow": {"standard": "paigow §3.4, §3.6"},  # cards are dealt only to a spot with a Standard wager
}

COMMISSIONS: Mapping[str, Mapping[str, Commission]] = {
    "paigow": {"standard": Commission(Fraction(1, 20), "paigow §4.1.1")},
}

DERIVED: Mapping[str, Mapping[str, Derived]] = {
    "fubacc": {"play": Derived("ante", 2, "fubacc way 1, procedure 8")},
}

FIXED_BONUSES: Mapping[str, tuple[FixedBonus, ...]] = {
    "paigow": (FixedBonus("envy", "envy", "fortune_bonus", "paigow §3.18, ruling 21"),),
}

# Baccarat layouts: a betting area per seat, seats 1-7 from the dealer's left (local ruling L8);
# spot games take a wager only at a live spot.
BACCARAT_SEATS = tuple(range(1, 8))
SEATS_CLAUSE = "local ruling L8"

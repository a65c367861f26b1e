"""Money as exact numbers: amounts read from decimal strings, shown as decimal strings, and
the table's rule for a pay that is not a whole minor unit (local ruling L9).

Amounts are Fractions of the currency (25, 2.5, 0.05), never floats. Stakes are whole minor
units; wins are computed exactly and then rounded once, by `MoneyRules.pay`, to a whole minor
unit, so every amount shown is a terminating decimal.
"""
from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

MAX_AMOUNT_CHARS = 32  # an amount read from outside is bounded before it is parsed
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?\Z")  # no sign, no exponent, no thousands separator


class BadAmount(ValueError):
    """An amount that is not a positive decimal of whole minor units; the message names it."""


def parse_amount(text: str) -> Fraction:
    """A non-negative decimal string ("25", "2.50") as an exact Fraction."""
    if len(text) > MAX_AMOUNT_CHARS:
        raise BadAmount(f"amount {text[:MAX_AMOUNT_CHARS]!r}...: longer than {MAX_AMOUNT_CHARS} characters")
    if text.startswith("-"):
        raise BadAmount(f"amount {text!r} is negative")
    if not _DECIMAL.match(text):
        raise BadAmount(f"amount {text!r} is not a decimal number (e.g. 25 or 2.50)")
    return Fraction(text)


def format_amount(amount: Fraction | int) -> str:
    """`amount` as an exact decimal string ("25", "-12.5", "0.05"). Raises ValueError for an
    amount with no terminating decimal (a rounding rule keeps those from ever being shown)."""
    if type(amount) is int:  # the common case, a whole amount: no Fraction arithmetic (bench/bench_money_daemon.py)
        return str(amount)
    if type(amount) is Fraction and amount.denominator == 1:  # a whole stake, win or back: no new Fraction
        return str(amount.numerator)
    amount = Fraction(amount)
    if amount.denominator == 1:
        return str(amount.numerator)
    sign, amount = ("-" if amount < 0 else ""), abs(amount)
    places, scaled = 0, amount
    while scaled.denominator != 1:
        if places > 40:
            raise ValueError(f"{amount} has no terminating decimal")
        places, scaled = places + 1, scaled * 10
    digits = str(scaled.numerator).rjust(places + 1, "0")
    whole, fraction = digits[: len(digits) - places], digits[len(digits) - places:]
    return sign + whole + (f".{fraction}" if fraction else "")


class Rounding(str, enum.Enum):
    """How a win short of a whole minor unit is paid (local ruling L9)."""

    DOWN = "down"  # to the minor unit below: the house keeps the part no chip can pay
    HALF_DOWN = "half_down"  # to the nearest minor unit; exactly half goes to the house
    HALF_UP = "half_up"  # to the nearest minor unit; exactly half goes to the bettor


ROUNDINGS = tuple(r.value for r in Rounding)


@dataclass(frozen=True)
class MoneyRules:
    """A table's money: its minor unit (the smallest amount paid: 1 = whole currency units,
    0.01 = cents, 0.25 = quarter chips) and how a win is rounded to it (local ruling L9)."""

    minor_unit: Fraction = Fraction(1)
    rounding: Rounding = Rounding.DOWN

    def __post_init__(self) -> None:
        if self.minor_unit <= 0:
            raise BadAmount(f"minor unit {format_amount(self.minor_unit)} is not positive")

    @classmethod
    def from_mapping(cls, table: Mapping[str, object]) -> MoneyRules:
        """From a `[money]` table as TOML reads it: `minor_unit` a decimal string, `rounding` a name."""
        unknown = sorted(set(table) - {"minor_unit", "rounding"})
        if unknown:
            raise BadAmount(f"money.{unknown[0]}: unknown key (expected minor_unit, rounding)")
        unit, rounding = table.get("minor_unit", "1"), table.get("rounding", Rounding.DOWN.value)
        if not isinstance(unit, str):
            raise BadAmount(f"money.minor_unit: expected a decimal string such as \"0.01\", got {unit!r}")
        if rounding not in ROUNDINGS:
            raise BadAmount(f"money.rounding: expected one of {', '.join(ROUNDINGS)}, got {rounding!r}")
        return cls(parse_amount(unit), Rounding(rounding))

    def check_stake(self, amount: Fraction) -> None:
        """A stake must be positive and a whole number of minor units (the table takes no less)."""
        if amount <= 0:
            raise BadAmount(f"amount {format_amount(amount)} is not a wager (it must be more than 0)")
        if (amount.denominator if self.minor_unit == 1 else (amount / self.minor_unit).denominator) != 1:
            raise BadAmount(f"amount {format_amount(amount)} is not a whole number of the table's minor unit "
                            f"{format_amount(self.minor_unit)}")

    def pay(self, exact: Fraction) -> Fraction:
        """A win (or a commission's gross) of `exact` >= 0, as paid: a whole number of minor units."""
        units = exact / self.minor_unit
        whole, part = divmod(units.numerator, units.denominator)
        remainder = Fraction(part, units.denominator)
        if self.rounding is Rounding.HALF_UP and remainder >= Fraction(1, 2):
            whole += 1
        elif self.rounding is Rounding.HALF_DOWN and remainder > Fraction(1, 2):
            whole += 1
        return whole * self.minor_unit

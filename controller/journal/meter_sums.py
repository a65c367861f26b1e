"""The meters' sums: a round's and a group's tallies as integers, what they show, and the
report of a table (its shoes and shifts, the alarms), the same for `tablectl meters` and the
pit (controller/journal/meters.py folds the journal into them; docs/meters.md).

A tally is a list of integers in the order of FIELDS: amounts in 10^-6 currency units (MICRO),
the theoretical win in 10^-6 x 10^-12 units and its variance in (10^-6)^2 x 10^-12
(games/money/theory.py keeps each wager's per-unit figures to 12 decimal places, SCALE).
"""
from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

from games.money import format_amount
from games.money.theory import SCALE

DEFAULT_ALARM_SD = Fraction(3)
MICRO = 10 ** 6
FIELDS = ("wagers", "drop", "paid", "collected", "commission", "fees", "unanalysed_drop", "theoretical", "variance")
WAGERS, DROP, PAID, COLLECTED, COMMISSION, FEES, UNANALYSED, THEORETICAL, VARIANCE = range(len(FIELDS))


def decimal_text(value: Fraction | Decimal, places: int) -> str:
    """A figure shown to `places` decimals (theory and sd are not whole minor units)."""
    with localcontext() as context:
        context.prec = 80
        number = value if isinstance(value, Decimal) else Decimal(value.numerator) / Decimal(value.denominator)
        return str(number.quantize(Decimal(1).scaleb(-places)))


def micro_text(amount: int) -> str:
    """An amount in 10^-6 units as format_amount shows it ("25", "-12.5", "0.05"), without a Fraction."""
    whole, part = divmod(abs(amount), MICRO)
    sign = "-" if amount < 0 else ""
    return f"{sign}{whole}.{part:06d}".rstrip("0") if part else f"{sign}{whole}"


def new_tally() -> list[int]:
    return [0] * len(FIELDS)


def add_into(into: list[int], tally: list[int]) -> None:
    into[:] = map(operator.add, into, tally)


@dataclass(frozen=True)
class Figures:
    """One tally's meters, as shown."""

    tally: tuple[int, ...]

    @property
    def house_net(self) -> Fraction:
        return Fraction(self.tally[COLLECTED] - self.tally[PAID] + self.tally[FEES], MICRO)

    @property
    def drop(self) -> Fraction:
        return Fraction(self.tally[DROP], MICRO)

    @property
    def theoretical_win(self) -> Fraction:
        return Fraction(self.tally[THEORETICAL], MICRO * SCALE)

    @property
    def variance(self) -> Fraction:
        return Fraction(self.tally[VARIANCE], MICRO * MICRO * SCALE)

    def sd(self) -> Decimal:
        with localcontext() as context:
            context.prec = 40
            return (Decimal(self.tally[VARIANCE]) / (MICRO * MICRO * SCALE)).sqrt()

    def z(self) -> Decimal | None:
        """How many standard deviations the house's net stands from the theoretical win (40
        significant digits; the alarm itself is decided exactly, by `beyond`)."""
        if self.tally[VARIANCE] <= 0:
            return None
        departure = self.house_net - self.theoretical_win
        with localcontext() as context:
            context.prec = 40
            return (Decimal(departure.numerator) / Decimal(departure.denominator)) / self.sd()

    def beyond(self, sds: Fraction) -> bool:
        """The house's net departs from the theoretical win by more than `sds` standard
        deviations: (net - theory)^2 > sds^2 * variance, in exact fractions (no square root)."""
        return self.tally[VARIANCE] > 0 and (self.house_net - self.theoretical_win) ** 2 > sds ** 2 * self.variance

    def to_json(self) -> dict[str, Any]:
        tally = self.tally
        z = self.z()
        return {
            "wagers": tally[WAGERS], "drop": micro_text(tally[DROP]), "paid": micro_text(tally[PAID]),
            "collected": micro_text(tally[COLLECTED]), "commission": micro_text(tally[COMMISSION]),
            "fees": micro_text(tally[FEES]), "house_net": micro_text(tally[COLLECTED] - tally[PAID] + tally[FEES]),
            "hold_pct": None if not self.drop else decimal_text(self.house_net / self.drop * 100, 2),
            "theoretical_win": decimal_text(self.theoretical_win, 2),
            "theoretical_win_exact": decimal_text(self.theoretical_win, 12),
            "sd": decimal_text(self.sd(), 2), "variance": decimal_text(self.variance, 12),
            "z": None if z is None else float(round(z, 3)), "unanalysed_drop": micro_text(tally[UNANALYSED]),
        }


@dataclass
class RoundMeters:
    """One round's meters: in total and per bet (the total's variance counts the covariances
    between its bets, so it is not the sum of theirs). A void round has none."""

    round: int
    game: str | None
    shoe: int | None
    shift: int | None
    opened_at: str
    ended_at: str | None
    void: bool
    total: list[int]
    bets: dict[str, list[int]]

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "game": self.game, "shoe": self.shoe, "shift": self.shift,
                "opened_at": self.opened_at, "ended_at": self.ended_at, "void": self.void,
                "total": self.total, "bets": self.bets}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundMeters:
        return cls(data["round"], data["game"], data["shoe"], data["shift"], data["opened_at"], data["ended_at"],
                   data["void"], list(data["total"]), {bet: list(t) for bet, t in data["bets"].items()})


@dataclass
class Group:
    """The meters of a set of rounds (a table, a shoe, a shift): in total and per bet."""

    total: list[int] = field(default_factory=new_tally)
    bets: dict[str, list[int]] = field(default_factory=dict)
    rounds: int = 0
    voids: int = 0
    first_at: str | None = None
    last_at: str | None = None

    def add(self, meters: RoundMeters) -> None:
        if meters.void:
            self.voids += 1
            return
        self.rounds += 1
        add_into(self.total, meters.total)
        for bet, tally in meters.bets.items():
            add_into(self.bets.get(bet) or self.bets.setdefault(bet, new_tally()), tally)
        if self.first_at is None or meters.opened_at < self.first_at:
            self.first_at = meters.opened_at
        end = meters.ended_at or meters.opened_at
        if self.last_at is None or end > self.last_at:
            self.last_at = end

    def add_round(self, bets: Mapping[str, list[int]], variance: int, opened_at: str, ended_at: str | None) -> None:
        """`add` of a round that stands given by its tallies per bet and its variance (the
        round's total is their sum, with that variance: RoundMeters.total)."""
        self.rounds += 1
        if bets:
            total = self.total
            total[:] = map(sum, zip(total, *bets.values(), strict=True))
            total[VARIANCE] += variance - sum(tally[VARIANCE] for tally in bets.values())
            mine = self.bets
            for bet, tally in bets.items():
                into = mine.get(bet)
                if into is None:
                    mine[bet] = list(tally)
                else:
                    into[:] = map(operator.add, into, tally)
        if self.first_at is None or opened_at < self.first_at:
            self.first_at = opened_at
        end = ended_at or opened_at
        if self.last_at is None or end > self.last_at:
            self.last_at = end

    def merge(self, other: Group) -> None:
        self.rounds += other.rounds
        self.voids += other.voids
        add_into(self.total, other.total)
        for bet, tally in other.bets.items():
            add_into(self.bets.get(bet) or self.bets.setdefault(bet, new_tally()), tally)
        firsts = [at for at in (self.first_at, other.first_at) if at]
        lasts = [at for at in (self.last_at, other.last_at) if at]
        self.first_at, self.last_at = min(firsts, default=None), max(lasts, default=None)

    @property
    def figures(self) -> Figures:
        return Figures(tuple(self.total))

    def hands_per_hour(self) -> float | None:
        if not self.first_at or not self.last_at or self.rounds < 2:
            return None
        seconds = (_when(self.last_at) - _when(self.first_at)).total_seconds()
        return None if seconds <= 0 else round(self.rounds * 3600 / seconds, 1)

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "void_rounds": self.voids, "first_at": self.first_at, "last_at": self.last_at,
                "hands_per_hour": self.hands_per_hour(), **self.figures.to_json(),
                "bets": {bet: Figures(tuple(t)).to_json() for bet, t in sorted(self.bets.items())}}


def _when(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


@dataclass
class Shift:
    number: int
    name: str | None
    opened_at: str | None
    opened_by: Any = None
    closed_at: str | None = None
    closed_by: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"shift": self.number, "name": self.name, "opened_at": self.opened_at, "opened_by": self.opened_by,
                "closed_at": self.closed_at, "closed_by": self.closed_by}


def sum_into(parts: dict[tuple[int | None, int | None], Group], meters: RoundMeters) -> None:
    key = (meters.shoe, meters.shift)
    (parts.get(key) or parts.setdefault(key, Group())).add(meters)


@dataclass
class MetersReport:
    table: Group
    shoes: dict[int | None, Group]
    shifts: dict[int, Group]
    shift_info: Mapping[int, Shift]
    rounds: list[RoundMeters]
    alarm_sd: Fraction
    theory: str
    notes: list[str]
    shoe: int | None = None
    shift: int | None = None

    @classmethod
    def of(cls, meters: Iterable[RoundMeters], shift_info: Mapping[int, Shift], alarm_sd: Fraction, theory: str,
           notes: list[str], shoe: int | None = None, shift: int | None = None) -> MetersReport:
        # one Group per (shoe, shift) as the rounds go by, merged once into each view
        parts: dict[tuple[int | None, int | None], Group] = {}
        listed = []
        for m in meters:
            sum_into(parts, m)
            listed.append(m)
        return cls.of_parts(parts, listed, shift_info, alarm_sd, theory, notes, shoe, shift)

    @classmethod
    def of_parts(cls, parts: Mapping[tuple[int | None, int | None], Group], listed: list[RoundMeters],
                 shift_info: Mapping[int, Shift], alarm_sd: Fraction, theory: str, notes: list[str],
                 shoe: int | None = None, shift: int | None = None) -> MetersReport:
        table, shoes = Group(), dict[int | None, Group]()
        shifts = {number: Group() for number in shift_info if shift is None or number == shift}
        for (shoe_no, shift_no), part in parts.items():
            table.merge(part)
            shoes.setdefault(shoe_no, Group()).merge(part)
            if shift_no is not None:
                shifts.setdefault(shift_no, Group()).merge(part)
        return cls(table, shoes, shifts, shift_info, listed, alarm_sd, theory, notes, shoe, shift)

    def alarms(self) -> list[dict[str, Any]]:
        """Every shift whose house net departs from its theoretical win by more than alarm_sd sd."""
        out = []
        for number, group in sorted(self.shifts.items()):
            figures = group.figures
            z = figures.z()
            if z is not None and figures.beyond(self.alarm_sd):
                out.append({"shift": number, "actual": format_amount(figures.house_net),
                            "theoretical": decimal_text(figures.theoretical_win, 2), "sd": decimal_text(figures.sd(), 2),
                            "z": float(round(z, 3)), "alarm_sd": decimal_text(self.alarm_sd, 2),
                            "direction": "house above theory" if z > 0 else "house below theory"})
        return out

    def to_json(self) -> dict[str, Any]:
        def shift_json(number: int, group: Group) -> dict[str, Any]:
            info = self.shift_info.get(number) or Shift(number, None, None)
            return {**info.to_json(), **group.to_json()}

        out: dict[str, Any] = {
            "theory": self.theory, "alarm_sd": decimal_text(self.alarm_sd, 2),
            "table": self.table.to_json(),
            "shoes": [{"shoe": number, **group.to_json()} for number, group in
                      sorted(self.shoes.items(), key=lambda item: (item[0] is None, item[0] or 0))],
            "shifts": [shift_json(number, group) for number, group in sorted(self.shifts.items())],
            "alarms": self.alarms(),
            "notes": self.notes,
        }
        if self.shoe is not None or self.shift is not None:
            out["rounds"] = [{"round": m.round, "shoe": m.shoe, "shift": m.shift, "void": m.void,
                              "opened_at": m.opened_at, **Figures(tuple(m.total)).to_json()} for m in self.rounds]
        return out

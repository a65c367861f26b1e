"""The bet sensor's live reading of every betting space: its layout and the chips on each.

A space's amount counts only the house's chips: a foreign one (controller.table.chip_registry)
is listed apart and never counts toward a wager (local ruling L10). Chips' tag values are whole
units of `chip_unit` of the currency (0.01: tags carry cents).

The sensor is live once its layout is heard (`BetLayoutHeard`, at each of its sessions); until
then, after a restart too, the table takes wagers by command and checks no payout. Its readings
are current (`heard`) once every space of the layout has been read as well: the session's whole
state comes space by space after the layout.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from operator import itemgetter
from typing import Any

from controller.table import inputs as i
from controller.table.chip_registry import ChipRegistry
from games.money import format_amount
from games.round import Game

MAX_VERDICTS = 100_000  # chips' verdicts kept between registry changes
MAX_AMOUNTS = 10_000  # tag values and spaces' totals kept in currency


@dataclass(frozen=True)
class ForeignChip:
    uid: str
    value: Fraction
    why: str  # "unknown" | "retired" | "value differs"


@dataclass(frozen=True)
class SpaceReading:
    """One space as read now: the house's chips and their sum, and the foreign ones apart."""

    space: int
    seat: int
    bet: str
    amount: Fraction
    chips: tuple[tuple[str, int], ...]  # the house's chips (UID, tag value) bottom first
    foreign: tuple[ForeignChip, ...] = ()
    overflow: bool = False
    shown: str = field(default="", compare=False, repr=False)  # format_amount(amount) if known ("": not yet)

    def to_json(self) -> dict[str, Any]:
        """A fresh dict each call; its parts are worked out once (a reading is published at
        every input, and kept while its chips do not change). Kept in the instance's __dict__
        by hand: functools.cached_property takes a lock on every first look."""
        made = self.__dict__.get("_json")
        if made is None:
            made = self.__dict__["_json"] = {
                "space": self.space, "seat": self.seat, "bet": self.bet,
                "amount": self.shown or format_amount(self.amount), "chips": list(map(list, self.chips)),
                "foreign": [f.uid for f in self.foreign], **({"overflow": True} if self.overflow else {})}
        return dict(made)


class BetBoard:
    def __init__(self, game: Game, registry: ChipRegistry, chip_unit: Fraction, extra_spaces: tuple[str, ...] = ()):
        self.game, self.registry, self.chip_unit = game, registry, chip_unit
        # the layout's names: the game's wagers, then spaces of the table's own (Fortune 7's `bank`)
        self.names = (*game.wagers, *extra_spaces)
        self.layout: dict[int, tuple[int, str]] = {}  # space id -> (seat, bet)
        self.raw: dict[int, i.SpaceChips] = {}  # space id -> the last reading
        # what the readings and chips came to, kept while neither they nor the registry change
        # (every input asks again; Fraction sums per chip would cost more than the rest of a round)
        self._readings: dict[int, tuple[i.SpaceChips | None, int, SpaceReading]] = {}
        self._verdicts: dict[tuple[str, int], str | None] = {}
        self._house: set[tuple[str, int]] = set()  # the chips whose verdict is None: the house's
        self._version = -1
        self._amounts: dict[int, Fraction] = {}  # tag units -> amount (a few denominations and totals recur)
        self._shown: dict[int, str] = {}  # a total in tag units -> its amount as shown
        self.unheard = ""  # why the sensor's readings are not live now (its link lost, a layout that does not fit)

    @property
    def live(self) -> bool:
        """The table has a bet sensor: its layout was heard (the table reads wagers from it)."""
        return bool(self.layout)

    @property
    def heard(self) -> bool:
        """The sensor's readings are current: its layout is known, its link is up, and every space
        of the layout has been read (after a restart the spaces come one by one after the layout)."""
        return self.live and not self.unheard and not self.unread()

    def unread(self) -> int:
        """How many spaces of the layout have no reading yet."""
        return sum(1 for space in self.layout if space not in self.raw)

    def why_not_heard(self) -> str:
        """Why the readings are not current ("" when they are)."""
        if self.unheard or not self.live:
            return self.unheard or "no layout heard"
        unread = self.unread()
        return f"{unread} of its {len(self.layout)} spaces not read yet since its layout" if unread else ""

    def sensor_state(self) -> str:
        """`live`, `lost` (a sensor whose readings are not current) or `none` (no sensor)."""
        return "none" if not self.live else "lost" if self.unheard else "live"

    def set_layout(self, spaces: tuple[tuple[int, int, str], ...]) -> list[str]:
        """Take the sensor's layout; returns what it names that the game has not (those spaces
        are left out). Readings of spaces the new layout lacks are dropped."""
        problems: list[str] = []
        layout: dict[int, tuple[int, str]] = {}
        for space, seat, bet in spaces:
            if bet not in self.names:
                problems.append(f"space {space}: {self.game.key} has no bet {bet!r}")
                continue
            if (seat, bet) in layout.values():
                problems.append(f"space {space}: seat {seat} {bet} has a space already")
                continue
            layout[space] = (seat, bet)
        self.raw = {space: reading for space, reading in self.raw.items()
                    if layout.get(space) == self.layout.get(space)}  # a space that now means another is read afresh
        self.layout = layout
        return problems

    def take(self, inp: i.SpaceChips) -> SpaceReading | str:
        """Keep `inp` as its space's reading now; the reading, or why it is not taken."""
        if inp.space not in self.layout:
            return f"space {inp.space} is not in the bet sensor's layout"
        if self.layout[inp.space] != (inp.seat, inp.bet):
            seat, bet = self.layout[inp.space]
            return f"space {inp.space} is seat {seat} {bet} in the layout, not seat {inp.seat} {inp.bet}"
        self.raw[inp.space] = inp
        return self.reading(inp.space)

    def reading(self, space: int) -> SpaceReading:
        raw, version = self.raw.get(space), self.registry.version
        if version != self._version:
            self._readings, self._verdicts, self._house, self._version = {}, {}, set(), version
        cached = self._readings.get(space)
        if cached is not None and cached[0] is raw:
            return cached[2]
        reading = self._read(space, raw)
        self._readings[space] = (raw, version, reading)
        return reading

    def _read(self, space: int, raw: i.SpaceChips | None) -> SpaceReading:
        seat, bet = self.layout[space]
        if raw is None:
            return SpaceReading(space, seat, bet, Fraction(0), ())
        if self._house.issuperset(raw.chips):
            # the usual reading: house chips seen before, kept as the sensor's tuple, checked and
            # summed in C (no Python frame per chip)
            amount, shown = self._amount(sum(map(itemgetter(1), raw.chips)))
            return SpaceReading(space, seat, bet, amount, raw.chips, (), raw.overflow, shown)
        verdicts = self._verdicts
        house, foreign, total = [], [], 0
        for key in raw.chips:
            uid, tag = key
            if key not in verdicts:
                if len(verdicts) >= MAX_VERDICTS:  # bounded, whatever a sensor reports
                    verdicts.clear()
                    self._house.clear()
                verdicts[key] = self.registry.why_foreign(uid, self._in_currency(tag)) if self.registry.loaded else None
            why = verdicts[key]
            if why is None:
                self._house.add(key)
                house.append(key)
                total += tag
            else:
                foreign.append(ForeignChip(uid, self._in_currency(tag), why))
        amount, shown = self._amount(total)
        return SpaceReading(space, seat, bet, amount, tuple(house), tuple(foreign), raw.overflow, shown)

    def _in_currency(self, units: int) -> Fraction:
        """`units` of chip_unit as an amount, worked out once per number: a Fraction product for
        every chip and reading costs more than the rest of reading a space."""
        amount = self._amounts.get(units)
        if amount is None:
            if len(self._amounts) >= MAX_AMOUNTS:  # bounded, whatever a sensor reports
                self._amounts.clear()
            amount = self._amounts[units] = units * self.chip_unit
        return amount

    def _amount(self, units: int) -> tuple[Fraction, str]:
        """A space's total: the amount and as it is shown, each worked out once per number (the
        decimal of an amount in cents costs more than reading the space)."""
        amount, shown = self._in_currency(units), self._shown.get(units)
        if shown is None:
            if len(self._shown) >= MAX_AMOUNTS:
                self._shown.clear()
            shown = self._shown[units] = format_amount(amount)
        return amount, shown

    def readings(self) -> list[SpaceReading]:
        """Every space of the layout, in seat and layout order."""
        order = list(self.names)
        spaces = sorted(self.layout, key=lambda s: (self.layout[s][0], order.index(self.layout[s][1])))
        return [self.reading(space) for space in spaces]

    def space_of(self, seat: int, bet: str) -> int | None:
        return next((space for space, key in self.layout.items() if key == (seat, bet)), None)

    def amounts(self) -> Mapping[tuple[int, str], Fraction]:
        return {(r.seat, r.bet): r.amount for r in self.readings()}

"""The bet sensor's typed events (protocol 1.3, PROTOCOL.md §10), beside drivers.events.

Like every DeviceEvent they carry `device` and `at`, and only the sensor's own facts: a
chip's UID and tag value as read. Whether a chip is the house's (a foreign chip), what a
space's wager is worth and whether it may still change are the controller's business.
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter

from drivers.events import DeviceEvent


@dataclass(frozen=True, kw_only=True)
class BetLayout(DeviceEvent):
    """The sensor's betting spaces, whole: (space id, seat or spot, wager key) each, by id."""
    spaces: tuple[tuple[int, int, str], ...]


@dataclass(frozen=True, kw_only=True)
class SpaceChips(DeviceEvent):
    """The chips on one space now, whole: (UID as hex, tag value in minor units) each, bottom
    first. `seat` and `name` are the layout's (None while no layout was heard from this boot);
    `overflow`: more chips lie there than the sensor reports, so the list is not the stack."""
    space: int
    seat: int | None
    name: str | None
    change: int  # the space's change count since the sensor booted
    chips: tuple[tuple[str, int], ...]
    overflow: bool = False

    @property
    def total(self) -> int:
        return sum(map(itemgetter(1), self.chips))  # in C: no Python frame per chip

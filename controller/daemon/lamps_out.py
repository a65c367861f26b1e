"""The table's lamp pictures (names -> patterns) onto the lamp board (wire ids -> LampPattern).

Only lamps that differ from the last picture are handed to the LightsDriver, which itself
sends only what differs from the board and, after a reconnect or a board reboot, puts the
whole wanted picture back without being asked.
"""
from __future__ import annotations

from collections.abc import Mapping

from controller.table import Pattern, lamp_ids
from firmware_bridge.enums import LampPattern

WIRE_PATTERN = {Pattern.OFF.value: LampPattern.OFF, Pattern.ON.value: LampPattern.ON,
                Pattern.SLOW.value: LampPattern.SLOW_BLINK, Pattern.FAST.value: LampPattern.FAST_BLINK}


class LampOutput:
    def __init__(self, lights, game_key: str) -> None:
        self.lights = lights  # a drivers.lights.LightsDriver (or anything with set_lamps/all_off)
        self.ids = lamp_ids(game_key)
        self.shown: dict[str, str] = {}

    def show(self, picture: Mapping[str, str]) -> dict[int, LampPattern]:
        """Set the lamps of `picture` that changed; returns what was sent (wire id -> pattern)."""
        changed = {self.ids[name]: WIRE_PATTERN[pattern] for name, pattern in picture.items()
                   if self.shown.get(name) != pattern}
        self.shown.update(picture)
        if changed:
            self.lights.set_lamps(changed)
        return changed

    def all_off(self) -> None:
        """The safe picture at shutdown: every lamp off (the board keeps it until told otherwise)."""
        self.lights.all_off()
        self.shown = {name: Pattern.OFF.value for name in self.ids}

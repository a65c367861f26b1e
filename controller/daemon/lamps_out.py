"""The table's lamp pictures (names -> patterns) onto the lamp board (wire ids -> LampPattern).

The whole picture is handed to the LightsDriver, which keeps what is wanted and what the
board shows and sends only the lamps that differ (drivers/lights.py, `changed_lamps`: the
one diff), also after a reconnect or a board reboot.
"""
from __future__ import annotations

from collections.abc import Mapping

from controller.table import Pattern, lamp_ids
from firmware_bridge.enums import LampPattern

WIRE_PATTERN = {Pattern.OFF.value: LampPattern.OFF, Pattern.ON.value: LampPattern.ON,
                Pattern.SLOW.value: LampPattern.SLOW_BLINK, Pattern.FAST.value: LampPattern.FAST_BLINK}
PATTERN_NAME = {wire: name for name, wire in WIRE_PATTERN.items()}


class LampOutput:
    def __init__(self, lights, game_key: str) -> None:
        self.lights = lights  # a drivers.lights.LightsDriver (or anything with desired/set_lamps/all_off)
        self.ids = lamp_ids(game_key)
        self.names = {wire_id: name for name, wire_id in self.ids.items()}
        self._handed: dict[str, str] | None = None  # the last picture handed to the driver (this is its only writer)

    def show(self, picture: Mapping[str, str]) -> None:
        """The lamps of `picture` as they should be; the driver sends what the board lacks
        (also after a reconnect: it keeps what is wanted). The picture the driver was handed
        last is not mapped and compared again: most cards change no lamp."""
        if picture == self._handed:
            return
        self.lights.set_lamps({self.ids[name]: WIRE_PATTERN[pattern] for name, pattern in picture.items()})
        self._handed = dict(picture)

    @property
    def shown(self) -> dict[str, str]:
        """The picture wanted on the board now, by lamp name (the driver's, read back)."""
        return {self.names[wire_id]: PATTERN_NAME[pattern] for wire_id, pattern in self.lights.desired.items()
                if wire_id in self.names}

    def all_off(self) -> None:
        """The safe picture at shutdown: every lamp off (the board keeps it until told otherwise)."""
        self._handed = None
        self.lights.all_off()

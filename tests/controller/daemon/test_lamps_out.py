"""LampOutput: the table's lamp pictures onto the board's driver. A picture equal to the one
handed over last is not mapped or handed again (most cards change no lamp); any other picture
is, and after all_off (the board dark) the next picture goes whole again.

The driver here is a recorder of set_lamps / all_off calls (the property is which calls
LampOutput makes; the LightsDriver's own diff against the board is tested in tests/drivers)."""
from __future__ import annotations

from controller.daemon.lamps_out import WIRE_PATTERN, LampOutput
from controller.table import Table, lamp_ids
from firmware_bridge.enums import LampPattern


class Recorder:
    def __init__(self) -> None:
        self.calls: list = []
        self.desired: dict = {}

    def set_lamps(self, lamps) -> None:
        self.calls.append(dict(lamps))
        self.desired.update(lamps)

    def all_off(self) -> None:
        self.calls.append("all_off")
        self.desired = {lamp: LampPattern.OFF for lamp in self.desired}


def test_an_unchanged_picture_is_handed_over_once():
    driver = Recorder()
    out = LampOutput(driver, "fortune6")
    picture = Table("fortune6").snapshot()["lamps"]
    out.show(picture)
    out.show(dict(picture))  # equal, another dict: as the table returns it after every input
    ids = lamp_ids("fortune6")
    assert driver.calls == [{ids[name]: WIRE_PATTERN[state] for name, state in picture.items()}]


def test_a_changed_picture_and_one_after_all_off_go_to_the_driver():
    driver = Recorder()
    out = LampOutput(driver, "fortune6")
    picture = Table("fortune6").snapshot()["lamps"]
    out.show(picture)
    name = next(iter(picture))
    changed = {**picture, name: "fast" if picture[name] != "fast" else "off"}
    out.show(changed)
    assert driver.calls[-1][lamp_ids("fortune6")[name]] == (
        LampPattern.FAST_BLINK if changed[name] == "fast" else LampPattern.OFF)
    out.all_off()
    out.show(changed)  # the board is dark: the same picture must be lit again
    assert driver.calls[-2:] == ["all_off", driver.calls[1]]
    assert out.shown == changed

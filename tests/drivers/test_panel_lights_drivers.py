"""PanelDriver and LightsDriver against the real simulator processes over real ptys."""
from __future__ import annotations

import pytest

from drivers.errors import DeviceTimeoutError, LinkDownError
from drivers.events import (
    ButtonPressed,
    ButtonReleased,
    DeviceError,
    KeyTurned,
    LampReport,
    PanelState,
)
from drivers.lights import LightsDriver
from drivers.panel import PanelDriver
from drivers.reconnect import Backoff
from firmware_bridge.enums import ErrorCode, LampPattern
from firmware_bridge.messages import Button, Key

FAST = dict(backoff=Backoff(0.01, 2.0, 0.1))
ON, SLOW, FASTB, OFF = LampPattern.ON, LampPattern.SLOW_BLINK, LampPattern.FAST_BLINK, LampPattern.OFF


# ----------------------------------------------------------------------------- panel
def test_panel_buttons_and_key(sim, sink):
    process = sim("panel", "--key", "on")
    with PanelDriver(process.link, sink, reactor=sink.reactor, **FAST):
        state = sink.wait_for(PanelState)[0]
        assert state.key_on and state.pressed == ()
        process.command("press", button=3)
        process.command("press", button=7)
        process.command("release", button=3)
        process.command("key", on=False)
        process.command("click", button=0)
        sink.wait_for(ButtonReleased, 2)
        wanted = (ButtonPressed, ButtonReleased, KeyTurned)
        seen = [(type(e).__name__, getattr(e, "button", getattr(e, "on", None)))
                for e in sink.events if isinstance(e, wanted)]
    assert seen == [("ButtonPressed", 3), ("ButtonPressed", 7), ("ButtonReleased", 3),
                    ("KeyTurned", False), ("ButtonPressed", 0), ("ButtonReleased", 0)]
    assert all(e.device == "panel" for e in sink.events)


def test_panel_state_after_replug_shows_held_buttons(sim, sink):
    process = sim("panel")
    with PanelDriver(process.link, sink, reactor=sink.reactor, **FAST):
        sink.wait_for(PanelState)
        process.command("fault", kind="unplug")
        sink.wait_journaled("LinkLost")
        process.command("press", button=5)  # pressed while unplugged
        process.command("fault", kind="replug")
        sink.wait_journaled("LinkRestored")
        assert sink.wait_for(ButtonPressed)[0].button == 5
        # a status from before the unplug may be resent first; the fresh answer follows
        sink.wait_for(PanelState, where=lambda e: e.pressed == (5,))
        process.command("release", button=5)
        sink.wait_for(ButtonReleased)
    assert [e.button for e in sink.of(ButtonPressed)] == [5]


def test_repeated_button_message_is_reported_once(sim, sink):
    """A press resent across a reconnect (ack lost with the link) is not a second press."""
    process = sim("panel")
    with PanelDriver(process.link, sink, reactor=sink.reactor, **FAST) as driver:
        sink.wait_for(PanelState)
        process.command("press", button=2)
        sink.wait_for(ButtonPressed)
        driver._on_message(Button(2, True), 0.0)  # what a resent frame delivers: the same message again
        driver._on_message(Key(False), 0.0)  # the key is already off
        process.command("release", button=2)
        sink.wait_for(ButtonReleased)
    assert len(sink.of(ButtonPressed)) == 1 and not sink.of(KeyTurned)


# ----------------------------------------------------------------------------- lights
def board(**lit) -> dict:
    """All 8 lamps of the test board: off except the ones named, e.g. board(l1=ON)."""
    return {i: lit.get(f"l{i}", OFF) for i in range(8)}


@pytest.fixture
def lights(sim, sink):
    process = sim("lights", "--lamps", "8")
    driver = LightsDriver(process.link, sink, reactor=sink.reactor, **FAST).start()
    sink.wait_for(LampReport)  # the session's first report: the driver knows the board
    yield process, driver
    driver.close()


def delivered(process) -> int:
    return process.command("state")["link"]["delivered"]


def test_set_and_read_back(lights, sink):
    process, driver = lights
    driver.set_lamp(1, ON)
    driver.set_lamps({2: SLOW, 7: FASTB})
    assert driver.read_back(5.0) == board(l1=ON, l2=SLOW, l7=FASTB)
    assert process.command("state")["lit"] == {"1": "on", "2": "slow_blink", "7": "fast_blink"}


def test_only_changed_lamps_are_written(lights):
    process, driver = lights
    driver.set_lamps({1: ON, 2: SLOW})
    driver.read_back(5.0)
    before = delivered(process)
    driver.set_lamps({1: ON, 2: SLOW, 3: FASTB})  # one new lamp
    driver.set_lamp(1, ON)  # no change at all
    driver.read_back(5.0)
    assert delivered(process) - before == 2  # one LAMP_SET and the query


def test_all_off(lights):
    process, driver = lights
    driver.set_lamps({0: ON, 4: FASTB})
    driver.all_off()
    assert set(driver.read_back(5.0).values()) == {OFF}
    assert process.command("state")["lit"] == {}
    driver.set_lamp(4, FASTB)  # after all_off a lamp is written again
    assert driver.read_back(5.0)[4] == FASTB


def test_rebooted_board_is_put_back(lights, sink):
    process, driver = lights
    driver.set_lamps({1: ON, 6: SLOW})
    driver.read_back(5.0)
    process.command("fault", kind="reboot")
    sink.wait_journaled("DeviceRebooted")
    assert driver.read_back(5.0) == board(l1=ON, l6=SLOW)


def test_replug_restores_only_what_changed_meanwhile(lights, sink):
    process, driver = lights
    driver.set_lamps({1: ON, 2: SLOW})
    driver.read_back(5.0)
    process.command("fault", kind="unplug")
    sink.wait_journaled("LinkLost")
    with pytest.raises(LinkDownError):
        driver.read_back(1.0)
    driver.set_lamp(3, FASTB)  # while down: remembered
    before = delivered(process)
    process.command("fault", kind="replug")
    sink.wait_journaled("LinkRestored")
    assert driver.read_back(5.0) == board(l1=ON, l2=SLOW, l3=FASTB)
    assert delivered(process) - before == 3  # the session's query, lamp 3, our query


def test_lamp_the_board_lacks_is_a_device_error(lights, sink):
    process, driver = lights
    driver.set_lamp(40, ON)
    error = sink.wait_for(DeviceError)[0]
    assert error.code == ErrorCode.BAD_LAMP and "lamp 40" in error.detail


def test_read_back_times_out_on_a_stalled_board(lights):
    process, driver = lights
    process.command("fault", kind="stall", seconds=2)
    with pytest.raises(DeviceTimeoutError, match="no lamp report"):
        driver.read_back(0.3)
    assert isinstance(DeviceTimeoutError("x"), TimeoutError)


def test_lights_driver_connects_once(lights, sink):
    assert len(sink.journaled("DeviceConnected")) == 1
    assert sink.of(LampReport)[0].lamps == (0,) * 8

"""Driver construction and API guards that need no device on the other end."""
from __future__ import annotations

import os
import select
import time

import pytest

from drivers.errors import BadDeviceUrl, LinkDownError
from drivers.events import LinkDown
from drivers.factory import driver_for
from drivers.lights import LightsDriver
from drivers.reconnect import Backoff
from drivers.shoe import ShoeDriver
from firmware_bridge.frame import SYNC


def test_bad_url_fails_at_construction_naming_the_part(reactor):
    with pytest.raises(BadDeviceUrl, match="unknown scheme 'tcp'"):
        ShoeDriver("tcp://127.0.0.1:9", lambda e: None, reactor=reactor)


def test_factory_knows_each_kind_and_rejects_others(tmp_path, reactor):
    for kind in ("shoe", "panel", "lights"):
        driver = driver_for(kind, str(tmp_path / kind), lambda e: None, reactor=reactor, start=False)
        assert driver.name == kind and driver.KIND.name.lower() == kind
        driver.close()
    with pytest.raises(ValueError, match="unknown device kind 'dice'"):
        driver_for("dice", str(tmp_path / "x"), lambda e: None, reactor=reactor)


def test_close_is_idempotent_with_or_without_start(tmp_path, reactor):
    never_started = ShoeDriver(str(tmp_path / "shoe"), lambda e: None, reactor=reactor)
    never_started.close()
    never_started.close()
    started = ShoeDriver(str(tmp_path / "shoe"), lambda e: None, reactor=reactor, backoff=Backoff(0.01, 2, 0.05)).start()
    reactor.run_until(lambda: False, 0.05)  # a few attempts to open
    started.close()
    started.close()
    assert not started.transport.is_open


def test_start_twice_is_refused(tmp_path, reactor):
    with ShoeDriver(str(tmp_path / "shoe"), lambda e: None, reactor=reactor) as driver:
        with pytest.raises(RuntimeError, match="already started"):
            driver.start()


class RecordingBackoff(Backoff):
    """A Backoff that keeps every delay it handed out (one per failed attempt)."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.delays: list[float] = []

    def next_delay(self) -> float:
        self.delays.append(super().next_delay())
        return self.delays[-1]


def test_missing_device_is_reported_once_and_retried(tmp_path, sink):
    backoff = RecordingBackoff(0.001, 2, 0.005)
    with ShoeDriver(str(tmp_path / "absent"), sink, reactor=sink.reactor, backoff=backoff):
        assert sink.reactor.run_until(lambda: len(backoff.delays) >= 5, 15)
    assert len(sink.of(LinkDown)) == len(backoff.delays)  # the driver reports each failed open
    lost = sink.journaled("LinkLost")
    assert len(lost) == 1  # the session owner: lost (absent) once
    assert "cannot open" in lost[0]["reason"] and "absent" in lost[0]["reason"]


WAIT = 10.0  # a bound against hanging, never a timing assertion


@pytest.mark.parametrize("lamps, names", [({256: 1}, "lamp"), ({3: 9}, "pattern"), ({-1: 0}, "lamp")])
def test_bad_lamp_values_are_refused_naming_the_field(tmp_path, reactor, lamps, names):
    lights = LightsDriver(str(tmp_path / "lights"), lambda e: None, reactor=reactor)
    with pytest.raises(ValueError, match=names):
        lights.set_lamps(lamps)
    assert lights.desired == {}


def test_read_back_without_link_is_link_down(tmp_path, reactor):
    lights = LightsDriver(str(tmp_path / "lights"), lambda e: None, reactor=reactor)
    with pytest.raises(LinkDownError, match="no link"):
        lights.read_back(0.1)


def test_lamps_set_while_down_are_remembered(tmp_path, reactor):
    lights = LightsDriver(str(tmp_path / "lights"), lambda e: None, reactor=reactor)
    lights.set_lamp(2, 1)
    lights.set_lamps({5: 3})
    assert lights.desired == {2: 1, 5: 3}
    lights.all_off()
    assert set(lights.desired.values()) == {0}


def _fd_target(transport) -> str:
    return os.readlink(f"/proc/self/fd/{transport.fileno()}")


def _hello_arrives(pty_device, reactor) -> bool:
    """The driver's HELLO reaches the device end of the pty (the reactor turns meanwhile)."""
    got = b""
    deadline = time.monotonic() + WAIT
    while SYNC not in got and time.monotonic() < deadline:
        reactor.run_until(lambda: select.select([pty_device.master], [], [], 0)[0] != [], 0.5)
        if select.select([pty_device.master], [], [], 0)[0]:
            got += os.read(pty_device.master, 4096)
    return SYNC in got


def test_reopen_by_path_with_backoff_after_unplug_and_replug(pty_device, sink):
    backoff = RecordingBackoff(0.01, 2.0, 0.04)
    delays = backoff.delays
    with ShoeDriver(pty_device.link, sink, reactor=sink.reactor, backoff=backoff) as driver:
        assert _hello_arrives(pty_device, sink.reactor)
        pty_device.unplug()
        lost = sink.wait_journaled("LinkLost")[0]
        assert "hang-up" in lost["reason"]
        assert sink.reactor.run_until(lambda: len(delays) >= 4, WAIT)  # the path is gone: open fails, retried
        assert delays[:3] == [0.01, 0.02, 0.04] and all(d == 0.04 for d in delays[3:])
        pty_device.replug()
        assert sink.reactor.run_until(lambda: driver.transport.is_open, WAIT)
        # the new pty, reached through the same path, not the dead handle (pts numbers are
        # recycled, so compare with the live pty rather than the old name)
        assert _fd_target(driver.transport) == pty_device.slave_name
        assert _hello_arrives(pty_device, sink.reactor)  # a new session starts on it
    assert len(sink.journaled("LinkLost")) == 1  # lost once; the failed reopens say nothing more


def test_reopen_gives_up_when_closed(tmp_path, sink):
    backoff = RecordingBackoff(0.001, 2, 0.004)
    attempts = backoff.delays
    driver = ShoeDriver(str(tmp_path / "never"), sink, reactor=sink.reactor, backoff=backoff).start()
    assert sink.reactor.run_until(lambda: len(attempts) >= 3, WAIT)
    driver.close()
    tried = len(attempts)
    sink.reactor.run_until(lambda: False, 0.05)
    assert len(attempts) == tried and not driver.transport.is_open

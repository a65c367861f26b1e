"""Driver construction and API guards that need no device on the other end."""
from __future__ import annotations

import threading

import pytest

from drivers.errors import BadDeviceUrl, LinkDownError
from drivers.events import LinkLost
from drivers.factory import driver_for
from drivers.lights import LightsDriver
from drivers.reconnect import Backoff
from drivers.shoe import ShoeDriver


def test_bad_url_fails_at_construction_naming_the_part():
    with pytest.raises(BadDeviceUrl, match="unknown scheme 'tcp'"):
        ShoeDriver("tcp://127.0.0.1:9", lambda e: None)


def test_factory_knows_each_kind_and_rejects_others(tmp_path):
    for kind in ("shoe", "panel", "lights"):
        driver = driver_for(kind, str(tmp_path / kind), lambda e: None, start=False)
        assert driver.name == kind and driver.KIND.name.lower() == kind
        driver.close()
    with pytest.raises(ValueError, match="unknown device kind 'dice'"):
        driver_for("dice", str(tmp_path / "x"), lambda e: None)


def test_close_is_idempotent_with_or_without_start(tmp_path):
    never_started = ShoeDriver(str(tmp_path / "shoe"), lambda e: None)
    never_started.close()
    never_started.close()
    started = ShoeDriver(str(tmp_path / "shoe"), lambda e: None, backoff=Backoff(0.01, 2, 0.05)).start()
    started.close()
    started.close()
    assert not started.transport.is_open


def test_start_twice_is_refused(tmp_path):
    with ShoeDriver(str(tmp_path / "shoe"), lambda e: None) as driver:
        with pytest.raises(RuntimeError, match="already started"):
            driver.start()


def test_missing_device_is_reported_once_and_retried(tmp_path, sink):
    five_attempts = threading.Event()
    attempts = []

    class CountingBackoff(Backoff):
        def next_delay(self):
            attempts.append(1)
            if len(attempts) >= 5:
                five_attempts.set()
            return super().next_delay()

    with ShoeDriver(str(tmp_path / "absent"), sink, backoff=CountingBackoff(0.001, 2, 0.005)):
        assert five_attempts.wait(15)
    lost = sink.of(LinkLost)
    assert len(lost) == 1
    assert "cannot open" in lost[0].reason and "absent" in lost[0].reason


@pytest.mark.parametrize("lamps, names", [({256: 1}, "lamp"), ({3: 9}, "pattern"), ({-1: 0}, "lamp")])
def test_bad_lamp_values_are_refused_naming_the_field(tmp_path, lamps, names):
    lights = LightsDriver(str(tmp_path / "lights"), lambda e: None)
    with pytest.raises(ValueError, match=names):
        lights.set_lamps(lamps)
    assert lights.desired == {}


def test_read_back_without_link_is_link_down(tmp_path):
    lights = LightsDriver(str(tmp_path / "lights"), lambda e: None)
    with pytest.raises(LinkDownError, match="no link"):
        lights.read_back(0.1)


def test_lamps_set_while_down_are_remembered(tmp_path):
    lights = LightsDriver(str(tmp_path / "lights"), lambda e: None)
    lights.set_lamp(2, 1)
    lights.set_lamps({5: 3})
    assert lights.desired == {2: 1, 5: 3}
    lights.all_off()
    assert set(lights.desired.values()) == {0}

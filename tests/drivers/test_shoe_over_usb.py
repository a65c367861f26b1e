"""The shoe driver over the USB transport, end to end against the simulator process.

The USB side is pyusb's real core on our custom IBackend (tests/drivers/fake_usb.py; a
mock by necessity, no USB here) whose endpoints carry the bytes to the simulator's pty:
so usb:// URL parsing, find by VID:PID + serial, claim, bulk transfers, errno 19 on unplug
and re-finding the device all run under the real driver and the real virtual firmware.
"""
from __future__ import annotations

import re
import threading

import pytest
from fake_usb import FakeUsbBackend, FakeUsbDevice, PtyPipe

import drivers.device as device_module
from drivers.events import CardDrawn, ShoeStatusHeard
from drivers.factory import driver_for
from drivers.reconnect import Backoff
from games.cards import parse_card


def test_shoe_over_usb_draws_unplugs_and_comes_back(sim, sink):
    process = sim("shoe", "--cards", "9h 8d As Kc")
    device = FakeUsbDevice(0x1209, 0x0001, "SHOE-USB", pipe=PtyPipe(process.link))
    other = FakeUsbDevice(0x1209, 0x0001, "OTHER")  # same VID:PID, another serial: not ours
    backend = FakeUsbBackend(other, device)
    shoe = driver_for("shoe", "usb://1209:0001?serial=SHOE-USB", sink, reactor=sink.reactor, usb_backend=backend,
                      backoff=Backoff(0.01, 2.0, 0.1))
    try:
        sink.wait_journaled("DeviceConnected")
        sink.wait_for(ShoeStatusHeard)
        assert device.claimed == {1} and device.detach_calls == [0, 1] and other.claimed == set()
        process.command("draw", n=2)
        cards = sink.wait_for(CardDrawn, 2)
        assert [c.code for c in cards] == [parse_card("9h").code, parse_card("8d").code]

        process.command("fault", kind="unplug")
        assert "unplugged" in sink.wait_journaled("LinkLost")[0]["reason"]
        process.command("fault", kind="replug")
        sink.wait_journaled("LinkRestored")
        process.command("draw")
        assert sink.wait_for(CardDrawn, 3)[2].code == parse_card("As").code
    finally:
        shoe.close()
    assert device.open_handles == 0 and device.claimed == set()


class FailingPtyPipe(PtyPipe):
    """The simulator's pty, until `fail` is set: then a read raises what no USB error is (a
    bug in a library, say) and the reader thread dies; or `hang` blocks the read for good."""

    def __init__(self, link: str) -> None:
        super().__init__(link)
        self.fail: BaseException | None = None
        self.hang = threading.Event()
        self.release = threading.Event()

    def read(self, size: int, timeout_s: float | None) -> bytes:
        if self.fail is not None:
            raise self.fail
        if self.hang.is_set():
            self.release.wait()
        return super().read(size, timeout_s)


@pytest.fixture
def usb_shoe(sim, sink):
    """A shoe driver over USB whose pipe a test can break; (driver, pipe), its session up."""
    pipe = FailingPtyPipe(sim("shoe", "--cards", "9h 8d As Kc").link)
    backend = FakeUsbBackend(FakeUsbDevice(0x1209, 0x0001, "SHOE-USB", pipe=pipe))
    shoe = driver_for("shoe", "usb://1209:0001?serial=SHOE-USB", sink, reactor=sink.reactor, usb_backend=backend)
    try:
        sink.wait_for(ShoeStatusHeard)
        yield shoe, pipe
    finally:
        pipe.release.set()
        shoe.close()


def test_a_reader_thread_that_dies_is_the_drivers_problem(usb_shoe, sink, monkeypatch):
    monkeypatch.setattr(threading, "excepthook", lambda args: None)  # its traceback is expected here
    shoe, pipe = usb_shoe
    assert shoe.problem() is None
    pipe.fail = RuntimeError("a bug in the USB stack")
    assert sink.reactor.run_until(lambda: shoe.problem() is not None, 15.0)
    assert shoe.problem() == "its USB reader thread died: RuntimeError: a bug in the USB stack"


def test_a_reader_thread_stuck_in_one_read_is_the_drivers_problem(usb_shoe, sink, monkeypatch):
    monkeypatch.setattr(device_module, "READER_STALL_S", 0.3)
    shoe, pipe = usb_shoe
    pipe.hang.set()
    assert sink.reactor.run_until(lambda: shoe.problem() is not None, 15.0)
    assert re.fullmatch(r"its USB reader thread has been stuck in one read for \d+ s", shoe.problem())
    pipe.hang.clear()
    pipe.release.set()
    assert sink.reactor.run_until(lambda: shoe.problem() is None, 15.0)  # it reads again

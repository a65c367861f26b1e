"""The shoe driver over the USB transport, end to end against the simulator process.

The USB side is pyusb's real core on our custom IBackend (tests/drivers/fake_usb.py; a
mock by necessity, no USB here) whose endpoints carry the bytes to the simulator's pty:
so usb:// URL parsing, find by VID:PID + serial, claim, bulk transfers, errno 19 on unplug
and re-finding the device all run under the real driver and the real virtual firmware.
"""
from __future__ import annotations

from fake_usb import FakeUsbBackend, FakeUsbDevice, PtyPipe

from drivers.events import CardDrawn, DeviceConnected, LinkLost, LinkRestored, ShoeStatusChanged
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
        sink.wait_for(DeviceConnected)
        sink.wait_for(ShoeStatusChanged)
        assert device.claimed == {1} and device.detach_calls == [0, 1] and other.claimed == set()
        process.command("draw", n=2)
        cards = sink.wait_for(CardDrawn, 2)
        assert [c.code for c in cards] == [parse_card("9h").code, parse_card("8d").code]

        process.command("fault", kind="unplug")
        assert "unplugged" in sink.wait_for(LinkLost)[0].reason
        process.command("fault", kind="replug")
        sink.wait_for(LinkRestored)
        process.command("draw")
        assert sink.wait_for(CardDrawn, 3)[2].code == parse_card("As").code
    finally:
        shoe.close()
    assert device.open_handles == 0 and device.claimed == set()

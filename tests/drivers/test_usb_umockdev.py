"""UsbTransport on the real libusb against a umockdev-emulated device (Debian's umockdev).

The device is a sysfs description plus a usbmon capture replayed by `umockdev-run --pcap`
(tests/drivers/umockdev_usb.py). Covered with real libusb: enumeration, find by VID:PID and
by serial number (real GET_DESCRIPTOR control transfers), claim, bulk OUT checked byte for
byte against the capture, bulk IN, read timeout (URB discarded), errno 19 after an unplug
(URB completed with -ESHUTDOWN), close. A hot unplug of the device node itself needs
umockdev's runtime API (GI), so that path is covered by the IBackend tests instead.
"""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from umockdev_usb import SYSFS_PATH, UsbCapture, device_description

pytestmark = pytest.mark.skipif(shutil.which("umockdev-run") is None, reason="umockdev not installed")

VID, PID, SERIAL = 0x1209, 0x0001, "SHOE-7"
HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def run_under_umockdev(tmp_path, capture: UsbCapture, steps: list) -> list[dict]:
    device = tmp_path / "shoe.umockdev"
    device.write_text(device_description(VID, PID, SERIAL))
    pcap = tmp_path / "shoe.pcap"
    capture.write(pcap)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(HERE)]))
    proc = subprocess.run(
        ["umockdev-run", "--device", str(device), "--pcap", f"{SYSFS_PATH}={pcap}", "--",
         sys.executable, str(HERE / "umockdev_client.py"), json.dumps(steps)],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_find_by_serial_write_read_timeout_close(tmp_path):
    capture = UsbCapture()
    capture.serial_number(SERIAL)
    capture.host_writes(b"\x7e\x01ping")
    capture.device_sends(b"\x7e\x02pong")
    results = run_under_umockdev(tmp_path, capture, [
        ["open", VID, PID, SERIAL],
        ["write", b"\x7e\x01ping".hex()],
        ["read", 2.0],
        ["read", 0.05],
        ["close"],
        ["close"],
    ])
    assert results == [
        {"ok": None}, {"ok": None}, {"ok": b"\x7e\x02pong".hex()}, {"ok": ""},
        {"ok": None}, {"ok": None},
    ]


def test_other_serial_number_is_not_found(tmp_path):
    capture = UsbCapture()
    capture.serial_number(SERIAL)
    results = run_under_umockdev(tmp_path, capture, [["open", VID, PID, "SHOE-8"]])
    assert results[0]["error"] == "DeviceNotFoundError"
    assert "serial=SHOE-8" in results[0]["message"]


def test_other_vid_pid_is_not_found(tmp_path):
    results = run_under_umockdev(tmp_path, UsbCapture(), [["open", VID, 0x0002, None]])
    assert results[0]["error"] == "DeviceNotFoundError"


def test_bytes_the_device_does_not_expect_are_never_taken(tmp_path):
    capture = UsbCapture()
    capture.serial_number(SERIAL)
    capture.host_writes(b"expected")
    results = run_under_umockdev(tmp_path, capture, [
        ["open", VID, PID, SERIAL], ["write", b"WRONG!!!".hex()],
    ])
    assert results[1]["error"] == "TransportTimeoutError"


def test_unplug_during_read_is_errno_19_not_a_timeout(tmp_path):
    capture = UsbCapture()
    capture.serial_number(SERIAL)
    capture.device_unplugged_during_read()
    results = run_under_umockdev(tmp_path, capture, [["open", VID, PID, SERIAL], ["read", 2.0]])
    assert results[1]["error"] == "DeviceDisconnectedError"
    assert "Errno 19" in results[1]["message"]


def test_each_open_scans_the_bus_with_a_fresh_libusb_context(tmp_path):
    """Reopen after close finds the device again through a new libusb context: the unit runs
    with PrivateNetwork=yes, where udev's hotplug messages never update a shared context."""
    capture = UsbCapture()
    capture.serial_number(SERIAL)
    capture.serial_number(SERIAL)
    results = run_under_umockdev(tmp_path, capture, [
        ["open", VID, PID, SERIAL], ["close"], ["open", VID, PID, SERIAL], ["close"],
    ])
    assert results == [{"ok": None}] * 4


def test_fresh_backends_are_distinct_contexts():
    from drivers.usb_transport import fresh_libusb_backend

    first, second = fresh_libusb_backend(), fresh_libusb_backend()
    assert first is not second and first.ctx.value != second.ctx.value

"""UsbTransport through pyusb's real core/util code on a custom IBackend (tests/drivers/fake_usb.py).

A mock by necessity: no USB device or usbfs exists on the build machine. The backend
answers as libusb would, so find-by-serial, configuration, kernel-driver detach, claims,
transfers and dispose run pyusb's own code.
"""
from __future__ import annotations

import pytest
import usb.util
from fake_usb import FakeUsbBackend, FakeUsbDevice

from drivers.errors import (
    DeviceBusyError,
    DeviceDisconnectedError,
    DeviceNotFoundError,
    TransportTimeoutError,
)
from drivers.usb_transport import UsbTransport

VID, PID = 0x1209, 0x0001


@pytest.fixture
def two_shoes():
    a, b = FakeUsbDevice(VID, PID, "SHOE-A"), FakeUsbDevice(VID, PID, "SHOE-B")
    return FakeUsbBackend(a, b), a, b


def test_finds_by_vid_pid_and_serial_number(two_shoes):
    backend, a, b = two_shoes
    with UsbTransport(VID, PID, serial="SHOE-B", backend=backend) as t:
        b.pipe.feed(b"from B")
        assert t.read(1.0) == b"from B"
        assert b.claimed == {1} and a.claimed == set()


def test_without_serial_takes_the_first_match(two_shoes):
    backend, a, _ = two_shoes
    with UsbTransport(VID, PID, backend=backend):
        assert a.claimed == {1}


@pytest.mark.parametrize("vid, pid, serial", [(VID, 0x0002, None), (0x1234, PID, None), (VID, PID, "NOPE")])
def test_no_such_device(two_shoes, vid, pid, serial):
    backend, *_ = two_shoes
    t = UsbTransport(vid, pid, serial=serial, backend=backend)
    with pytest.raises(DeviceNotFoundError, match=f"{vid:04x}:{pid:04x}"):
        t.open()
    assert not t.is_open


def test_configures_an_unconfigured_device_only(two_shoes):
    backend, a, _ = two_shoes
    assert not a.configured
    with UsbTransport(VID, PID, serial="SHOE-A", backend=backend):
        assert a.configured


def test_kernel_driver_detached_from_every_interface_and_reattached_on_close(two_shoes):
    backend, a, _ = two_shoes
    with UsbTransport(VID, PID, serial="SHOE-A", backend=backend):
        assert a.detach_calls == [0, 1]
        assert a.kernel_driver == {0: False, 1: False}
    assert sorted(a.attach_calls) == [0, 1]


def test_interface_claimed_elsewhere_is_busy(two_shoes):
    backend, a, _ = two_shoes
    a.claimed_elsewhere = True
    t = UsbTransport(VID, PID, serial="SHOE-A", backend=backend)
    with pytest.raises(DeviceBusyError, match="claimed elsewhere"):
        t.open()
    assert a.open_handles == 0  # disposed even though open failed


def test_device_without_vendor_interface_is_refused(two_shoes):
    backend, a, _ = two_shoes
    a.interface_class = 0x0A
    with pytest.raises(DeviceNotFoundError, match="no vendor-specific interface"):
        UsbTransport(VID, PID, serial="SHOE-A", backend=backend).open()


@pytest.mark.parametrize("ep_type", [usb.util.ENDPOINT_TYPE_BULK, usb.util.ENDPOINT_TYPE_INTR])
def test_bulk_and_interrupt_endpoints(two_shoes, ep_type):
    backend, a, _ = two_shoes
    a.ep_type = ep_type
    with UsbTransport(VID, PID, serial="SHOE-A", backend=backend) as t:
        t.write(b"\x7e\x00hello")
        assert bytes(a.pipe.written) == b"\x7e\x00hello"
        a.pipe.feed(b"reply")
        assert t.read(1.0) == b"reply"


def test_read_timeout_is_quiet_not_an_unplug(two_shoes):
    backend, a, _ = two_shoes
    with UsbTransport(VID, PID, serial="SHOE-A", backend=backend) as t:
        assert t.read(0.001) == b""
        assert t.is_open


def test_unplug_errno_19_is_disconnected_and_replug_is_found_again(two_shoes):
    backend, a, _ = two_shoes
    t = UsbTransport(VID, PID, serial="SHOE-A", backend=backend)
    t.open()
    a.pipe.unplug()
    with pytest.raises(DeviceDisconnectedError, match="unplugged during read"):
        t.read(1.0)
    with pytest.raises(DeviceDisconnectedError, match="unplugged during write"):
        t.write(b"x")
    t.close()
    assert a.open_handles == 0
    with pytest.raises(DeviceNotFoundError):
        t.open()
    a.pipe.plugged = True
    with t:
        a.pipe.feed(b"again")
        assert t.read(1.0) == b"again"


def test_close_releases_and_disposes(two_shoes):
    backend, a, _ = two_shoes
    t = UsbTransport(VID, PID, serial="SHOE-A", backend=backend)
    t.open()
    assert a.open_handles == 1
    t.close()
    t.close()
    assert (a.open_handles, a.claimed) == (0, set())


def test_write_timeout_is_a_timeout_error(two_shoes, mocker):
    backend, a, _ = two_shoes
    import usb.core

    def stuck(*args):
        raise usb.core.USBTimeoutError("Operation timed out", error_code=-7, errno=110)

    mocker.patch.object(backend, "bulk_write", side_effect=stuck)
    with UsbTransport(VID, PID, serial="SHOE-A", backend=backend, write_timeout=0.01) as t:
        with pytest.raises(TimeoutError, match="took no data"):
            t.write(b"x")
        with pytest.raises(TransportTimeoutError):
            t.write(b"x")

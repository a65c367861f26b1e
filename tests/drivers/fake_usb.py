"""A custom pyusb IBackend: pyusb's real core and util code run against a device we emulate.

No USB device or usbfs exists in CI, so the backend below stands in for libusb (a mock,
by necessity). It emulates what libusb would answer: descriptors, string descriptors over
control transfers (so Device.serial_number works through pyusb's own code), configuration,
kernel-driver state, claims, bulk/interrupt transfers and the errors libusb raises
(timeout -7/ETIMEDOUT, unplug -4/ENODEV, busy -6/EBUSY).

The device's data side is a `Pipe`: `MemoryPipe` for transport tests, or `PtyPipe`, which
carries the bytes to a simulator process through its pty, so a whole driver can run over
the USB transport against the real virtual firmware.
"""
from __future__ import annotations

import array
import errno
import os
import select
import threading
from dataclasses import dataclass, field
from types import SimpleNamespace

import usb.backend
import usb.core
import usb.util

ENODEV_ERR = dict(error_code=-4, errno=errno.ENODEV)


def _gone() -> usb.core.USBError:
    return usb.core.USBError("No such device (it may have been disconnected)", **ENODEV_ERR)


def _timed_out() -> usb.core.USBTimeoutError:
    return usb.core.USBTimeoutError("Operation timed out", error_code=-7, errno=errno.ETIMEDOUT)


class MemoryPipe:
    """Device side in memory: `feed()` queues IN bytes, `written` collects OUT bytes."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._in = bytearray()
        self.written = bytearray()
        self.plugged = True

    def present(self) -> bool:
        return self.plugged

    def feed(self, data: bytes) -> None:
        with self._cond:
            self._in += data
            self._cond.notify_all()

    def unplug(self) -> None:
        with self._cond:
            self.plugged = False
            self._cond.notify_all()

    def read(self, size: int, timeout_s: float | None) -> bytes:
        with self._cond:
            self._cond.wait_for(lambda: self._in or not self.plugged, timeout_s)
            if not self.plugged:
                raise _gone()
            if not self._in:
                raise _timed_out()
            data = bytes(self._in[:size])
            del self._in[:size]
            return data

    def write(self, data: bytes) -> int:
        if not self.plugged:
            raise _gone()
        self.written += data
        return len(data)


class PtyPipe:
    """Device side = a simulator's pty, found by its stable symlink (unplug = link gone)."""

    def __init__(self, link: str) -> None:
        self.link = link
        self._fd: int | None = None

    def present(self) -> bool:
        return os.path.exists(self.link)

    def attach(self) -> None:
        self.detach()
        try:
            self._fd = os.open(self.link, os.O_RDWR | os.O_NOCTTY)
        except OSError:
            raise _gone() from None

    def detach(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def read(self, size: int, timeout_s: float | None) -> bytes:
        if self._fd is None:
            raise _gone()
        ready, _, _ = select.select([self._fd], [], [], timeout_s)
        if not ready:
            raise _timed_out()
        try:
            data = os.read(self._fd, size)
        except OSError:
            raise _gone() from None
        if not data:
            raise _gone()
        return data

    def write(self, data: bytes) -> int:
        if self._fd is None:
            raise _gone()
        try:
            return os.write(self._fd, data)
        except OSError:
            raise _gone() from None


@dataclass
class FakeUsbDevice:
    vid: int
    pid: int
    serial: str
    pipe: object = field(default_factory=MemoryPipe)
    interface_class: int = 0xFF
    ep_type: int = usb.util.ENDPOINT_TYPE_BULK
    configured: bool = False
    # interface number -> kernel driver attached (interface 1 is e.g. a CDC data interface)
    kernel_driver: dict = field(default_factory=lambda: {0: True, 1: True})
    claimed: set = field(default_factory=set)
    claimed_elsewhere: bool = False
    open_handles: int = 0
    detach_calls: list = field(default_factory=list)
    attach_calls: list = field(default_factory=list)

    ENDPOINTS = (0x81, 0x02)  # IN 1, OUT 2


class FakeUsbBackend(usb.backend.IBackend):
    def __init__(self, *devices: FakeUsbDevice) -> None:
        self.devices = list(devices)

    def _check(self, dev: FakeUsbDevice) -> None:
        if not dev.pipe.present():
            raise _gone()

    # --- enumeration and descriptors ---
    def enumerate_devices(self):
        return [d for d in self.devices if d.pipe.present()]

    def get_device_descriptor(self, dev):
        return SimpleNamespace(
            bLength=18, bDescriptorType=1, bcdUSB=0x0200, bDeviceClass=0, bDeviceSubClass=0,
            bDeviceProtocol=0, bMaxPacketSize0=64, idVendor=dev.vid, idProduct=dev.pid,
            bcdDevice=0x0100, iManufacturer=0, iProduct=0, iSerialNumber=3,
            bNumConfigurations=1, address=5, bus=1, port_number=2, port_numbers=(2,), speed=2,
        )

    def get_configuration_descriptor(self, dev, config):
        return SimpleNamespace(
            bLength=9, bDescriptorType=2, wTotalLength=46, bNumInterfaces=2,
            bConfigurationValue=1, iConfiguration=0, bmAttributes=0x80, bMaxPower=50,
            extra_descriptors=[],
        )

    def get_interface_descriptor(self, dev, intf, alt, config):
        if intf > 1 or alt != 0:
            raise IndexError("no such interface")
        # interface 0: some other class (a kernel driver likes it); 1: ours, vendor-specific
        return SimpleNamespace(
            bLength=9, bDescriptorType=4, bInterfaceNumber=intf, bAlternateSetting=0,
            bNumEndpoints=2 if intf == 1 else 0,
            bInterfaceClass=dev.interface_class if intf == 1 else 0x02,
            bInterfaceSubClass=0, bInterfaceProtocol=0, iInterface=0, extra_descriptors=[],
        )

    def get_endpoint_descriptor(self, dev, ep, intf, alt, config):
        return SimpleNamespace(
            bLength=7, bDescriptorType=5, bEndpointAddress=FakeUsbDevice.ENDPOINTS[ep],
            bmAttributes=dev.ep_type, wMaxPacketSize=64, bInterval=1,
            bRefresh=0, bSynchAddress=0, extra_descriptors=[],
        )

    # --- handles and configuration ---
    def open_device(self, dev):
        self._check(dev)
        dev.open_handles += 1
        if isinstance(dev.pipe, PtyPipe):
            dev.pipe.attach()
        return dev

    def close_device(self, dev):
        dev.open_handles -= 1
        if isinstance(dev.pipe, PtyPipe):
            dev.pipe.detach()

    def set_configuration(self, dev, config_value):
        self._check(dev)
        dev.configured = True

    def get_configuration(self, dev):
        self._check(dev)
        return 1 if dev.configured else 0

    def claim_interface(self, dev, intf):
        self._check(dev)
        if dev.claimed_elsewhere or dev.kernel_driver.get(intf):
            raise usb.core.USBError("Resource busy", error_code=-6, errno=errno.EBUSY)
        dev.claimed.add(intf)

    def release_interface(self, dev, intf):
        dev.claimed.discard(intf)

    def is_kernel_driver_active(self, dev, intf):
        self._check(dev)
        return bool(dev.kernel_driver.get(intf))

    def detach_kernel_driver(self, dev, intf):
        dev.detach_calls.append(intf)
        dev.kernel_driver[intf] = False

    def attach_kernel_driver(self, dev, intf):
        self._check(dev)
        dev.attach_calls.append(intf)
        dev.kernel_driver[intf] = True

    # --- transfers ---
    def ctrl_transfer(self, dev, bmRequestType, bRequest, wValue, wIndex, data, timeout):
        self._check(dev)
        if bRequest != 0x06 or wValue >> 8 != 3:
            raise usb.core.USBError("Pipe error", error_code=-9, errno=errno.EPIPE)
        index = wValue & 0xFF
        if index == 0:
            desc = bytes([4, 3, 0x09, 0x04])  # langid en-US
        else:
            text = dev.serial.encode("utf-16-le")
            desc = bytes([2 + len(text), 3]) + text
        n = min(len(desc), len(data))
        data[:n] = array.array("B", desc[:n])
        return n

    def _read(self, dev, ep, buff, timeout):
        self._check(dev)
        data = dev.pipe.read(len(buff), None if timeout == 0 else timeout / 1000)
        buff[: len(data)] = array.array("B", data)
        return len(data)

    def _write(self, dev, ep, data, timeout):
        self._check(dev)
        return dev.pipe.write(bytes(data))

    def bulk_read(self, dev, ep, intf, buff, timeout):
        return self._read(dev, ep, buff, timeout)

    def intr_read(self, dev, ep, intf, buff, timeout):
        return self._read(dev, ep, buff, timeout)

    def bulk_write(self, dev, ep, intf, data, timeout):
        return self._write(dev, ep, data, timeout)

    def intr_write(self, dev, ep, intf, data, timeout):
        return self._write(dev, ep, data, timeout)

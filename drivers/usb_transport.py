"""USB transport over pyusb: one vendor-specific interface with an IN and an OUT endpoint.

- Found by VID:PID, and by serial number when one is given (two shoes on one PC).
- The kernel driver is detached from every interface where one is attached (a generic
  driver may have grabbed the device) and reattached on close, best effort.
- Read timeouts are normal when polling and return b"". An unplug (errno 19, ENODEV) is
  DeviceDisconnectedError: close and find the device again by VID:PID (+serial).
- close() releases the interface and calls usb.util.dispose_resources.
- `backend` is passed to usb.core.find: None picks libusb; tests pass their own IBackend.
"""
from __future__ import annotations

import errno
from collections.abc import Callable
from typing import TYPE_CHECKING

import usb.core
import usb.util

from drivers.errors import (
    DeviceBusyError,
    DeviceDisconnectedError,
    DeviceNotFoundError,
    TransportError,
    TransportTimeoutError,
)
from drivers.transport import Transport

if TYPE_CHECKING:  # pyusb has no types: these names are Any to mypy, and still say what is meant
    from usb.backend import IBackend

VENDOR_SPECIFIC_CLASS = 0xFF
_STREAM_TYPES = (usb.util.ENDPOINT_TYPE_BULK, usb.util.ENDPOINT_TYPE_INTR)
_GONE = {errno.ENODEV, errno.ESHUTDOWN}


def _endpoint(intf: usb.core.Interface, direction: int) -> usb.core.Endpoint | None:
    return usb.util.find_descriptor(
        intf,
        custom_match=lambda ep: (
            usb.util.endpoint_direction(ep.bEndpointAddress) == direction
            and usb.util.endpoint_type(ep.bmAttributes) in _STREAM_TYPES
        ),
    )


def _timeout_ms(seconds: float | None) -> int:
    # libusb: 0 means wait forever; any positive wait rounds up to at least 1 ms.
    return 0 if seconds is None else max(1, round(seconds * 1000))


def fresh_libusb_backend() -> IBackend:
    """A new libusb context, so that this open enumerates the bus now (sysfs and the udev
    database). pyusb's shared context keeps its device list current from udev's hotplug
    messages, which never reach a service in a private network namespace (the unit's
    PrivateNetwork=yes): with it, a re-plugged shoe would never be found again."""
    import usb.backend.libusb1 as libusb1

    if libusb1.get_backend() is None:  # loads the library once; None when libusb is absent
        raise usb.core.NoBackendError("libusb-1.0 is not installed")
    return libusb1._LibUSB(libusb1._lib)


class UsbTransport(Transport):
    def __init__(
        self,
        vid: int,
        pid: int,
        *,
        serial: str | None = None,
        backend: IBackend | None = None,
        write_timeout: float = 1.0,
    ) -> None:
        where = f"usb://{vid:04x}:{pid:04x}" + (f"?serial={serial}" if serial else "")
        super().__init__(where)
        self.vid, self.pid, self.serial = vid, pid, serial
        self.backend = backend
        self.write_timeout = write_timeout
        self._dev: usb.core.Device | None = None
        self._intf_number: int | None = None
        self._detached: list[int] = []
        self._ep_in: usb.core.Endpoint | None = None
        self._ep_out: usb.core.Endpoint | None = None

    # --- open / close -----------------------------------------------------------------
    def _open_internal(self) -> None:
        try:
            dev = usb.core.find(
                idVendor=self.vid, idProduct=self.pid, backend=self.backend or fresh_libusb_backend(),
                custom_match=self._serial_matches,
            )
        except usb.core.NoBackendError as exc:
            raise TransportError(f"{self.description}: no libusb backend: {exc}") from exc
        if dev is None:
            raise DeviceNotFoundError(f"{self.description}: no such USB device attached")
        self._dev = dev
        try:
            self._claim(dev)
        except BaseException:
            self._release()
            raise

    def _claim(self, dev: usb.core.Device) -> None:
        try:
            cfg = self._configuration(dev)
            for number in sorted({intf.bInterfaceNumber for intf in cfg}):
                if self._kernel_driver_active(dev, number):
                    dev.detach_kernel_driver(number)
                    self._detached.append(number)
            intf = usb.util.find_descriptor(cfg, bInterfaceClass=VENDOR_SPECIFIC_CLASS)
            if intf is None:
                raise DeviceNotFoundError(f"{self.description}: no vendor-specific interface")
            ep_in, ep_out = _endpoint(intf, usb.util.ENDPOINT_IN), _endpoint(intf, usb.util.ENDPOINT_OUT)
            if ep_in is None or ep_out is None:
                raise DeviceNotFoundError(
                    f"{self.description}: interface {intf.bInterfaceNumber} lacks a bulk/"
                    f"interrupt {'IN' if ep_in is None else 'OUT'} endpoint"
                )
            usb.util.claim_interface(dev, intf)
        except usb.core.USBError as exc:
            raise self._translate(exc, "open") from exc
        self._intf_number = intf.bInterfaceNumber
        self._ep_in, self._ep_out = ep_in, ep_out

    @staticmethod
    def _configuration(dev: usb.core.Device) -> usb.core.Configuration:
        # Only configure an unconfigured device: set_configuration on a configured one
        # resets its interfaces under whatever else is using them.
        try:
            return dev.get_active_configuration()
        except usb.core.USBError:
            dev.set_configuration()
            return dev.get_active_configuration()

    @staticmethod
    def _kernel_driver_active(dev: usb.core.Device, number: int) -> bool:
        try:
            active: bool = dev.is_kernel_driver_active(number)
            return active
        except NotImplementedError:  # backends without kernel-driver support (not Linux)
            return False
        except usb.core.USBError as exc:
            if exc.errno in _GONE:
                raise
            # The driver state cannot be read (libusb "Other error", e.g. usbfs without
            # GETDRIVER): go on; claiming the interface reports busy if a driver holds it.
            return False

    def _serial_matches(self, dev: usb.core.Device) -> bool:
        if self.serial is None:
            return True
        try:
            serial_number: str | None = dev.serial_number
            return serial_number == self.serial
        except (usb.core.USBError, ValueError, NotImplementedError):
            return False  # no string descriptors / no access: cannot be the one we want

    def _close_internal(self) -> None:
        self._release()

    def _release(self) -> None:
        dev, self._dev = self._dev, None
        self._ep_in = self._ep_out = None
        if dev is None:
            return
        if self._intf_number is not None:
            _quietly(usb.util.release_interface, dev, self._intf_number)
            self._intf_number = None
        for number in self._detached:
            _quietly(dev.attach_kernel_driver, number)
        self._detached = []
        usb.util.dispose_resources(dev)

    # --- read / write -----------------------------------------------------------------
    def _read_internal(self, timeout: float | None) -> bytes:
        ep = self._ep_in
        if ep is None:
            raise DeviceDisconnectedError(f"{self.description}: closed during read")
        size = ep.wMaxPacketSize
        if usb.util.endpoint_type(ep.bmAttributes) == usb.util.ENDPOINT_TYPE_BULK:
            size *= 8  # a short packet ends the transfer early
        try:
            return bytes(ep.read(size, _timeout_ms(timeout)))
        except usb.core.USBTimeoutError:
            return b""
        except usb.core.USBError as exc:
            raise self._translate(exc, "read") from exc

    def _write_internal(self, data: bytes) -> None:
        ep = self._ep_out
        if ep is None:
            raise DeviceDisconnectedError(f"{self.description}: closed during write")
        try:
            written = ep.write(data, _timeout_ms(self.write_timeout))
        except usb.core.USBTimeoutError as exc:
            raise TransportTimeoutError(
                f"{self.description}: device took no data for {self.write_timeout} s"
            ) from exc
        except usb.core.USBError as exc:
            raise self._translate(exc, "write") from exc
        if written != len(data):
            raise TransportError(f"{self.description}: short write {written}/{len(data)} bytes")

    def _translate(self, exc: usb.core.USBError, what: str) -> TransportError:
        if exc.errno in _GONE:
            return DeviceDisconnectedError(f"{self.description}: unplugged during {what}: {exc}")
        if exc.errno == errno.EBUSY:
            return DeviceBusyError(f"{self.description}: interface claimed elsewhere: {exc}")
        if exc.errno in (errno.EACCES, errno.EPERM):
            return TransportError(f"{self.description}: permission denied (udev rule?): {exc}")
        return TransportError(f"{self.description}: {what} failed: {exc}")


def _quietly(fn: Callable[..., object], *args: object) -> None:
    try:
        fn(*args)
    except (usb.core.USBError, NotImplementedError):
        pass  # the device may already be gone; nothing more to release

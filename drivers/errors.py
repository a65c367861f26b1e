"""One exception tree for everything drivers/ raises.

pyserial and pyusb errors never leave a transport: they are translated here, at the
boundary, so the controller catches `DriverError` (or a precise subclass) and nothing else.
Timeouts also subclass the builtin `TimeoutError` (python-can's pattern), so generic code
that waits on anything can catch them the usual way.
"""


class DriverError(Exception):
    """Root of every error raised by drivers/."""


class BadDeviceUrl(DriverError, ValueError):
    """A device URL that cannot be understood; the message names the bad part."""


class TransportError(DriverError):
    """A transport could not open, read or write."""


class TransportNotOpenError(TransportError):
    """read/write on a transport that is not open (never opened, or closed)."""


class DeviceNotFoundError(TransportError):
    """Nothing at the path / no USB device with that VID:PID (and serial number)."""


class DeviceBusyError(TransportError):
    """Someone else holds the device (exclusive lock on a tty, claimed USB interface)."""


class DeviceDisconnectedError(TransportError):
    """The device went away under an open handle: serial hang-up or USB unplug (errno 19).

    The handle is dead; the remedy is to close it and open again by the same stable path
    or VID:PID, never to keep using the old handle.
    """


class TransportTimeoutError(TransportError, TimeoutError):
    """The device did not take the bytes in time (write timeout)."""


class DeviceTimeoutError(DriverError, TimeoutError):
    """A device did not answer a request in time (e.g. lamp read-back)."""


class LinkDownError(DriverError):
    """A request needs the device link, and the link is down right now."""

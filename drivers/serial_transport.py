"""Serial transport over pyserial: a real tty (USB-serial, by a stable udev path) or a pty.

- Opened with exclusive=True (flock), so a second process cannot interleave bytes.
- Opened by path every time: after a hang-up the caller closes and opens again, and the
  stable path (udev symlink, /dev/serial/by-id, a simulator's symlink) leads to the new
  device node. The old handle is never reused.
- On a pty the modem lines (DTR/RTS) do not exist (the ioctls fail with ENOTTY), so we do
  not touch them there at all.
- A hang-up shows either as pyserial's "device reports readiness to read but returned no
  data" (USB-serial unplugged) or as EIO (pty master closed); both become
  DeviceDisconnectedError.
"""
from __future__ import annotations

import errno
import os
import stat

import serial

from drivers.errors import (
    DeviceBusyError,
    DeviceDisconnectedError,
    DeviceNotFoundError,
    TransportError,
    TransportTimeoutError,
)
from drivers.transport import Transport

# Linux character-device majors of Unix98 pty slaves (/dev/pts/N).
_PTY_SLAVE_MAJORS = range(136, 144)
_NOT_FOUND = {errno.ENOENT, errno.ENODEV, errno.ENXIO, errno.ENOTDIR}
_BUSY = {errno.EWOULDBLOCK, errno.EAGAIN, errno.EBUSY}


def is_pty(path: str) -> bool:
    """True if `path` (following symlinks) is a pseudo-terminal slave."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISCHR(st.st_mode) and os.major(st.st_rdev) in _PTY_SLAVE_MAJORS


class _PtyAwareSerial(serial.Serial):
    """pyserial's Serial that leaves modem lines alone on a pty (they raise ENOTTY there)."""

    def __init__(self, *args, leave_modem_lines: bool = False, **kwargs) -> None:
        self._leave_modem_lines = leave_modem_lines
        super().__init__(*args, **kwargs)

    def _update_dtr_state(self) -> None:
        if not self._leave_modem_lines:
            super()._update_dtr_state()

    def _update_rts_state(self) -> None:
        if not self._leave_modem_lines:
            super()._update_rts_state()


class SerialTransport(Transport):
    """A tty opened by `path` (a stable path: reopening follows it to the current node)."""

    def __init__(
        self,
        path: str,
        *,
        baudrate: int = 115200,
        exclusive: bool = True,
        write_timeout: float = 1.0,
    ) -> None:
        super().__init__(f"serial://{path}?baud={baudrate}")
        self.path = path
        self.baudrate = baudrate
        self.exclusive = exclusive
        self.write_timeout = write_timeout
        self._port: serial.Serial | None = None

    def _open_internal(self) -> None:
        port = _PtyAwareSerial(leave_modem_lines=is_pty(self.path))
        port.port = self.path
        port.baudrate = self.baudrate
        port.exclusive = self.exclusive
        port.write_timeout = self.write_timeout
        port.timeout = 0
        try:
            port.open()
        except serial.SerialException as exc:
            raise _open_error(self.path, exc) from exc
        except OSError as exc:  # termios on something that is not a tty
            raise TransportError(f"{self.path}: cannot set up as a serial port: {exc}") from exc
        self._port = port

    def _close_internal(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            port.close()

    def _read_internal(self, timeout: float | None) -> bytes:
        port = self._port
        try:
            if port.timeout != timeout:  # setting it reconfigures the tty: only on change
                port.timeout = timeout
            data = port.read(port.in_waiting or 1)
            if data:
                waiting = port.in_waiting
                if waiting:
                    data += port.read(waiting)
            return data
        except (serial.SerialException, OSError) as exc:
            raise DeviceDisconnectedError(f"{self.path}: hang-up: {exc}") from exc
        except (TypeError, AttributeError) as exc:  # closed from another thread mid-read
            raise DeviceDisconnectedError(f"{self.path}: closed during read") from exc

    def _write_internal(self, data: bytes) -> None:
        port = self._port
        try:
            port.write(data)
        except serial.SerialTimeoutException as exc:
            raise TransportTimeoutError(
                f"{self.path}: device took no data for {self.write_timeout} s"
            ) from exc
        except (serial.SerialException, OSError) as exc:
            raise DeviceDisconnectedError(f"{self.path}: hang-up on write: {exc}") from exc
        except (TypeError, AttributeError) as exc:
            raise DeviceDisconnectedError(f"{self.path}: closed during write") from exc

    def cancel_read(self) -> None:
        port = self._port
        if port is not None:
            try:
                port.cancel_read()
            except (OSError, TypeError):
                pass


def _open_error(path: str, exc: serial.SerialException) -> TransportError:
    code = exc.errno
    if code in _NOT_FOUND:
        return DeviceNotFoundError(f"{path}: no such serial device ({exc})")
    if code in _BUSY:
        return DeviceBusyError(f"{path}: in use by another process ({exc})")
    if code in (errno.EACCES, errno.EPERM):
        return TransportError(f"{path}: permission denied (udev group?) ({exc})")
    return TransportError(f"{path}: cannot open: {exc}")

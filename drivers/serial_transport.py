"""Serial transport over pyserial: a real tty (USB-serial, by a stable udev path) or a pty.

- Opened with exclusive=True (flock), so a second process cannot interleave bytes.
- Opened by path every time: after a hang-up the caller closes and opens again, and the
  stable path (udev symlink, /dev/serial/by-id, a simulator's symlink) leads to the new
  device node. The old handle is never reused.
- On a pty the modem lines (DTR/RTS) do not exist (the ioctls fail with ENOTTY), so we do
  not touch them there at all.
- A hang-up shows either as "device reports readiness to read but returned no data"
  (USB-serial unplugged) or as EIO (pty master closed); both become DeviceDisconnectedError.
- Reads are the hot path (every card). The daemon's reactor watches `fileno()` and calls
  `read_ready()`: one os.read() of whatever is there. A blocking `read(timeout)` (tools,
  tests) is one select() on the port and our own wake-up pipe (`cancel_read`), then the
  same os.read(). pyserial's read would set the timeout on the tty (tcsetattr, re-flock)
  whenever it changes and read the first byte on its own.
"""
from __future__ import annotations

import errno
import os
import select
import stat
from typing import Any

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
_RETRY = {errno.EAGAIN, errno.EWOULDBLOCK, errno.EINTR}
READ_CHUNK = 4096  # bytes taken per read: many frames (a frame is at most 253 bytes)


def is_pty(path: str) -> bool:
    """True if `path` (following symlinks) is a pseudo-terminal slave."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISCHR(st.st_mode) and os.major(st.st_rdev) in _PTY_SLAVE_MAJORS


class _PtyAwareSerial(serial.Serial):
    """pyserial's Serial that leaves modem lines alone on a pty (they raise ENOTTY there)."""

    def __init__(self, *args: Any, leave_modem_lines: bool = False, **kwargs: Any) -> None:  # Serial's own arguments
        self._leave_modem_lines = leave_modem_lines
        super().__init__(*args, **kwargs)

    def _update_dtr_state(self) -> None:
        if not self._leave_modem_lines:
            super()._update_dtr_state()  # type: ignore[misc]  # pyserial's posix Serial has it; its stubs omit private methods

    def _update_rts_state(self) -> None:
        if not self._leave_modem_lines:
            super()._update_rts_state()  # type: ignore[misc]  # as above


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
        self._fd: int | None = None
        self._wake_r: int | None = None  # cancel_read() writes a byte here to end a select()
        self._wake_w: int | None = None

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
        self._wake_r, self._wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._port, self._fd = port, port.fileno()

    def _close_internal(self) -> None:
        port, self._port, self._fd = self._port, None, None
        wake, self._wake_r, self._wake_w = (self._wake_r, self._wake_w), None, None
        try:
            if port is not None:
                port.close()
        finally:
            for fd in wake:
                if fd is not None:
                    os.close(fd)

    def _read_internal(self, timeout: float | None) -> bytes:
        fd, wake = self._fd, self._wake_r
        if fd is None or wake is None:  # closed from another thread before this read
            raise DeviceDisconnectedError(f"{self.path}: closed during read")
        try:
            ready, _, _ = select.select([fd, wake], [], [], timeout)
            if wake in ready:
                os.read(wake, 64)  # cancel_read(): return at once, as after a quiet timeout
                return b""
            if not ready:
                return b""
            data = os.read(fd, READ_CHUNK)
        except OSError as exc:
            if exc.errno in _RETRY:
                return b""
            raise DeviceDisconnectedError(f"{self.path}: hang-up: read failed: {exc}") from exc
        except (TypeError, ValueError) as exc:  # closed from another thread mid-read
            raise DeviceDisconnectedError(f"{self.path}: closed during read") from exc
        if not data:  # readable but empty: a USB-serial adapter that was unplugged
            raise DeviceDisconnectedError(f"{self.path}: hang-up: device reports readiness to read "
                                          "but returned no data (device disconnected?)")
        return data

    def fileno(self) -> int | None:
        return self._fd

    def read_ready(self) -> bytes:
        """One os.read() of what waits (the fd is non-blocking): the reactor saw it readable."""
        self._check_open("read")
        fd = self._fd
        if fd is None:  # closed from another thread since the check
            raise DeviceDisconnectedError(f"{self.path}: closed during read")
        try:
            data = os.read(fd, READ_CHUNK)
        except OSError as exc:
            if exc.errno in _RETRY:
                return b""
            raise DeviceDisconnectedError(f"{self.path}: hang-up: read failed: {exc}") from exc
        if not data:  # readable but empty: a USB-serial adapter that was unplugged
            raise DeviceDisconnectedError(f"{self.path}: hang-up: device reports readiness to read "
                                          "but returned no data (device disconnected?)")
        return data

    def _write_internal(self, data: bytes) -> None:
        port, fd = self._port, self._fd
        if port is None or fd is None:  # closed from another thread
            raise DeviceDisconnectedError(f"{self.path}: closed during write")
        try:
            try:  # the port is non-blocking: a frame or two usually goes in one write
                written = os.write(fd, data)
            except BlockingIOError:
                written = 0
            if written < len(data):  # the rest waits for the device, up to write_timeout
                port.write(data[written:])
        except serial.SerialTimeoutException as exc:
            raise TransportTimeoutError(
                f"{self.path}: device took no data for {self.write_timeout} s"
            ) from exc
        except (serial.SerialException, OSError) as exc:
            raise DeviceDisconnectedError(f"{self.path}: hang-up on write: {exc}") from exc
        except (TypeError, AttributeError) as exc:  # pyserial's fd cleared by a close in another thread
            raise DeviceDisconnectedError(f"{self.path}: closed during write") from exc

    def cancel_read(self) -> None:
        wake = self._wake_w
        if wake is not None:
            try:
                os.write(wake, b"x")
            except OSError:  # full (a wake-up is pending anyway) or closed meanwhile
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

"""The transport base class: a byte pipe to one device (python-can's BusABC shape).

Public methods check state and arguments and then call the protected `_..._internal`
methods a concrete transport implements; the concrete transport translates its library's
errors into drivers.errors, so callers only ever see that tree.

Contract:
- `open()` opens (or reopens, after `close()`, by the same path / VID:PID: never an old
  handle). Opening an open transport is an error (it would leak a handle).
- `close()` is idempotent and never raises.
- `read(timeout)` returns the bytes that arrived, at least one, or b"" when nothing came
  within `timeout` seconds (a quiet line is normal when polling, not an error);
  `timeout=None` waits until something arrives. A dead handle raises DeviceDisconnectedError.
- `fileno()` is the fd to watch (None without one) and `read_ready()` takes what is there
  without waiting: how the daemon's reactor reads (drivers/reactor.py).
- `write(data)` writes all of `data` or raises (TransportTimeoutError when the device
  does not take it in time, DeviceDisconnectedError when it is gone).
- `with transport:` opens (if not open) and closes.
"""
from __future__ import annotations

import abc
import threading

from drivers.errors import TransportError, TransportNotOpenError


class Transport(abc.ABC):
    """A byte stream to one device; see the module docstring for the contract."""

    def __init__(self, description: str) -> None:
        self.description = description
        self._is_open = False
        # Serialises open/close against each other; reads and writes go unlocked so a
        # reader thread and a writer thread can use one transport at once.
        self._state_lock = threading.Lock()

    # --- public API -------------------------------------------------------------------
    @property
    def is_open(self) -> bool:
        return self._is_open

    def open(self) -> None:
        with self._state_lock:
            if self._is_open:
                raise TransportError(f"{self.description}: already open")
            self._open_internal()
            self._is_open = True

    def close(self) -> None:
        with self._state_lock:
            if not self._is_open:
                return
            self._is_open = False
            try:
                self._close_internal()
            except Exception:  # noqa: BLE001 - close must never raise; the handle is gone
                pass

    def read(self, timeout: float | None) -> bytes:
        if timeout is not None and timeout < 0:
            raise ValueError(f"read timeout must be >= 0 seconds, got {timeout!r}")
        self._check_open("read")
        return self._read_internal(timeout)

    def write(self, data: bytes) -> None:
        self._check_open("write")
        if data:
            self._write_internal(bytes(data))

    def cancel_read(self) -> None:  # noqa: B027 (an optional hook, not abstract)
        """Wake a read blocked in another thread early (best effort; default: no-op)."""

    def fileno(self) -> int | None:
        """The descriptor a reactor can watch for readability, or None (pyusb: no fd; a
        reader thread reads instead)."""
        return None

    def read_ready(self) -> bytes:
        """What has arrived, without waiting (b"" if nothing): for a reactor whose select()
        said the fd is readable. A dead handle raises DeviceDisconnectedError."""
        return self.read(0)

    def __enter__(self) -> Transport:
        if not self._is_open:
            self.open()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "open" if self._is_open else "closed"
        return f"<{type(self).__name__} {self.description} {state}>"

    def _check_open(self, what: str) -> None:
        if not self._is_open:
            raise TransportNotOpenError(f"{self.description}: {what} on a closed transport")

    # --- what a concrete transport implements -----------------------------------------
    @abc.abstractmethod
    def _open_internal(self) -> None:
        """Open the device; raise DeviceNotFoundError / DeviceBusyError / TransportError."""

    @abc.abstractmethod
    def _close_internal(self) -> None:
        """Release every resource; may raise (the base class swallows it)."""

    @abc.abstractmethod
    def _read_internal(self, timeout: float | None) -> bytes:
        """Return >= 1 byte, or b"" after `timeout` seconds of silence."""

    @abc.abstractmethod
    def _write_internal(self, data: bytes) -> None:
        """Write all of `data`."""

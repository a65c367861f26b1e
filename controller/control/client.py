"""`ControlClient`: talk to the daemon over its control socket (used by watch, status, send)."""
from __future__ import annotations

import errno
import itertools
import os
import socket
import time
from collections.abc import Iterator
from typing import Any

from controller import bounded_json
from controller.control.protocol import ControlError, encode

# A reply or event line is read only this far before it is parsed: a status is a few KiB;
# a line past this is not the daemon's (or the daemon is broken), never a reason to grow.
REPLY_BYTES = 1024 * 1024


class ControlClient:
    def __init__(self, path: str | os.PathLike, timeout: float | None = 5.0):
        self.path = os.fspath(path)
        self.timeout = timeout
        self._sock = _connect(self.path, timeout)
        self._buf = bytearray()
        self._ids = itertools.count(1)
        self._events: list[dict] = []  # events read while waiting for a reply
        self._subscribed = False

    def request(self, cmd: str, **fields: Any) -> dict:
        """Send one command and return its reply ({"ok": ..., ...}); ControlError if none comes."""
        rid = next(self._ids)
        self._send({"id": rid, "cmd": cmd, **fields})
        while True:
            message = self._read_line()
            if message is None:
                raise ControlError(f"the daemon closed {self.path} before answering {cmd!r}")
            if message.get("id") == rid and "ok" in message:
                return message
            _check_refusal(message)
            self._events.append(message)  # an event (we are subscribed): keep it for events()

    def subscribe(self) -> None:
        """Turn this connection into the event stream; returns once the server has done so."""
        if not self._subscribed:
            reply = self.request("subscribe")
            if not reply.get("ok"):
                raise ControlError(f"subscribe refused: {reply.get('error')}")
            self._subscribed = True

    def events(self) -> Iterator[dict]:
        """Subscribe (if not yet) and yield every event until the daemon closes the stream."""
        self.subscribe()
        self._sock.settimeout(None)  # events come when they come
        while True:
            while self._events:
                yield self._events.pop(0)
            message = self._read_line()
            if message is None:
                return
            yield message

    def next_event(self, timeout: float | None) -> dict | None:
        """The next event of the stream (subscribe first), None once the daemon closes it;
        TimeoutError when none comes within `timeout` seconds (0: only what is already here)."""
        if self._events:
            return self._events.pop(0)
        self._sock.settimeout(timeout)
        try:
            return self._read_line(timeouts_raise=True)
        except BlockingIOError:
            raise TimeoutError from None

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> ControlClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _send(self, obj: dict) -> None:
        try:
            self._sock.sendall(encode(obj))
        except (BrokenPipeError, ConnectionResetError):
            self._raise_refusal()  # the daemon may have refused the connection before it read a word
            raise ControlError(f"the daemon closed {self.path}") from None
        except OSError as error:
            raise ControlError(f"cannot send to {self.path}: {error}") from None

    def _raise_refusal(self) -> None:
        """The line a refused connection got, if it is there to read."""
        try:
            message = self._read_line()
        except (ControlError, OSError):
            return
        if message is not None:
            _check_refusal(message)

    def _read_line(self, timeouts_raise: bool = False) -> dict | None:
        while (message := self._take()) is None:
            try:
                data = self._sock.recv(65536)
            except TimeoutError:
                if timeouts_raise:
                    raise
                raise ControlError(f"no answer from the daemon on {self.path} within {self.timeout:g} s") from None
            except ConnectionResetError:
                data = b""
            if not data:
                return None
            self._buf += data
        return message

    def _take(self) -> dict | None:
        try:
            return bounded_json.take_object_line(self._buf, max_bytes=REPLY_BYTES)
        except bounded_json.LineTooLong:
            raise ControlError(f"the daemon sent a line longer than {REPLY_BYTES} bytes on {self.path}") from None
        except bounded_json.NotAnObject as error:
            raise ControlError(f"the daemon sent a line that is {error}") from None
        except bounded_json.BoundedJSONError as error:
            raise ControlError(f"the daemon sent a line that is not JSON within bounds: {error}") from None


def _check_refusal(message: dict) -> None:
    """A connection refused before any request was read gets one line with no id."""
    if message.get("id") is None and message.get("ok") is False:
        raise ControlError(f"the daemon refused the connection: {message.get('error')}")


def _connect(path: str, timeout: float | None) -> socket.socket:
    """Connect, waiting up to `timeout` while the daemon's listen backlog is full (a Unix
    socket with a timeout answers EAGAIN at once instead of waiting as a blocking one does)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    pause = 0.01
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(path)
            return sock
        except BlockingIOError as error:
            sock.close()
            if deadline is not None and time.monotonic() + pause > deadline:
                raise ControlError(_why_not(path, error)) from None
        except OSError as error:
            sock.close()
            raise ControlError(_why_not(path, error)) from None
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def _why_not(path: str, error: OSError) -> str:
    if error.errno == errno.ENOENT:
        return f"no control socket at {path} (is the daemon running?)"
    if error.errno == errno.ECONNREFUSED:
        return f"nothing is listening on {path} (the daemon is not running)"
    if error.errno == errno.EAGAIN:
        return f"{path}: the daemon is not taking connections now (its queue of new clients stayed full)"
    if error.errno == errno.EACCES:
        return f"{path}: permission denied (are you in the daemon's group?)"
    return f"cannot connect to {path}: {error}"

"""The daemon's event stream as the floor's processes read it: each line bounded in size and
depth before it is parsed (controller.bounded_json).

    stream = EventStream(socket_path, timeout=1.0)   # connects and subscribes; EventStreamError if it cannot
    stream.next_event(0.5)                           # the next event, None once the daemon closed the stream,
                                                     # TimeoutError when none came; EventStreamError for a bad line
    stream.close()

The followers (feed, scoreboard, edge) use an event only as a wake-up, so a line that is too
long, too deep or not JSON ends this connection (the caller connects again and reads the
journal meanwhile) rather than being held in memory or parsed. The wire is the control
socket's (controller/control/protocol.py): `{"id": 1, "cmd": "subscribe"}`, one reply, then one
JSON object a line.
"""
from __future__ import annotations

import socket
import time
from typing import Any

from controller import bounded_json
from controller.control.protocol import encode

MAX_EVENT_LINE = 1024 * 1024  # bytes in one event line; the daemon's are a few KiB at most
READ_BYTES = 65536


class EventStreamError(Exception):
    """The stream cannot be used: not there, refused, or a line out of bounds (named)."""


class EventStream:
    def __init__(self, path: str, timeout: float, *, max_line: int = MAX_EVENT_LINE) -> None:
        self.path = path
        self.max_line = max_line
        self._buf = bytearray()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.settimeout(timeout)
            self._sock.connect(path)
            self._sock.sendall(encode({"id": 1, "cmd": "subscribe"}))
            self._subscribed(timeout)
        except (OSError, EventStreamError) as error:
            self._sock.close()
            raise EventStreamError(f"{path}: {error}") from None

    def _subscribed(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:  # events published before the reply may come first, but not for longer than `timeout`
            try:
                message = self.next_event(max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise EventStreamError(f"no answer to subscribe within {timeout:g} s") from None
            if message is None:
                raise EventStreamError("the daemon closed the connection before answering subscribe")
            if message.get("ok") is False and message.get("id") in (1, None):
                raise EventStreamError(f"subscribe refused: {message.get('error')}")
            if message.get("id") == 1 and message.get("ok") is True:
                return

    def next_event(self, timeout: float | None) -> dict[str, Any] | None:
        """The next JSON object on the stream; None once it ended; TimeoutError when nothing
        came within `timeout` seconds (0: only what is already here)."""
        while (message := self._take()) is None:
            self._sock.settimeout(timeout)
            try:
                data = self._sock.recv(READ_BYTES)
            except BlockingIOError:
                raise TimeoutError from None
            except ConnectionResetError:
                data = b""
            if not data:
                return None
            self._buf += data
        return message

    def _take(self) -> dict[str, Any] | None:
        try:
            return bounded_json.take_object_line(self._buf, max_bytes=self.max_line)
        except bounded_json.LineTooLong:
            raise EventStreamError(f"an event line longer than {self.max_line} bytes") from None
        except bounded_json.BoundedJSONError as error:
            raise EventStreamError(f"an event line refused: {error}") from None

    def close(self) -> None:
        self._sock.close()

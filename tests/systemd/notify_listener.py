"""Plays systemd's side of NOTIFY_SOCKET: a real AF_UNIX datagram socket that records each
message with the sender's PID (SCM_CREDENTIALS, as systemd checks for NotifyAccess=main)
and the kernel's arrival time (SO_TIMESTAMP)."""
from __future__ import annotations

import os
import socket
import struct
import time
from dataclasses import dataclass

SO_TIMESTAMP = getattr(socket, "SO_TIMESTAMP", 29)
SCM_TIMESTAMP = SO_TIMESTAMP
UCRED = struct.Struct("3i")  # pid, uid, gid
TIMEVAL = struct.Struct("2q")  # seconds, microseconds


@dataclass(frozen=True)
class Message:
    text: str
    pid: int
    arrived: float  # kernel arrival time, seconds (CLOCK_REALTIME)

    @property
    def fields(self) -> dict[str, str]:
        return dict(line.split("=", 1) for line in self.text.split("\n"))


class NotifyListener:
    """Bind at `path` (a filesystem path) or, when `abstract` is given, at '\\0' + abstract."""

    def __init__(self, path: str | None = None, abstract: str | None = None):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMP, 1)
        if abstract is not None:
            self.sock.bind("\0" + abstract)
            self.env_value = "@" + abstract
        else:
            self.sock.bind(path)
            self.env_value = path
        self.path = path

    def receive(self, timeout: float) -> Message | None:
        """The next message, or None when none arrives within `timeout` seconds."""
        self.sock.settimeout(timeout)
        try:
            data, ancillary, _, _ = self.sock.recvmsg(4096, socket.CMSG_SPACE(UCRED.size) + socket.CMSG_SPACE(TIMEVAL.size))
        except (TimeoutError, BlockingIOError):  # BlockingIOError: a timeout of 0
            return None
        pid, arrived = -1, 0.0
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                pid = UCRED.unpack(payload[: UCRED.size])[0]
            elif level == socket.SOL_SOCKET and kind == SCM_TIMESTAMP:
                seconds, micros = TIMEVAL.unpack(payload[: TIMEVAL.size])
                arrived = seconds + micros / 1e6
        return Message(data.decode("utf-8"), pid, arrived)

    def receive_until(self, predicate, timeout: float) -> list[Message]:
        """Messages up to and including the first one `predicate` accepts; fails when none
        has come within `timeout` seconds (a guard against hanging, not a speed check)."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            message = self.receive(max(0.0, deadline - time.monotonic()))
            assert message is not None, f"no matching notify message within {timeout}s; got {[m.text for m in seen]}"
            seen.append(message)
            if predicate(message):
                return seen

    def close(self) -> None:
        self.sock.close()
        if self.path and os.path.exists(self.path):
            os.unlink(self.path)

"""systemd's side of the notify protocol, for the rig: a real AF_UNIX datagram socket given to
the daemon as NOTIFY_SOCKET. Every datagram is kept with the sender's PID (SCM_CREDENTIALS,
what systemd checks for NotifyAccess=main) and the kernel's arrival time (SO_TIMESTAMP,
CLOCK_REALTIME seconds)."""
from __future__ import annotations

import contextlib
import os
import socket
import struct
import threading
import time
from dataclasses import dataclass

from simulation.rig.processes import RigError

SO_TIMESTAMP = getattr(socket, "SO_TIMESTAMP", 29)
_UCRED = struct.Struct("3i")  # pid, uid, gid
_TIMEVAL = struct.Struct("2q")  # seconds, microseconds


@dataclass(frozen=True)
class NotifyMessage:
    text: str
    pid: int
    arrived: float  # kernel arrival time (CLOCK_REALTIME seconds)

    @property
    def fields(self) -> dict[str, str]:
        return dict(line.split("=", 1) for line in self.text.split("\n") if "=" in line)

    @property
    def is_ping(self) -> bool:
        return self.fields.get("WATCHDOG") == "1"


def listening_socket() -> socket.socket:
    """A datagram socket that will carry each sender's PID and the arrival time."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMP, 1)
    return sock


def read_datagram(sock: socket.socket) -> NotifyMessage:
    """One notify datagram with its sender's PID and arrival time (blocks per the socket's
    timeout: TimeoutError, or BlockingIOError for a timeout of 0)."""
    data, ancillary, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(_UCRED.size) + socket.CMSG_SPACE(_TIMEVAL.size))
    pid, arrived = -1, 0.0
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            pid = _UCRED.unpack(payload[:_UCRED.size])[0]
        elif level == socket.SOL_SOCKET and kind == SO_TIMESTAMP:
            seconds, micros = _TIMEVAL.unpack(payload[:_TIMEVAL.size])
            arrived = seconds + micros / 1e6
    return NotifyMessage(data.decode("utf-8", "replace"), pid, arrived)


class NotifyListener:
    """Reads every datagram as it comes, in a thread (as systemd does): a notify socket left
    unread fills up (net.unix.max_dgram_qlen, 10 by default) and then blocks the daemon's
    sends. `receive` and `wait_for` walk the messages in order with a cursor of their own."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.sock = listening_socket()
        self.sock.bind(path)
        self.sock.settimeout(0.1)  # how soon the reader notices close()
        self.messages: list[NotifyMessage] = []  # every message received so far, in order
        self.cursor = 0  # the next message receive() returns
        self._cond = threading.Condition()
        self._running = True
        self._thread = threading.Thread(target=self._read, name="rig-notify", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while self._running:
            try:
                message = read_datagram(self.sock)
            except TimeoutError:
                continue
            except OSError:
                return
            with self._cond:
                self.messages.append(message)
                self._cond.notify_all()

    def mark(self) -> int:
        """Skip what has come so far: receive() and wait_for() see only later messages."""
        with self._cond:
            self.cursor = len(self.messages)
            return self.cursor

    def receive(self, timeout: float) -> NotifyMessage | None:
        """The next message after the cursor, or None when none comes within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self.cursor >= len(self.messages):
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            self.cursor += 1
            return self.messages[self.cursor - 1]

    def wait_for(self, predicate, timeout: float) -> list[NotifyMessage]:
        """Messages from the cursor up to and including the first that `predicate` accepts;
        RigError when none comes within `timeout` (a guard against hanging, never a measure
        of speed)."""
        deadline = time.monotonic() + timeout
        seen: list[NotifyMessage] = []
        while True:
            message = self.receive(max(0.0, deadline - time.monotonic()))
            if message is None:
                raise RigError(f"no matching notify message within {timeout:g} s; got {[m.text for m in seen]}")
            seen.append(message)
            if predicate(message):
                return seen

    def wait_for_or_none(self, predicate, timeout: float) -> NotifyMessage | None:
        """The first message from the cursor on that `predicate` accepts, or None when none has
        come within `timeout` (the cursor then rests after the messages looked at)."""
        deadline = time.monotonic() + timeout
        while (message := self.receive(max(0.0, deadline - time.monotonic()))) is not None:
            if predicate(message):
                return message
        return None

    def close(self) -> None:
        self._running = False
        self._thread.join(5.0)
        self.sock.close()
        with contextlib.suppress(FileNotFoundError):  # the socket file, bound by us: ours to remove
            os.unlink(self.path)

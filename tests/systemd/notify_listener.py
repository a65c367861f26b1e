"""Plays systemd's side of NOTIFY_SOCKET for tests that read it step by step (no thread):
a real AF_UNIX datagram socket, bound at a path or an abstract name, whose messages carry the
sender's PID and arrival time (parsed by the rig's read_datagram)."""
from __future__ import annotations

import os
import time

from simulation.rig.notify import NotifyMessage, listening_socket, read_datagram

Message = NotifyMessage  # the rig's: text, pid, arrival time, fields


class NotifyListener:
    """Bind at `path` (a filesystem path) or, when `abstract` is given, at '\\0' + abstract."""

    def __init__(self, path: str | None = None, abstract: str | None = None):
        self.sock = listening_socket()
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
            return read_datagram(self.sock)
        except (TimeoutError, BlockingIOError):  # BlockingIOError: a timeout of 0
            return None

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

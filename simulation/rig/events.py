"""The daemon's event stream as the rig follows it: one subscriber connection, read by a
thread into a list that only grows, so a test can mark a point and wait for what follows.

    mark = events.mark()
    rig.press("place_bets")
    opened = events.wait_for("round_opened", after=mark)
    result = events.wait_for("result", after=mark, round=opened["round"])

After a daemon restart `reconnect()` follows the new daemon; the list (and old marks) stay.
"""
from __future__ import annotations

import json
import socket
import threading
import time

from simulation.rig.processes import RigError

WAIT = 20.0  # default guard for waits: a hang fails the test, a slow machine does not


class EventStream:
    def __init__(self, path: str) -> None:
        self.path = path
        self.events: list[dict] = []
        self._cond = threading.Condition()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self.connected = False
        self.reconnect()

    def reconnect(self) -> None:
        self.close()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(WAIT)
        try:
            sock.connect(self.path)
            sock.sendall(b'{"id":"rig","cmd":"subscribe"}\n')
            reader = sock.makefile("rb")
            reply = json.loads(reader.readline() or b"{}")
        except (OSError, ValueError) as error:
            sock.close()
            raise RigError(f"cannot follow the daemon's events on {self.path}: {error}") from None
        if not reply.get("subscribed"):
            sock.close()
            raise RigError(f"the daemon refused the subscription: {reply}")
        sock.settimeout(None)
        self._sock, self.connected = sock, True
        self._thread = threading.Thread(target=self._read, args=(reader,), name="rig-events", daemon=True)
        self._thread.start()

    def _read(self, reader) -> None:
        try:
            for line in reader:
                event = json.loads(line)
                with self._cond:
                    self.events.append(event)
                    self._cond.notify_all()
        except (OSError, ValueError):
            pass
        finally:
            reader.close()
            with self._cond:
                self.connected = False
                self._cond.notify_all()

    def add(self, event: dict) -> None:
        """An event the rig knows was published while it followed no daemon (a kill's
        window, simulation/kill_soak.py): waits see it like any other."""
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def mark(self) -> int:
        """A position in the stream: waits `after` it see only later events."""
        with self._cond:
            return len(self.events)

    def since(self, mark: int = 0, name: str | None = None) -> list[dict]:
        with self._cond:
            return [e for e in self.events[mark:] if name is None or e.get("event") == name]

    def find(self, name: str | None = None, *, after: int = 0, predicate=None, **fields) -> dict | None:
        """The first event after `after` named `name` whose fields equal `fields` (and that
        `predicate` accepts), or None."""
        with self._cond:
            return self._find(name, after, predicate, fields)

    def _find(self, name, after, predicate, fields):
        for event in self.events[after:]:
            if name is not None and event.get("event") != name:
                continue
            if any(event.get(k) != v for k, v in fields.items()):
                continue
            if predicate is None or predicate(event):
                return event
        return None

    def wait_for(self, name: str | None = None, *, after: int = 0, timeout: float = WAIT, predicate=None,
                 **fields) -> dict:
        """As find(), waiting up to `timeout`; RigError when nothing matches in time."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while (found := self._find(name, after, predicate, fields)) is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    recent = [e.get("event") for e in self.events[after:]][-20:]
                    raise RigError(f"no {name or 'matching'} event {fields or ''} within {timeout:g} s; "
                                   f"after the mark: {recent}")
                self._cond.wait(left)
        return found

    def close(self) -> None:
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)  # wakes the reader thread
            except OSError:
                pass
            self._sock.close()
            self._sock = None
        if self._thread is not None:
            self._thread.join(5.0)
            self._thread = None

"""The follower reads the daemon's event stream within bounds: a line nested thousands deep
(json.loads would raise RecursionError on the follower's thread) or one that never ends is not
parsed or held; the connection is dropped and made again, and the records still come from the
journal. The "daemon" here is a real Unix socket server in this test speaking the control
socket's wire (subscribe, then lines), because the real daemon never sends such lines."""
from __future__ import annotations

import socket
import threading
import time

import pytest
import structlog

from controller.journal import Journal, Record
from services.event_stream import MAX_EVENT_LINE, EventStream, EventStreamError
from services.follow import JournalFollower

WAIT = 30


class HostileDaemon:
    """Answers subscribe, then sends each connection the next of `payloads` (bytes, or
    "flood": lines without end) and records how each connection ended."""

    def __init__(self, path: str, payloads: list) -> None:
        self.payloads = payloads
        self.ended: list[str] = []
        self.connections = 0
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(path)
        self.server.listen(8)
        self.server.settimeout(0.2)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(WAIT)
                self.connections += 1
                conn.recv(4096)  # the subscribe request
                payload = self.payloads[min(self.connections, len(self.payloads)) - 1]
                try:
                    conn.sendall(b'{"id":1,"ok":true}\n')
                    if payload == "flood":
                        sent = 0
                        while sent < 64 * MAX_EVENT_LINE and not self.stop.is_set():
                            conn.sendall(b"x" * 65536)
                            sent += 65536
                        self.ended.append(f"flood sent whole ({sent} bytes)")
                    else:
                        conn.sendall(payload)
                        while not self.stop.is_set() and conn.recv(4096):
                            pass
                        self.ended.append("closed by the follower")
                except OSError as error:
                    self.ended.append(f"closed by the follower ({type(error).__name__})")

    def close(self) -> None:
        self.stop.set()
        self.thread.join(WAIT)
        self.server.close()


def test_deep_and_endless_event_lines_are_refused_and_records_still_come(tmp_path):
    journal_path, socket_path = str(tmp_path / "journal.sqlite"), str(tmp_path / "control.sock")
    deep = b"[" * 200_000 + b"]" * 200_000 + b"\n"
    daemon = HostileDaemon(socket_path, [deep, "flood", b"[1, 2]\n", b'{"event": "card"}\n'])
    with Journal(journal_path) as journal:
        written = [journal.append("note", {"n": n}) for n in range(3)]
    follower = JournalFollower(journal_path, socket_path, poll_s=0.05)
    stop = threading.Event()
    got: list[Record] = []

    def follow() -> None:
        for item in follower.items(stop):
            if isinstance(item, Record):
                got.append(item)

    with structlog.testing.capture_logs() as logs:
        thread = threading.Thread(target=follow, daemon=True)
        thread.start()
        try:
            wait_until(lambda: len(got) == 3 and daemon.connections >= 4, "the first records and four connections")
            with Journal(journal_path) as journal:
                written += [journal.append("note", {"n": n}) for n in range(3, 6)]
            wait_until(lambda: len(got) == 6, "the records written after")
        finally:
            stop.set()
            thread.join(WAIT)
            daemon.close()
    assert not thread.is_alive()
    assert [r.seq for r in got] == [r.seq for r in written]
    reasons = [entry["reason"] for entry in logs if entry["event"] == "event_line_refused"]
    assert any("nested deeper than the 32 levels allowed" in r for r in reasons), reasons
    assert any(f"an event line longer than {MAX_EVENT_LINE} bytes" in r for r in reasons), reasons
    assert any("not a JSON object" in r for r in reasons), reasons
    assert daemon.ended[1].startswith("closed by the follower"), daemon.ended  # it stopped reading the flood


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"waited {WAIT} s for {what}"
        time.sleep(0.02)


def test_no_daemon_is_an_error_naming_the_socket(tmp_path):
    path = str(tmp_path / "control.sock")
    with pytest.raises(EventStreamError, match=path):
        EventStream(path, timeout=1.0)

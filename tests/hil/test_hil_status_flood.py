"""A client flooding `status` without reading its replies, while the shoe deals at full
speed, against the real daemon process.

The flooder sends thousands of status requests a second on one connection and never reads;
each time the daemon drops it, it connects again and goes on. Meanwhile another client asks
for the status over and over and the rig deals rounds as fast as the table takes them. The
daemon reads a bounded number of requests per client per turn, shares one status among those
of a turn and drops the flooder once its unread replies pile up: no device link goes silent,
no round is held, the flooder is dropped, the other client is answered every time. How long
the other client waits under the flood is measured by bench/bench_status_flood.py
(docs/daemon.md), not asserted here: this machine may be loaded."""
from __future__ import annotations

import socket
import threading
import time

import pytest

from controller.control import ControlClient

pytestmark = [pytest.mark.hil, pytest.mark.timeout(600)]
WAIT = 60.0  # guards against hanging, never a measure of speed
ROUNDS = 4


class StatusFlood(threading.Thread):
    """Status requests on one connection, never reading a reply; again after each drop."""

    def __init__(self, path: str) -> None:
        super().__init__(name="status-flood", daemon=True)
        self.path, self.stop, self.dropped, self.sent = path, threading.Event(), 0, 0

    def run(self) -> None:
        burst = b'{"cmd":"status"}\n' * 2000
        while not self.stop.is_set():
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(0.2)
            try:
                sock.connect(self.path)
                while not self.stop.is_set():
                    try:
                        sock.sendall(burst)
                        self.sent += 2000
                    except TimeoutError:
                        continue  # the daemon reads us a little each turn: push on
            except OSError:  # dropped (EPIPE, ECONNRESET) or refused: connect again
                self.dropped += 1
            finally:
                sock.close()


class StatusAsker(threading.Thread):
    """Another client: a status, again and again, each answer checked."""

    def __init__(self, path: str) -> None:
        super().__init__(name="status-asker", daemon=True)
        self.path, self.stop = path, threading.Event()
        self.answers: list[bool] = []
        self.failure: str | None = None

    def run(self) -> None:
        try:
            with ControlClient(self.path, timeout=WAIT) as client:
                while not self.stop.is_set():
                    self.answers.append(client.request("status")["ok"])
                    time.sleep(0.005)
        except Exception as error:  # noqa: BLE001 - reported by the test
            self.failure = repr(error)


def test_a_status_flood_neither_silences_a_link_nor_holds_a_round(start_rig):
    rig = start_rig("fortune6", seed=11)
    rig.new_shoe()
    mark = rig.events.mark()
    flood, asker = StatusFlood(rig.socket_path), StatusAsker(rig.socket_path)
    flood.start()
    rig.wait_until(lambda: flood.sent > 10000, WAIT, "the flood to be under way")
    asker.start()
    try:
        ends = [rig.play_round(timeout=WAIT) for _ in range(ROUNDS)]
        rig.wait_until(lambda: flood.dropped >= 1, WAIT, "the flooder to be dropped")
    finally:
        flood.stop.set()
        asker.stop.set()
        flood.join(WAIT)
        asker.join(WAIT)
    assert [end["event"] for end in ends] == ["result"] * ROUNDS  # none held, none voided
    assert rig.events.find("held", after=mark) is None
    lost = rig.events.find("device", after=mark, predicate=lambda e: e.get("link") != "up")
    assert lost is None, lost
    for kind, sim in rig.sims.items():
        assert "host silent" not in sim.child.output(tail=100_000), kind
    assert asker.failure is None and asker.answers and all(asker.answers)
    control = rig.status()["daemon"]["control"]
    assert control["dropped"]["not_reading_replies"] >= 1
    assert rig.verify().ok

"""A device that starts a new session itself, while the host still has one, is asked for its
state again (PROTOCOL.md §4.5): what it failed to send was dropped (§2), so without the
question the host would never learn it.

The device here is a firmware_bridge Link driven by the test on the device end of a real pty
(between turns of the driver's reactor, on the same thread), so the test can cut the line both
ways for a moment: long enough for the device's retry limit, short of the host's silence timeout.
"""
from __future__ import annotations

import os
import select
import time

from drivers.events import LinkDown, ShoeStatusHeard
from drivers.reconnect import Backoff
from drivers.shoe import ShoeDriver
from firmware_bridge.enums import DeviceKind
from firmware_bridge.link import Link
from firmware_bridge.link_events import Connected, SendFailed
from firmware_bridge.messages import Hello, ShoeStatus, StatusQuery

WAIT = 15.0


class HandDevice:
    """A shoe firmware in a few lines: answers STATUS_QUERY with `self.status`."""

    def __init__(self, pty, reactor) -> None:
        self.pty = pty
        self.reactor = reactor
        self.link = Link(Hello(DeviceKind.SHOE, boot_id=77, serial="HAND-1"), ack_timeout=0.05, retries=2,
                         heartbeat_interval=0.2)
        self.status = ShoeStatus(0, 0)
        self.events: list = []
        self.line_up = True

    def step(self, wait: float = 0.005) -> None:
        self.reactor.run_until(lambda: False, wait)  # the driver's turn
        ready, _, _ = select.select([self.pty.master], [], [], wait)
        now = time.monotonic()
        if ready:
            data = os.read(self.pty.master, 4096)
            if self.line_up:
                self._handle(self.link.receive(data, now), now)
        self._handle(self.link.poll(now), now)
        out = self.link.outgoing()
        if out and self.line_up:
            os.write(self.pty.master, out)

    def _handle(self, events: list, now: float) -> None:
        self.events += events
        for event in events:
            if isinstance(event, StatusQuery):
                self.link.send(self.status, now)

    def run_until(self, condition, what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not condition():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            self.step()


def test_a_session_the_device_renews_is_asked_for_status_again(pty_device, sink):
    device = HandDevice(pty_device, sink.reactor)
    driver = ShoeDriver(pty_device.link, sink, reactor=sink.reactor, backoff=Backoff(0.01, 2.0, 0.1),
                        link_options={"heartbeat_interval": 0.2, "silence_timeout": 30.0})
    with driver:
        device.run_until(lambda: sink.of(ShoeStatusHeard), "the first status")
        # The line goes dead both ways; meanwhile the door opens and its status fails.
        device.line_up = False
        device.status = ShoeStatus(0, 10, door_open=True)
        device.link.send(device.status, time.monotonic())
        device.run_until(lambda: any(isinstance(e, SendFailed) for e in device.events), "the device's retry limit")
        assert not sink.of(LinkDown)  # the host saw nothing wrong: its silence timeout is far off
        device.line_up = True  # the device hears the host's next heartbeat and starts a session
        device.run_until(lambda: sum(isinstance(e, Connected) for e in device.events) >= 2, "the new session")
        device.run_until(lambda: len(sink.of(ShoeStatusHeard)) >= 2, "the host's question and the answer")
    first, second = sink.journaled("ShoeStatusChanged")
    assert not first["door_open"] and second["door_open"] and second["changed"] == ["door_open"]

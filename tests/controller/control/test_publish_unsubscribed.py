"""publish() with nobody following the event stream: the event is still checked (TypeError
for what is not JSON) but the socket thread is not woken for it; the count of subscribers
that decides this follows subscriptions and disconnections. Real server, real socket."""
from __future__ import annotations

import time

import pytest

from controller.control import ControlClient

WAIT = 30.0  # a bound for waiting on the server thread, never a timing assertion


def _until(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"never happened: {what}")
        time.sleep(0.005)


def test_nobody_subscribed_nothing_is_queued_or_woken(server, loop):
    loop.run_in_loop(lambda: server.publish({"event": "card", "n": 1}))
    assert server.subscribers == 0
    assert not server._outbox and not server._wake_pending  # no wake-up byte was sent for it
    with pytest.raises(TypeError):
        server.publish({"event": "card", "card": object()})


def test_the_count_follows_subscribers_that_come_and_go(server, sock_path, loop):
    first, second = ControlClient(sock_path, timeout=30), ControlClient(sock_path, timeout=30)
    first.subscribe()
    second.subscribe()
    assert second.request("subscribe")["subscribed"]  # asked twice on one connection: still one subscriber
    assert server.subscribers == 2
    second.close()
    _until(lambda: server.subscribers == 1, "the closed subscriber is no longer counted")
    loop.run_in_loop(lambda: server.publish({"event": "still", "n": 2}))
    assert next(first.events()) == {"event": "still", "n": 2}
    first.close()
    _until(lambda: server.subscribers == 0, "no subscriber left")
    loop.run_in_loop(lambda: server.publish({"event": "unheard"}))
    assert not server._outbox and not server._wake_pending

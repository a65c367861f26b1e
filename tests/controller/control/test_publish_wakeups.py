"""When the socket thread is woken. publish() with nobody following the event stream: the
event is still checked (TypeError for what is not JSON) but the socket thread is not woken
for it; the count of subscribers that decides this follows subscriptions and disconnections.
Inside gathered(), what the loop's thread publishes or answers waits and, at its end, that
thread sends it itself, in order, without waking the socket thread; other threads are not
held. Real server, real socket."""
from __future__ import annotations

import queue
import threading
import time

import pytest

from controller.control import ControlClient, ControlServer

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


def test_gathered_events_wait_for_the_end_then_go_out_in_order(server, sock_path, loop):
    watcher = ControlClient(sock_path, timeout=30)
    watcher.subscribe()
    held = []

    def publish_gathered():
        with server.gathered():
            for n in range(3):
                server.publish({"event": "card", "n": n})
            held.append((len(server._outbox), server._wake_pending))  # queued, nobody woken yet
        held.append((len(server._outbox), server._wake_pending))  # sent by this thread: still no wake-up
        server.publish({"event": "after", "n": 3})

    loop.run_in_loop(publish_gathered)
    assert held == [(3, False), (0, False)]
    events = watcher.events()
    assert [next(events)["n"] for _ in range(4)] == [0, 1, 2, 3]
    watcher.close()


def test_gathering_on_one_thread_does_not_hold_another(server, sock_path, loop):
    watcher = ControlClient(sock_path, timeout=30)
    watcher.subscribe()
    got = []
    inside, other_done = threading.Event(), threading.Event()

    def other_thread():
        assert inside.wait(WAIT)
        server.publish({"event": "other"})  # wakes the socket thread although the loop gathers
        events = watcher.events()
        got.extend([next(events), next(events)])  # what waited in the outbox goes with it, in order
        other_done.set()

    reader = threading.Thread(target=other_thread)
    reader.start()

    def gather_until_the_other_was_delivered():
        with server.gathered():
            server.publish({"event": "held"})
            inside.set()
            assert other_done.wait(WAIT)

    loop.run_in_loop(gather_until_the_other_was_delivered)
    reader.join(WAIT)
    assert got == [{"event": "held"}, {"event": "other"}]  # delivered while the loop still gathered
    watcher.close()


def test_an_answer_given_inside_gathered_reaches_its_client_at_the_end(sock_path):
    requests: queue.SimpleQueue = queue.SimpleQueue()
    server = ControlServer(sock_path, requests.put).start()
    client = ControlClient(sock_path, timeout=30)
    answer = {}
    asking = threading.Thread(target=lambda: answer.update(client.request("status")))
    asking.start()
    try:
        request = requests.get(timeout=WAIT)
        with server.gathered():
            request.reply(state="betting")
            assert len(server._outbox) == 1 and not server._wake_pending  # waits for the end
        asking.join(WAIT)
        assert answer["ok"] is True and answer["state"] == "betting"
    finally:
        client.close()
        server.stop()


def test_an_answer_that_is_not_json_still_answers_and_the_rest_goes_out(sock_path):
    """A bug in an answer given inside gathered() does not reach the loop: the client gets an
    error naming it, and the events after it still go out."""
    requests: queue.SimpleQueue = queue.SimpleQueue()
    server = ControlServer(sock_path, requests.put).start()
    asker, watcher = ControlClient(sock_path, timeout=30), ControlClient(sock_path, timeout=30)
    watcher.subscribe()
    answer = {}
    asking = threading.Thread(target=lambda: answer.update(asker.request("status")))
    asking.start()
    try:
        request = requests.get(timeout=WAIT)
        with server.gathered():
            request.reply(state=object())  # not JSON: found when delivered
            server.publish({"event": "after"})
        asking.join(WAIT)
        assert answer["ok"] is False and "answer could not be sent" in answer["error"]
        assert "not JSON serializable" in answer["error"]
        assert next(watcher.events()) == {"event": "after"}
    finally:
        asker.close()
        watcher.close()
        server.stop()

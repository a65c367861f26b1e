"""The reactor on its own: real pipes and sockets, real time (bounds against hanging, never
timing assertions)."""
from __future__ import annotations

import os
import socket
import threading

import pytest

from drivers.reactor import Reactor

WAIT = 10.0


def test_a_readable_fd_calls_its_callback_on_the_reactor_thread(reactor):
    r, w = os.pipe()
    got = []
    handle = reactor.register_fd(r, lambda mask: got.append((os.read(r, 10), threading.get_ident())))
    os.write(w, b"abc")
    assert reactor.run_until(lambda: got, WAIT)
    assert got == [(b"abc", threading.get_ident())]
    reactor.unregister_fd(handle)
    reactor.unregister_fd(handle)  # twice: no error
    os.write(w, b"more")
    reactor.run_until(lambda: False, 0.02)
    assert len(got) == 1
    os.close(r)
    os.close(w)


def test_writable_interest_is_switched_on_and_off(reactor):
    a, b = socket.socketpair()
    calls = []
    handle = reactor.register_fd(a.fileno(), calls.append)
    reactor.set_writable(handle, True)
    assert reactor.run_until(lambda: calls, WAIT) and calls[0] & Reactor.WRITE
    reactor.set_writable(handle, False)
    calls.clear()
    reactor.run_until(lambda: False, 0.02)
    assert calls == []
    reactor.unregister_fd(handle)
    a.close()
    b.close()


def test_late_fds_are_served_after_the_others_ready_in_the_same_turn(reactor):
    """The control socket's clients (late) wait behind the device links; one closed by an
    earlier callback of the turn is not called at all."""
    pipes = [os.pipe() for _ in range(4)]
    order: list[str] = []
    handles = {}

    def reader(name: str, fd: int):
        def read(mask: int) -> None:
            os.read(fd, 10)
            order.append(name)
            if name == "device-1":
                reactor.unregister_fd(handles["client-gone"])
        return read

    for (r, _), name, late in zip(pipes, ["client-1", "device-1", "client-gone", "device-2"], [True, False, True, False]):
        handles[name] = reactor.register_fd(r, reader(name, r), late=late)
    for _, w in pipes:
        os.write(w, b"x")
    assert reactor.run_until(lambda: len(order) >= 3, WAIT)
    reactor.run_until(lambda: False, 0.02)
    assert sorted(order[:2]) == ["device-1", "device-2"] and order[2:] == ["client-1"]
    for r, w in pipes:
        os.close(r)
        os.close(w)


def test_timers_fire_in_deadline_order_and_can_move_or_be_cancelled(reactor):
    fired = []
    now = reactor.now()
    late = reactor.timer(lambda t: fired.append("late"), now + 0.03)
    reactor.timer(lambda t: fired.append("early"), now + 0.01)
    cancelled = reactor.timer(lambda t: fired.append("cancelled"), now + 0.005)
    cancelled.cancel()
    moved = reactor.timer(lambda t: fired.append("moved"), now + 0.001)
    moved.at(now + 0.02)  # later: its old heap entry is only a reminder
    assert reactor.run_until(lambda: len(fired) == 3, WAIT)
    assert fired == ["early", "moved", "late"] and not late.armed
    reactor.run_until(lambda: False, 0.02)
    assert fired == ["early", "moved", "late"]  # each once


def test_timers_all_past_due_when_the_loop_comes_late_still_fire_in_deadline_order(reactor):
    """A loaded machine: the loop runs only after every deadline has passed, the moved timer's
    old entry among them; it still fires at its new place, not at its reminder's."""
    fired = []
    now = reactor.now()
    reactor.timer(lambda t: fired.append("late"), now + 0.03)
    reactor.timer(lambda t: fired.append("early"), now + 0.01)
    moved = reactor.timer(lambda t: fired.append("moved"), now + 0.001)
    moved.at(now + 0.02)
    threading.Event().wait(0.05)  # the loop comes late
    assert reactor.run_until(lambda: len(fired) == 3, WAIT)
    assert fired == ["early", "moved", "late"]


def test_a_timer_rearmed_from_its_callback_fires_again(reactor):
    ticks = []

    def tick(now):
        ticks.append(now)
        if len(ticks) < 3:
            timer.at(now + 0.001)

    timer = reactor.call_later(0.001, tick)
    assert reactor.run_until(lambda: len(ticks) == 3, WAIT)
    assert ticks == sorted(ticks)


def test_call_soon_runs_in_the_same_turn_in_order(reactor):
    order = []
    reactor.call_soon(lambda: (order.append(1), reactor.call_soon(lambda: order.append(3))))
    reactor.call_soon(lambda: order.append(2))
    assert reactor.run_until(lambda: len(order) == 3, WAIT) and order == [1, 2, 3]


def test_another_thread_wakes_the_reactor_through_the_pipe(reactor):
    got = []
    thread = threading.Thread(target=lambda: reactor.call_soon_threadsafe(lambda: got.append(threading.get_ident())))
    thread.start()
    assert reactor.run_until(lambda: got, WAIT)  # no timer armed: only the wake-up ends the select
    thread.join()
    assert got == [threading.get_ident()]


def test_call_from_another_thread_returns_the_result_or_raises():
    with Reactor() as reactor:
        runner = threading.Thread(target=reactor.run, name="reactor")
        runner.start()
        try:
            assert reactor.call(lambda: threading.current_thread().name) == "reactor"
            with pytest.raises(ZeroDivisionError):
                reactor.call(lambda: 1 / 0)
        finally:
            reactor.call_soon_threadsafe(reactor.stop)
            runner.join(WAIT)
    assert not runner.is_alive()


def test_a_callback_that_raises_ends_run_and_the_reactor_can_run_again(reactor):
    reactor.call_soon(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        reactor.run()
    done = []
    reactor.call_soon(lambda: done.append(True))
    assert reactor.run_until(lambda: done, WAIT)


def test_running_inside_a_callback_is_refused(reactor):
    errors = []

    def nested():
        try:
            reactor.run_until(lambda: True, 1)
        except RuntimeError as error:
            errors.append(str(error))

    reactor.call_soon(nested)
    reactor.run_until(lambda: errors, WAIT)
    assert "already running" in errors[0]


def test_run_until_gives_up_after_its_timeout(reactor):
    assert reactor.run_until(lambda: False, 0.01) is False


def test_stop_ends_run(reactor):
    stopped_at: list[float] = []
    reactor.call_later(0.001, lambda now: (stopped_at.append(now), reactor.stop()))
    reactor.run()  # returns once stop() was called from the timer
    assert len(stopped_at) == 1

"""The notify protocol end to end: a real child process (notify_child.py, the daemon loop's
stand-in) talking to a real AF_UNIX datagram socket given as NOTIFY_SOCKET, with
WATCHDOG_USEC set, as systemd would start `tablectl run`. systemd itself is not involved
(it is not PID 1 here, and tests must not start `systemd --user`)."""
from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from notify_listener import NotifyListener

CHILD = Path(__file__).with_name("notify_child.py")
WATCHDOG_USEC = 200_000  # the child must ping every 0.1 s
INTERVAL = WATCHDOG_USEC / 2e6
WAIT = 10.0  # guard against a hung test, never a measure of speed


def is_ping(message):
    return message.text == "WATCHDOG=1"


def status_is(text):
    return lambda message: message.fields.get("STATUS") == text


@pytest.fixture
def start_child():
    children = []

    def start(listener, **extra_env):
        env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
        env.update(NOTIFY_SOCKET=listener.env_value, WATCHDOG_USEC=str(WATCHDOG_USEC), **extra_env)
        child = subprocess.Popen([sys.executable, str(CHILD)], stdin=subprocess.PIPE, env=env)
        children.append(child)
        return child

    yield start
    for child in children:
        if child.poll() is None:
            child.kill()
        child.wait()
        if not child.stdin.closed:
            child.stdin.close()


def send(child, line):
    child.stdin.write(line.encode() + b"\n")
    child.stdin.flush()


def test_ready_then_pings_from_the_loop_then_silence_when_the_loop_stalls(listener, start_child):
    child = start_child(listener)
    startup = listener.receive_until(lambda m: "READY" in m.fields, WAIT)
    assert [m.text for m in startup] == ["STATUS=starting: opening devices", f"READY=1\nSTATUS=ready; watchdog every {INTERVAL}s"]

    # While the loop runs it pings; extra loop turns (status commands) must not add pings.
    pings = listener.receive_until(is_ping, WAIT)
    for n in range(20):
        send(child, f"status round {n}")
    running = listener.receive_until(status_is("round 19"), WAIT)
    running += listener.receive_until(is_ping, WAIT) + listener.receive_until(is_ping, WAIT)
    pings += [m for m in running if is_ping(m)]
    assert len(pings) >= 3
    assert [m.fields["STATUS"] for m in running if not is_ping(m)] == [f"round {n}" for n in range(20)]
    # A lower bound that holds however slow the machine: pings are never closer than the
    # interval (kernel arrival stamps; 2 ms for realtime-vs-monotonic clock slew).
    gaps = [later.arrived - earlier.arrived for earlier, later in zip(pings, pings[1:])]
    assert min(gaps) >= INTERVAL - 0.002, gaps

    # Every message came from the main process, as NotifyAccess=main requires.
    assert {m.pid for m in startup + pings + running} == {child.pid}

    send(child, "stall")
    listener.receive_until(status_is("stalled"), WAIT)
    # Datagrams arrive in order: anything after "stalled" would be a ping from a stuck loop.
    # Five watchdog periods of silence: systemd would have killed it by now.
    assert listener.receive(timeout=5 * WATCHDOG_USEC / 1e6) is None
    assert child.poll() is None


def test_stop_says_stopping_and_exits(listener, start_child):
    child = start_child(listener)
    listener.receive_until(lambda m: "READY" in m.fields, WAIT)
    send(child, "stop")
    listener.receive_until(lambda m: m.fields.get("STOPPING") == "1", WAIT)
    assert child.wait(timeout=WAIT) == 0


def test_abstract_socket_name(start_child):
    listener = NotifyListener(abstract=f"tablectl-test-{uuid.uuid4().hex}")
    try:
        child = start_child(listener)
        listener.receive_until(lambda m: "READY" in m.fields, WAIT)
        listener.receive_until(is_ping, WAIT)
        child.stdin.close()  # end of input: the loop shuts down
        listener.receive_until(lambda m: m.fields.get("STOPPING") == "1", WAIT)
        assert child.wait(timeout=WAIT) == 0
    finally:
        listener.close()


def test_watchdog_meant_for_another_process_is_not_pinged(listener, start_child):
    child = start_child(listener, WATCHDOG_PID=str(os.getpid()))
    listener.receive_until(lambda m: m.fields.get("STATUS") == "ready; watchdog every Nones", WAIT)
    send(child, "stop")
    after = listener.receive_until(lambda m: m.fields.get("STOPPING") == "1", WAIT)
    assert not any(is_ping(m) for m in after)

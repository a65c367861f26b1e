"""controller.sdnotify in-process, against a real AF_UNIX datagram socket; the clock is the
`now` argument, so the watchdog schedule is checked exactly, without waiting."""
from __future__ import annotations

import os

import pytest

from controller.sdnotify import Notifier, NotifyConfigError


def received(listener):
    texts = []
    while (message := listener.receive(timeout=0)) is not None:
        texts.append(message.text)
    return texts


def notifier_for(listener, usec="200000", **extra):
    return Notifier.from_environment({"NOTIFY_SOCKET": listener.env_value, "WATCHDOG_USEC": usec, **extra})


def test_pings_at_half_of_watchdog_usec_and_only_when_due(listener):
    with notifier_for(listener, usec="2000000") as notifier:
        assert notifier.watchdog_interval == 1.0
        turns = (0.0, 0.5, 0.99, 1.0, 1.5, 2.0, 2.0, 3.25, 3.5, 4.0, 4.25)
        sent = [now for now in turns if notifier.ping_if_due(now)]
    # Due at 0, then 1 s after each ping (3.25 was a late turn: the next is due at 4.25).
    assert sent == [0.0, 1.0, 2.0, 3.25, 4.25]
    assert received(listener) == ["WATCHDOG=1"] * 5


def test_seconds_until_due_bounds_the_loop_wait(listener):
    with notifier_for(listener, usec="3000000") as notifier:
        assert notifier.seconds_until_due(10.0) == 0.0  # never pinged: ping now
        notifier.ping_if_due(10.0)
        assert notifier.seconds_until_due(10.5) == pytest.approx(1.0)
        assert notifier.seconds_until_due(12.0) == 0.0


def test_ready_status_stopping_datagrams(listener):
    with notifier_for(listener) as notifier:
        assert notifier.ready(status="fortune6: shoe ok, panel ok, lights ok; round 12")
        assert notifier.status("round 13: dealing")
        assert notifier.stopping()
    assert received(listener) == [
        "READY=1\nSTATUS=fortune6: shoe ok, panel ok, lights ok; round 12",
        "STATUS=round 13: dealing",
        "STOPPING=1",
    ]


def test_status_is_one_line_so_text_cannot_inject_assignments(listener):
    with notifier_for(listener) as notifier:
        notifier.status("shoe at /dev/x\nREADY=1\r\nWATCHDOG=trigger")
    assert received(listener) == ["STATUS=shoe at /dev/x READY=1 WATCHDOG=trigger"]


def test_without_notify_socket_everything_is_a_no_op():
    notifier = Notifier.from_environment({"WATCHDOG_USEC": "200000"})
    assert not notifier.enabled
    assert notifier.watchdog_interval is None
    assert notifier.seconds_until_due(0.0) is None
    assert [notifier.ready(), notifier.status("x"), notifier.ping_if_due(0.0), notifier.stopping()] == [False] * 4


def test_without_watchdog_usec_there_is_no_watchdog(listener):
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": listener.env_value})
    assert notifier.watchdog_interval is None
    assert notifier.ping_if_due(0.0) is False
    assert notifier.ready()
    assert received(listener) == ["READY=1"]
    notifier.close()


def test_watchdog_pid_selects_the_process_the_watchdog_is_for(listener):
    ours = notifier_for(listener, WATCHDOG_PID="4242")
    theirs = Notifier.from_environment(
        {"NOTIFY_SOCKET": listener.env_value, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "4242"}, pid=4242
    )
    assert ours.watchdog_interval is None  # WATCHDOG_PID names another process
    assert theirs.watchdog_interval == 0.1


def test_abstract_names_map_to_a_leading_nul():
    assert Notifier.from_environment({"NOTIFY_SOCKET": "@/org/freedesktop/systemd1/notify/42"}).address == (
        "\0/org/freedesktop/systemd1/notify/42"
    )


@pytest.mark.parametrize(
    "env, named",
    [
        ({"NOTIFY_SOCKET": "run/notify"}, "NOTIFY_SOCKET='run/notify'"),
        ({"NOTIFY_SOCKET": "@"}, "NOTIFY_SOCKET='@'"),
        ({"NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "5s"}, "WATCHDOG_USEC='5s'"),
        ({"NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "0"}, "WATCHDOG_USEC='0'"),
        ({"NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "100", "WATCHDOG_PID": "me"}, "WATCHDOG_PID='me'"),
    ],
)
def test_malformed_environment_is_named(env, named):
    with pytest.raises(NotifyConfigError, match=named.replace("(", r"\(")):
        Notifier.from_environment(env)


def test_unset_removes_the_variables_from_the_environment(listener):
    env = {"NOTIFY_SOCKET": listener.env_value, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": str(os.getpid()), "PATH": "/bin"}
    notifier = Notifier.from_environment(env, unset=True)
    assert env == {"PATH": "/bin"}
    assert notifier.watchdog_interval == 0.1


def test_a_send_failure_is_reported_not_raised(tmp_path):
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": str(tmp_path / "nobody-listens")})
    assert notifier.ready() is False
    assert isinstance(notifier.last_error, FileNotFoundError)
    notifier.close()

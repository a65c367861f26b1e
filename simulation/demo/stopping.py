"""Ctrl-C (and SIGTERM, and SIGHUP: its terminal closed, its SSH dropped) for the demo: the
first one stops the demo where it stands; while the demo stops every process it started (by
PID), further ones only say it is stopping.

    with stoppable():              # SIGINT/SIGTERM/SIGHUP raise Interrupted, once
        try:
            with deferred():       # starting processes: a signal waits until all are known
                rig.start()
            ...
        finally:
            with shielded():       # cleanup: a signal now only prints a line
                rig.stop()
"""
from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(BaseException):
    """The user stopped the demo (a BaseException, like KeyboardInterrupt: nothing swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


before_saying: list[Callable[[], None]] = []  # the live view puts its cursor below itself (session.Screen)


def say(text: str) -> None:
    """A line on stderr for the user: on a line of its own below the live view (not glued to its
    footer after a Ctrl-C), and nothing at all if the terminal is gone (SIGHUP)."""
    for leave in before_saying:
        leave()
    try:
        print(f"tablectl demo: {text}", file=sys.stderr, flush=True)
    except OSError:  # stopping matters, saying so cannot
        pass


def _say_stopping(signum, frame) -> None:
    say("stopping; every process it started is being stopped")


def _raise_once(signum, frame) -> None:
    for sig in SIGNALS:
        signal.signal(sig, _say_stopping)
    raise Interrupted(signum)


@contextmanager
def _handling(handler):
    previous = {sig: signal.signal(sig, handler) for sig in SIGNALS}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def stoppable():
    """Within: the first SIGINT/SIGTERM/SIGHUP raises Interrupted; later ones only say so."""
    return _handling(_raise_once)


def shielded():
    """Cleanup a signal must not cut short: SIGINT/SIGTERM/SIGHUP only say the demo is stopping."""
    return _handling(_say_stopping)


@contextmanager
def deferred():
    """While processes start (a child not yet recorded could not be stopped by PID), a signal
    is held back and raised as Interrupted once the block is done."""
    caught: list[int] = []
    with _handling(lambda signum, frame: caught.append(signum)):
        yield
    if caught:
        _raise_once(caught[0], None)

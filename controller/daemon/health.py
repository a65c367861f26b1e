"""Whether every part the daemon needs is alive: the watchdog is fed only while it is.

systemd restarts a Type=notify unit whose WATCHDOG=1 stops, so a ping must mean that the
daemon can do its job, not only that its loop turns (which the ping, sent from a reactor
timer, proves by itself). Each part registers a check that returns None while it is alive,
or why it is not:

    health.watch("control", server.problem)         # the listener, and the socket file is ours
    health.watch("shoe", shoe_driver.problem)        # e.g. a USB reader thread that died

A lost device is not a dead part: its driver reopens it, the table holds the round, and
STATUS= says so; a restart would not bring it back sooner. A journal that cannot be written
is the loop's own business (no ping while it waits: controller/daemon/loop.py).
"""
from __future__ import annotations

from collections.abc import Callable


class Health:
    def __init__(self) -> None:
        self._parts: dict[str, Callable[[], str | None]] = {}

    def watch(self, name: str, problem: Callable[[], str | None]) -> None:
        self._parts[name] = problem

    def problems(self) -> list[str]:
        """What is wrong now, one line a part (empty: all alive). A check that raises is a
        problem too: it says so instead of ending the loop."""
        found = []
        for name, check in self._parts.items():
            try:
                problem = check()
            except Exception as error:  # noqa: BLE001 - a broken check is reported, never fatal
                problem = f"its check failed: {type(error).__name__}: {error}"
            if problem is not None:
                found.append(f"{name}: {problem}")
        return found

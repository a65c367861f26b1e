"""What systemd hears: READY=1, the paced STATUS= line and WATCHDOG=1 while every part is alive
(controller/daemon/health.py). The dealing daemon and the one refusing a broken journal
(controller/daemon/broken_journal.py) both use it.

READY=1 goes out once `can_be_ready` says so (every device had a session), with the line.
From the loop's turn (`now` given) a changed line waits until STATUS_EVERY_S after the last
one sent (the loop wakes for it): a round changes it at every command, and each datagram
costs a wake-up of its reader; called without `now` it goes at once. The parts are checked
at least every HEALTH_EVERY_S, so that STATUS= and `tablectl status` say what died even
without a watchdog; no ping goes out while one is dead or `may_ping` says no.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import structlog

from controller.daemon.health import Health
from controller.logs import output_state
from controller.sdnotify import Notifier
from drivers.reactor import Reactor

log = structlog.get_logger("daemon")

STATUS_EVERY_S = 0.25  # STATUS= (read by people) from the loop's turns at most this often
HEALTH_EVERY_S = 1.0  # the parts' health is checked at least this often (and before every ping)
PING_AFTER_REFUSED_S = 0.05  # while no ping may go out, asked again this often at the soonest


class Supervisor:
    def __init__(self, notifier: Notifier, reactor: Reactor, health: Health, *,
                 line: Callable[[bool, str], str], notes: Callable[[], list[str]] = list,
                 can_be_ready: Callable[[], bool] = lambda: True, may_ping: Callable[[], bool] = lambda: True,
                 on_ready: Callable[[str], None] = lambda line: None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """line(ready, note): the STATUS= line; notes: what is to be said first (joined with
        the dead parts and a broken log output into the note)."""
        self.notifier, self.reactor, self.health, self.clock = notifier, reactor, health, clock
        self._line, self._notes, self._can_be_ready = line, notes, can_be_ready
        self._may_ping, self._on_ready = may_ping, on_ready
        self.ready = False
        self.problems: list[str] = []
        self._sent: str | None = None
        self._sent_at: float | None = None  # when the last STATUS= went out (loop clock)
        self._status_timer = reactor.timer(lambda now: self.refresh(self.clock()))
        self._ping_timer = reactor.timer(self.ping)

    def start(self) -> None:
        self.ping(self.reactor.now())
        self.refresh(self.clock())

    def stop(self) -> None:
        self._status_timer.cancel()
        self._ping_timer.cancel()

    def note(self) -> str:
        log_note = "log output broken" if output_state()["broken"] else ""
        return " · ".join(note for note in (*self._notes(), *self.problems, log_note) if note)

    def line(self) -> str:
        return self._line(self.ready, self.note())

    def refresh(self, now: float | None = None) -> None:
        """READY=1 when it becomes due; STATUS= when the line changed (paced from the loop)."""
        if now is not None and self.ready and self._sent_at is not None and now < self._sent_at + STATUS_EVERY_S:
            # within the pace nothing could go out: the timer looks at the line once it may, so
            # a burst of cards does not build a line per reactor turn
            if not self._status_timer.armed:
                self._status_timer.at(self.reactor.now() + self._sent_at + STATUS_EVERY_S - now)
            return
        became_ready = not self.ready and self._can_be_ready()
        line = self._line(self.ready or became_ready, self.note())
        self._status_timer.cancel()
        if became_ready:
            self.ready = True
            self.notifier.ready(status=line)
            self._on_ready(line)
        elif line == self._sent:
            return
        elif now is not None and self._sent_at is not None and now < self._sent_at + STATUS_EVERY_S:
            self._status_timer.at(self.reactor.now() + self._sent_at + STATUS_EVERY_S - now)
            return
        else:
            self.notifier.status(line)
        self._sent = line
        self._sent_at = self.clock() if now is None else now

    def ping(self, now: float) -> None:
        """WATCHDOG=1 when due, only while every part is alive and pinging is allowed."""
        healthy = self._check_health()
        allowed = healthy and self._may_ping()
        if allowed:
            self.notifier.ping_if_due(now)
        wait = self.notifier.seconds_until_due(now)
        wait = HEALTH_EVERY_S if wait is None else min(wait, HEALTH_EVERY_S)
        self._ping_timer.at(now + (wait if allowed else max(wait, PING_AFTER_REFUSED_S)))

    def _check_health(self) -> bool:
        problems = self.health.problems()
        if problems != self.problems:
            if problems:
                log.error("not_alive", problems=problems, watchdog="no WATCHDOG=1 until every part is alive")
            else:
                log.info("alive_again", was=self.problems)
            self.problems = problems
            self.refresh()
        return not problems

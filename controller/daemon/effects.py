"""The effects of handled inputs, carried out once their commit is done: one handler per
effect type (controller/table/effects.py), in the order the table gave them.

    Lamps       -> the lamp board (written there and then)
    StartTimer  -> the table's timers (TableTimers: one reactor timer at the earliest)
    CancelTimer
    Publish     -> the event stream (and the round's log line)
    Reply       -> whoever gave the command (the socket client, or the panel's `command` event)
    FollowUp    -> the loop's inbox: its input is handled after what is already waiting
    Journal     -> nothing more: the committer wrote it before any of these

A handler that fails is logged and journaled as an `error` record; the loop goes on.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import structlog

from controller.daemon.committer import Entry
from controller.daemon.lamps_out import LampOutput
from controller.daemon.timers import Timers
from controller.journal import RecordKind
from controller.table import CancelTimer, FollowUp, Lamps, Publish, Reply, StartTimer
from controller.table import Journal as JournalEffect
from drivers.reactor import Reactor

log = structlog.get_logger("daemon")

# Events worth a log line at info (journald keeps them); every other event is logged at debug.
LOGGED_EVENTS = {
    "round_opened": ("round",), "result": ("round", "winner"), "void": ("round", "kind", "clause", "reason"),
    "irregularity": ("round", "kind", "clause", "consequence", "detail"), "held": ("round",),
    "resumed": ("round", "how"), "settled": ("round",), "recovered": ("outcome", "state"),
}


def _debug_enabled(bound: Any) -> bool:
    """Whether the configured logger writes debug lines (asked once: the daemon configures
    logging before it builds the loop)."""
    is_enabled_for = getattr(bound, "is_enabled_for", None)
    return True if is_enabled_for is None else bool(is_enabled_for(logging.DEBUG))


class TableTimers:
    """The table's timers on one reactor timer armed at the earliest deadline; a deadline
    passed hands its name to `expired`."""

    def __init__(self, reactor: Reactor, clock: Callable[[], float], expired: Callable[[str], None]) -> None:
        self.reactor, self.clock, self._expired = reactor, clock, expired
        self.timers = Timers()
        self.reactor_timer = reactor.timer(lambda now: self.fire(self.clock()))

    def start(self, name: str, seconds: float) -> None:
        self.timers.start(name, seconds, self.clock())
        self.arm()

    def cancel(self, name: str) -> None:
        self.timers.cancel(name)
        self.arm()

    def fire(self, now: float) -> None:
        """Every timer due at `now`, earliest first."""
        for name in self.timers.pop_due(now):
            self._expired(name)
        self.arm()

    def arm(self) -> None:
        deadline = self.timers.next_deadline()
        self.reactor_timer.at(None if deadline is None else self.reactor.now() + max(0.0, deadline - self.clock()))


class Effects:
    def __init__(self, lamps: LampOutput | None, timers: TableTimers, publish: Callable[[dict[str, Any]], None],
                 record: Callable[[list[Entry]], None], follow_up: Callable[[FollowUp], None]) -> None:
        """record: journals an effect's failure (the committer's); follow_up: posts to the inbox."""
        self.lamps, self.timers, self.publish, self._record = lamps, timers, publish, record
        # The lines of every round through a logger bound once: the module's lazy proxy binds a
        # new one for every line. Logging is configured before the loop is built (daemon/app.py).
        self.round_log = log.bind()
        self._log_debug = _debug_enabled(self.round_log)
        self.handlers: dict[type, Callable[[Any, Callable[[Reply], None] | None], None]] = {
            Lamps: self._lamps, StartTimer: lambda e, reply: self.timers.start(e.name, e.seconds),
            CancelTimer: lambda e, reply: self.timers.cancel(e.name), Publish: self._publish,
            Reply: self._reply, JournalEffect: lambda e, reply: None, FollowUp: lambda e, reply: follow_up(e),
        }

    def carry_out(self, effects: list[Any], reply: Callable[[Reply], None] | None = None) -> None:
        for effect in effects:
            try:
                self.handlers[type(effect)](effect, reply)
            except Exception as error:  # a device or socket problem must not end the loop
                log.exception("effect_failed", effect=type(effect).__name__)
                self._record([(RecordKind.ERROR, {"detail": f"{type(effect).__name__} failed: {type(error).__name__}: {error}"},
                               None, False)])

    def _lamps(self, effect: Lamps, reply: Any) -> None:
        if self.lamps is None:
            raise RuntimeError("the loop has no lamp output")
        self.lamps.show(effect.states)

    def _publish(self, effect: Publish, reply: Any) -> None:
        self.publish(dict(effect.event))
        self.log_event(effect.event)

    @staticmethod
    def _reply(effect: Reply, reply: Callable[[Reply], None] | None) -> None:
        if reply is not None:
            reply(effect)

    def log_event(self, event: Any) -> None:
        name = event.get("event")
        keys = LOGGED_EVENTS.get(name)
        if keys is not None:
            self.round_log.info(name, **{k: event.get(k) for k in keys if k in event})
        elif self._log_debug:  # a card's event: building a debug line costs more than the card's record
            self.round_log.debug(name, **{k: v for k, v in event.items() if k != "event"})

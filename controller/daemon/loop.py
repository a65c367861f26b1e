"""The daemon's event loop, on the reactor's one thread: the Table, the journal, the lamps and
the timers, with the drivers and the control socket in the same thread (drivers/reactor.py).
It composes four parts, each built here with what it needs:

  Inbox       (inbox.py)      drivers and the control socket post (and the table's FollowUps,
                              such as a result's settlement after its lamps); taken at the end
                              of the reactor turn they arrived in, up to MAX_BATCH at a time;
  Committer   (committer.py)  every record of a batch in ONE SQLite transaction, fsynced when
                              any is durable, before anything of it is acted on; a locked
                              journal or a full disk keeps the batch for a retry timer;
  Effects     (effects.py)    the effects in order: lamps, timers, the event stream, replies;
  Supervisor  (supervisor.py) READY=, the paced STATUS=, WATCHDOG=1 while every part is alive.

For every input taken: translate and handle it in memory (handling.py), commit the batch's
records (the input's own record first, then its effects' Journal records), carry out the
effects, then acknowledge to the shoe the messages that commit holds (AckWhenDurable;
PROTOCOL.md §9): a crash before leaves them with the device, which sends them again
(controller/daemon/shoe_resends.py). docs/code-flow.md follows a card through it.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import structlog

from controller.control import Request
from controller.daemon.committer import Committer, DaemonFatal, Handled
from controller.daemon.effects import Effects, TableTimers
from controller.daemon.handling import Handling
from controller.daemon.health import Health
from controller.daemon.inbox import Inbox, Stop
from controller.daemon.journal_trust import JournalTrust
from controller.daemon.lamps_out import LampOutput
from controller.daemon.sessions import DeviceSessions
from controller.daemon.status_json import daemon_info
from controller.daemon.status_line import status_line
from controller.daemon.supervisor import Supervisor
from controller.daemon.timing import LoopTiming
from controller.journal import Journal
from controller.sdnotify import Notifier
from controller.table import FollowUp, Table
from drivers import events as ev
from drivers.reactor import Reactor

__all__ = ["DaemonFatal", "EventLoop", "Stop"]
log = structlog.get_logger("daemon")
# Inputs already waiting that share one commit (all or none, fsynced when any is durable,
# nothing acted on before it): a table's turn holds a round's cards at most; a backlog (the
# journal was locked) catches up with one fsync per batch.
MAX_BATCH = 256


class EventLoop:
    def __init__(self, table: Table, journal: Journal, lamps: LampOutput | None, notifier: Notifier, *,
                 inbox: Inbox | None = None, publish: Callable[[dict[str, Any]], None] = lambda event: None,
                 health: Health | None = None, control_info: Callable[[], dict[str, Any]] = dict,
                 subscribers: Callable[[], int] = lambda: 0, signing: dict[str, Any] | None = None,
                 journal_note: str = "", clock: Callable[[], float] = time.monotonic) -> None:
        self.table, self.journal, self.lamps, self.publish = table, journal, lamps, publish
        self.inbox = inbox if inbox is not None else Inbox(Reactor())
        self.reactor = self.inbox.reactor
        self.health = health if health is not None else Health()
        self.trust = JournalTrust(str(journal.path), signing if signing is not None else {}, journal_note,
                                  publish=publish, changed=lambda: self.supervisor.refresh())
        self.stop_requested: str | None = None
        self._stopped: str | None = None  # the reason, once a Stop was taken
        self._batch: list[Handled] | None = None  # inputs of the batch being taken, awaiting their commit
        self.timing = LoopTiming()
        self.sessions = DeviceSessions(table.game.key, table)
        self.supervisor = Supervisor(
            notifier, self.reactor, self.health, clock=clock, notes=lambda: [self.committer.note, self.trust.note],
            line=lambda ready, note: status_line(table, self.sessions, ready, note),
            can_be_ready=lambda: self.sessions.all_up_once, may_ping=lambda: not self.committer.locked,
            on_ready=self._on_ready)
        self.committer = Committer(journal, self.reactor, lamps, act=self._act, picture=lambda: table.snapshot()["lamps"],
                                   changed=self.supervisor.refresh, writable_again=self._writable_again,
                                   stopping=lambda: self.stop_requested is not None)
        self.table_timers = TableTimers(self.reactor, clock, lambda name: self.finish(self.handling.timer(name)))
        self.effects = Effects(lamps, self.table_timers, publish, self.committer.record, follow_up=self.post)
        self.status: Callable[[], dict[str, Any]] = lambda: daemon_info(
            supervisor=self.supervisor, committer=self.committer, inbox=self.inbox, sessions=self.sessions,
            timers=self.table_timers.timers, trust=self.trust, table=table, timing=self.timing,
            control_info=control_info, subscribers=subscribers)
        self.handling = Handling(table, self.sessions, self.effects, shoe_held=lambda: self.trust.shoe_held,
                                 status=self.status, lag=lambda at: self.timing.add("lag", self.reactor.now() - at))
        self.intake: dict[type, Callable[[Any], list[Handled]]] = {  # what the inbox holds -> handled
            Request: self.handling.request, ev.AckWhenDurable: lambda item: self.handling.device_event(item.event, item.release),
            ev.DeviceEvent: self.handling.device_event, FollowUp: lambda item: [self.handling.inputs(None, [item.input])]}
        self.inbox.deliver_to(self._take)

    # ------------------------------------------------------------ the loop
    def post(self, item: Any) -> None:
        self.inbox.post(item)

    def request_stop(self, reason: str) -> None:
        """For a signal handler or another thread: a journal write waiting on a lock gives up,
        then Stop is taken after what is already queued."""
        self.stop_requested = reason
        self.reactor.call_soon_threadsafe(lambda: self.post(Stop(reason)))

    def run(self) -> str:
        """Turn the reactor until Stop; returns its reason. Raises DaemonFatal when the journal fails."""
        self._stopped = None
        self.table_timers.arm()
        self.supervisor.start()
        try:
            self.reactor.run()
        finally:  # stopped or failed: no more input is taken, though the reactor may turn on (shutdown)
            self._stopped = self._stopped or "failed"
            self.supervisor.stop()
            self.table_timers.reactor_timer.cancel()
            self.committer.retry_timer.cancel()
        return self._stopped

    def _take(self) -> None:
        """Every input waiting (up to MAX_BATCH) handled in order, their records in one commit,
        then every effect in order. While the journal cannot be written the inbox waits, but a
        `status` is answered at once from the table in memory (it changes nothing)."""
        if self.committer.waiting:
            for request in self.inbox.take_where(lambda item: type(item) is Request and item.cmd == "status"):
                request.respond({**self.table.snapshot(), "daemon": self.status(), "message": "status"})
        if self._stopped is not None or self.committer.waiting:
            return
        batch, stop = self.inbox.take(MAX_BATCH)
        if batch:
            self._batch = []
            try:
                for item in batch:
                    self.dispatch(item)
            finally:
                handled, self._batch = self._batch, None
            self.committer.finish(handled)
        if stop is not None:
            if not self.committer.waiting:  # what the table asked back before the stop (a settlement) goes with it
                for item in self.inbox.take_where(lambda item: type(item) is FollowUp):
                    self.dispatch(item)
            if self.committer.waiting:  # the batch before it waits for the journal: Stop waits behind it
                self.inbox.put_back(stop)
                return
            self._stopped = stop.reason
            self.reactor.stop()
            return
        if len(self.inbox):
            self.inbox.wake()
        self.supervisor.refresh(self.supervisor.clock())

    def dispatch(self, item: Any) -> None:
        handle = next((self.intake[k] for k in type(item).__mro__ if k in self.intake), None)
        if handle is None:
            log.error("unknown_inbox_item", item=repr(item))
        else:
            for handled in handle(item):
                self.finish(handled)

    def finish(self, handled: Handled) -> None:
        """With the batch being taken, or committed now (outside a batch)."""
        if self._batch is not None:
            self._batch.append(handled)
        else:
            self.committer.finish([handled])

    def handle_inputs(self, record: tuple[str, dict[str, Any]] | None, inputs: list[Any], **how: Any) -> None:
        self.finish(self.handling.inputs(record, inputs, **how))

    def fire_timers(self, now: float) -> None:
        self.table_timers.fire(now)

    @property
    def timers(self) -> Any:
        return self.table_timers.timers

    @property
    def journal_waiting(self) -> bool:
        """Inputs are handled but wait for the journal (retried from a timer)."""
        return self.committer.waiting

    @property
    def status_note(self) -> str:
        return self.committer.note

    def refresh_status(self, now: float | None = None) -> None:
        self.supervisor.refresh(now)

    def daemon_info(self) -> dict[str, Any]:
        return self.status()

    def _act(self, handled: list[Handled]) -> None:
        for h in handled:
            started = time.perf_counter()
            if h.before is not None:
                self.publish(h.before)
                self._log_change(h.before)
            self.effects.carry_out(h.effects, h.reply)
            if h.timed:
                self.timing.add("handle", h.handle_s)
                self.timing.add("commit", h.commit_s)
                self.timing.add("effects", time.perf_counter() - started)
        for h in handled:  # the commit is fsynced: the devices hear "got it" (after the lamps: they wait on nothing)
            if h.release is not None:
                h.release()

    def _log_change(self, change: dict[str, Any]) -> None:
        """A device's change in the log: a link's or a tamper at info or warning; a bet sensor's
        reading (dozens a round, each in the journal and the event stream) at debug only."""
        warn = change["event"] == "tamper" or change.get("link") in ("lost", "absent") or "error" in change
        if not warn and "space" in change:
            self.effects.log_event(change)  # not one of LOGGED_EVENTS: a debug line, when debug is on
            return
        logger = self.effects.round_log  # bound once: the module's proxy binds anew for every line
        (logger.warning if warn else logger.info)(change["event"], **{k: v for k, v in change.items() if k != "event"})

    def _writable_again(self) -> None:
        self.supervisor.ping(self.reactor.now())
        self.supervisor.refresh()
        if len(self.inbox):
            self.inbox.wake()

    def _on_ready(self, line: str) -> None:
        log.info("ready", status=line)
        self.publish({"event": "ready", "status": line})

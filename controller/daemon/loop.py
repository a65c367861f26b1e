"""The daemon's event loop: one thread owns the Table, the journal, the lamps and the timers.

Driver reader threads and the control socket's thread only `post` into the inbox (a
queue.SimpleQueue, safe from signal handlers too). Each turn the loop pings the watchdog
when due, fires due timers, then waits on the inbox no longer than the next timer or the
next ping. For every input:

  1. translate it (driver event -> table inputs, panel button -> Command, socket request ->
     Command with source "socket", timer -> Timer),
  2. `table.handle` each input (in memory; an exception is logged and becomes an `error`
     record, a published `error` event and a refusal: the daemon goes on),
  3. write the input's own record (`device`, `command`, `timer_expired`) FIRST and the
     effects' Journal records after it, in ONE SQLite transaction (Journal.append_many),
     fsynced when any of them is durable: nothing leaves the process before that commit.
     Inputs already waiting in the inbox are taken together (up to MAX_BATCH): handled one
     after the other, their records in that one commit, in order,
  4. carry out the other effects in order: Lamps -> the lamp board, timers, Publish -> the
     event stream, Reply -> the socket client (a panel command's answer is published as a
     `command` event).

A journal that another connection holds locked blocks the loop (SQLite's busy timeout,
retried) and so stops the watchdog pings: that is what the watchdog is for. Any other
journal failure is fatal (DaemonFatal): nothing may be acted on that is not journaled.
"""
from __future__ import annotations

import contextlib
import dataclasses
import gc
import logging
import os
import queue
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import structlog

from controller.control import Request
from controller.daemon.lamps_out import LampOutput
from controller.daemon.links import Links, status_line
from controller.daemon.timers import Timers
from controller.daemon.timing import LoopTiming
from controller.daemon.translate import Translator
from controller.journal import Journal, JournalBusy, JournalError
from controller.table import CancelTimer, Lamps, Publish, Reply, StartTimer, Table, button_map
from controller.table import Journal as JournalEffect
from controller.table import inputs as i
from drivers import events as ev

log = structlog.get_logger("daemon")

# Events worth a log line at info (journald keeps them); every other event is logged at debug.
LOGGED_EVENTS = {
    "round_opened": ("round",), "result": ("round", "winner"), "void": ("round", "kind", "clause", "reason"),
    "irregularity": ("round", "kind", "clause", "consequence", "detail"), "held": ("round",),
    "resumed": ("round", "how"), "settled": ("round",), "recovered": ("outcome", "state"),
}


@dataclass(frozen=True)
class Stop:
    """Posted by the signal handler: stop taking input and shut down."""
    reason: str


MAX_BATCH = 32  # inputs already waiting that share one commit
# Records written between two WAL checkpoints (~30 rounds, a few hundred KiB of WAL); SQLite's
# own autocheckpoint (Journal: 10,000 pages) stays the safety net far beyond it.
CHECKPOINT_RECORDS = 400
STATUS_EVERY_S = 0.25  # STATUS= (read by people) from the loop's turns at most this often


@dataclass
class _Handled:
    """One input, handled in memory: its records and effects, not yet committed or carried out."""
    entries: list
    effects: list
    reply: Callable | None
    before: dict | None
    timed: bool
    handle_s: float
    opened_betting: bool


class DaemonFatal(Exception):
    """The journal cannot be written: the daemon must not act on anything more."""


def _debug_enabled() -> bool:
    """Whether the configured logger writes debug lines (asked once: the daemon configures
    logging before it builds the loop)."""
    bound = log.bind()
    is_enabled_for = getattr(bound, "is_enabled_for", None)
    return True if is_enabled_for is None else is_enabled_for(logging.DEBUG)


def input_json(inp) -> dict:
    fields = dataclasses.asdict(inp) if dataclasses.is_dataclass(inp) else {"value": repr(inp)}
    return {"input": type(inp).__name__, **{k: (dict(v) if k == "args" else v) for k, v in fields.items()}}


class EventLoop:
    def __init__(self, table: Table, journal: Journal, lamps: LampOutput, notifier, *,
                 publish: Callable[[dict], None] = lambda event: None, clock: Callable[[], float] = time.monotonic):
        self.table, self.journal, self.lamps, self.notifier = table, journal, lamps, notifier
        self.publish = publish
        self.clock = clock
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.timers = Timers()
        self.links = Links()
        self.translator = Translator(table.game.key, table)
        self.ready = False
        self.stop_requested: str | None = None
        self.last_draw_counter: int | None = None  # the shoe's counter on the last card handled
        self.status_note = ""  # shown first in STATUS= (e.g. the journal is locked)
        self.timing = LoopTiming()
        self._pending: list | None = None  # inputs of the batch being taken, awaiting their commit
        self.subscribers: Callable[[], int] = lambda: 0  # followers of the event stream (the app sets it)
        # Holds the socket thread's wake-up while a batch's effects are carried out (the app
        # sets ControlServer.gathered): one hand-off per batch instead of one per event.
        self.gathered: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext
        self._status_sent: str | None = None
        self._status_at: float | None = None  # when the last STATUS= went out (loop clock)
        self._status_due: float | None = None  # a changed line waits until then
        self._log_debug = _debug_enabled()
        self._checkpointed_seq: int | None = None  # head_seq at the last checkpoint (None: none yet)

    # ------------------------------------------------------------ from any thread
    def post(self, item) -> None:
        """A driver event, a control Request, or Stop. Never blocks."""
        self.inbox.put(item)

    def request_stop(self, reason: str) -> None:
        """For a signal handler: a journal write that waits on a lock gives up, then Stop is taken."""
        self.stop_requested = reason
        self.inbox.put(Stop(reason))

    # ------------------------------------------------------------ the loop
    def run(self) -> str:
        """Turn until Stop; returns its reason. Raises DaemonFatal when the journal fails."""
        while True:
            now = self.clock()
            self.notifier.ping_if_due(now)
            self.fire_timers(now)
            self.refresh_status(now)
            try:
                item = self.inbox.get(timeout=self._wait(self.clock()))
            except queue.Empty:
                continue
            stop = self.take_batch(item)
            if stop is not None:
                return stop.reason

    def take_batch(self, first) -> Stop | None:
        """Handle `first` and whatever else is already waiting (up to MAX_BATCH): every input
        in order, their records in one commit, then every effect in order. A burst of cards
        costs one commit (one fsync when a result is among them). Returns a Stop met."""
        batch, stop = [], None
        item = first
        while True:
            if isinstance(item, Stop):
                stop = item
                break
            batch.append(item)
            if len(batch) >= MAX_BATCH:
                break
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
        self._pending = []
        try:
            for item in batch:
                self.dispatch(item)
        finally:
            pending, self._pending = self._pending, None
        self._finish(pending)
        return stop

    def fire_timers(self, now: float) -> None:
        """Every timer due at `now` becomes a Timer input (its own `timer_expired` record first)."""
        for name in self.timers.pop_due(now):
            self.handle_inputs(("timer_expired", {"name": name}), [i.Timer(name)])

    def _wait(self, now: float) -> float | None:
        bounds = [deadline - now for deadline in (self.timers.next_deadline(),) if deadline is not None]
        if self._status_due is not None:
            bounds.append(self._status_due - now)
        ping = self.notifier.seconds_until_due(now)
        if ping is not None:
            bounds.append(ping)
        return max(0.0, min(bounds)) if bounds else None

    def dispatch(self, item) -> None:
        if isinstance(item, ev.DeviceEvent):
            self.device_event(item)
        elif isinstance(item, Request):
            self.request(item)
        else:
            log.error("unknown_inbox_item", item=repr(item))

    # ------------------------------------------------------------ inputs
    def device_event(self, event: ev.DeviceEvent) -> None:
        self.timing.add("lag", self.clock() - event.at)
        link_change = self.links.note(event)
        translation = self.translator.translate(event)
        if isinstance(event, ev.CardDrawn):
            self.last_draw_counter = event.draw_counter
        button = getattr(event, "button", None) if isinstance(event, ev.ButtonPressed) else None
        extra = []
        if translation.problem is not None:  # an unknown button: refused by name, the daemon goes on
            extra = [JournalEffect("error", {"detail": translation.problem, "device": event.device}),
                     Publish({"event": "command", "source": "panel", "button": button, "command": None,
                              "ok": False, "message": translation.problem})]
            log.warning("button_refused", button=button, reason=translation.problem)
        kind = "tamper" if isinstance(event, ev.FrameTampered) else "device"  # frames never delivered, on record
        self.handle_inputs((kind, translation.record), translation.inputs, extra=extra,
                           reply=self._panel_reply(button), before=link_change)

    def request(self, request) -> None:
        """A validated control-socket request (controller.control.Request)."""
        command = i.Command(request.cmd, dict(request.args), source="socket")
        record = None if request.cmd == "status" else (
            "command", {"name": request.cmd, "args": dict(request.args), "source": "socket", "client": request.client_id})

        def reply(answer: Reply) -> None:
            fields = dict(answer.fields)
            if request.cmd == "status":
                fields["daemon"] = self.daemon_info()
            else:
                self.publish({"event": "command", "source": "socket", "command": request.cmd,
                              "ok": answer.ok, "message": answer.message})
            body = {"ok": True, "message": answer.message} if answer.ok else {"ok": False, "error": answer.message}
            request.respond({**fields, **body})

        self.handle_inputs(record, [command], reply=reply)

    def handle_inputs(self, record: tuple[str, dict] | None, inputs: list, *, extra=(), reply=None,
                      before: dict | None = None) -> None:
        """Handle `inputs` (the table's); `record` and every Journal effect go into the
        journal, committed before any other effect is carried out (with the rest of the
        batch when the loop is taking one)."""
        was_betting = self.table.state == "betting"
        started = time.perf_counter()
        effects = list(extra)
        for inp in inputs:
            effects += self._handle(inp)
        entries = [(record[0], record[1], None, False)] if record is not None else []
        entries += [(e.kind, e.payload, None, e.durable) for e in effects if isinstance(e, JournalEffect)]
        handled = _Handled(entries, effects, reply, before, bool(inputs), time.perf_counter() - started,
                           opened_betting=self.table.state == "betting" and not was_betting)
        if self._pending is not None:
            self._pending.append(handled)
        else:
            self._finish([handled])

    def _finish(self, handled: list) -> None:
        started = time.perf_counter()
        self.commit([entry for h in handled for entry in h.entries])
        commit_each = (time.perf_counter() - started) / max(1, len(handled))
        with self.gathered():  # the batch's events and replies leave together, after its lamps
            for h in handled:
                started = time.perf_counter()
                if h.before is not None:
                    self.publish(h.before)
                    warn = h.before["event"] == "tamper" or h.before.get("link") in ("lost", "absent") or "error" in h.before
                    (log.warning if warn else log.info)(h.before["event"], **{k: v for k, v in h.before.items() if k != "event"})
                self.carry_out(h.effects, h.reply)
                if h.timed:
                    self.timing.add("handle", h.handle_s)
                    self.timing.add("commit", commit_each)
                    self.timing.add("effects", time.perf_counter() - started)
        if any(h.opened_betting for h in handled):
            self._checkpoint()  # a quiet moment: no card is due while bets are open

    def _handle(self, inp) -> list:
        try:
            return self.table.handle(inp)
        except Exception as error:  # a bug must not end the table: record it, refuse, go on
            log.exception("handle_failed", **input_json(inp))
            detail = f"{type(error).__name__} while handling {type(inp).__name__}: {error}"
            effects = [JournalEffect("error", {"detail": detail, **input_json(inp), "state": self.table.state}),
                       Publish({"event": "error", "detail": detail})]
            if isinstance(inp, i.Command):
                effects.append(Reply(False, f"internal error, the command was not carried out: {detail}"))
            return effects

    def commit(self, entries: list) -> None:
        if not entries:
            return
        waiting = False
        while True:
            try:
                self.journal.append_many(entries)
            except JournalBusy as error:
                if not waiting:
                    waiting = True
                    log.warning("journal_busy", error=str(error))
                    self.status_note = "journal locked by another process: waiting to write"
                    self.refresh_status()
                if self.stop_requested is not None:  # told to stop: this input is dropped, not acted on
                    raise DaemonFatal(f"stopping while the journal is locked: {error}") from None
                continue
            except JournalError as error:
                raise DaemonFatal(str(error)) from None
            break
        if waiting:
            log.info("journal_writable")
            self.status_note = ""

    def carry_out(self, effects: list, reply=None) -> None:
        for effect in effects:
            try:
                if isinstance(effect, Lamps):
                    self.lamps.show(effect.states)
                elif isinstance(effect, StartTimer):
                    self.timers.start(effect.name, effect.seconds, self.clock())
                elif isinstance(effect, CancelTimer):
                    self.timers.cancel(effect.name)
                elif isinstance(effect, Publish):
                    self.publish(dict(effect.event))
                    self._log_event(effect.event)
                elif isinstance(effect, Reply) and reply is not None:
                    reply(effect)
            except Exception as error:  # a device or socket problem must not end the loop
                log.exception("effect_failed", effect=type(effect).__name__)
                self.commit([("error", {"detail": f"{type(effect).__name__} failed: {type(error).__name__}: {error}"},
                              None, False)])

    def _panel_reply(self, button: int | None):
        if button is None:
            return None

        def reply(answer: Reply) -> None:
            command = self.table_button_command(button)
            self.publish({"event": "command", "source": "panel", "button": button, "command": command,
                          "ok": answer.ok, "message": answer.message})
            (log.info if answer.ok else log.warning)("panel_command", button=button, command=command,
                                                     ok=answer.ok, message=answer.message)
        return reply

    def table_button_command(self, button: int) -> str | None:
        found = button_map(self.table.game.key).get(button)
        return found.command if found else None

    def _checkpoint(self) -> None:
        """Copy the WAL into the database at a quiet moment, once enough has been written
        since the last copy: each checkpoint fsyncs the database file, so one per round
        would cost a round an fsync that guarantees nothing (the WAL is the journal)."""
        if self._checkpointed_seq is not None and self.journal.head_seq - self._checkpointed_seq < CHECKPOINT_RECORDS:
            return
        self._checkpointed_seq = self.journal.head_seq
        try:
            self.journal.checkpoint()
        except JournalError as error:
            log.warning("checkpoint_failed", error=str(error))

    def _log_event(self, event) -> None:
        name = event.get("event")
        keys = LOGGED_EVENTS.get(name)
        if keys is not None:
            log.info(name, **{k: event.get(k) for k in keys if k in event})
        elif self._log_debug:  # a card's event: building a debug line costs more than the card's record
            log.debug(name, **{k: v for k, v in event.items() if k != "event"})

    # ------------------------------------------------------------ readiness and status
    def refresh_status(self, now: float | None = None) -> None:
        """READY=1 once every device had a session; STATUS= when the line changed. From the
        loop's turn (`now` given) a changed line waits until STATUS_EVERY_S after the last one
        sent (the loop wakes for it): a round changes it at every command, and each datagram
        costs a wake-up of its reader. Called without `now` it goes at once."""
        became_ready = not self.ready and self.links.all_up_once
        line = status_line(self.table, self.links, self.ready or became_ready, self.status_note)
        self._status_due = None
        if became_ready:
            self.ready = True
            self.notifier.ready(status=line)
            log.info("ready", status=line)
            self.publish({"event": "ready", "status": line})
        elif line == self._status_sent:
            return
        elif now is not None and self._status_at is not None and now < self._status_at + STATUS_EVERY_S:
            self._status_due = self._status_at + STATUS_EVERY_S
            return
        else:
            self.notifier.status(line)
        self._status_sent = line
        self._status_at = self.clock() if now is None else now

    def daemon_info(self) -> dict:
        status = status_line(self.table, self.links, self.ready, self.status_note)
        return {"ready": self.ready, "pid": os.getpid(), "status": status,
                "devices": self.links.to_json(), "timers": self.timers.running(),
                "journal": {"path": str(self.journal.path), "records": self.journal.head_seq},
                "last_draw_counter": self.last_draw_counter, "subscribers": self.subscribers(),
                "loop_us": self.timing.to_json(),
                "python": {"switch_interval_s": sys.getswitchinterval(), "gc_frozen": gc.get_freeze_count()}}

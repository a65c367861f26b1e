"""The daemon's event loop, on the reactor's one thread: the Table, the journal, the lamps and
the timers, with the drivers and the control socket in the same thread (drivers/reactor.py).

Drivers and the control socket `post` inputs from their reactor callbacks into the inbox; the
inbox is taken at the end of the reactor turn they arrived in (so everything read in one turn
shares one commit), up to MAX_BATCH at a time. For every input:

  1. translate it (driver event -> table inputs, panel button -> Command, socket request ->
     Command with source "socket", timer -> Timer),
  2. `table.handle` each input (in memory; an exception is logged and becomes an `error`
     record, a published `error` event and a refusal: the daemon goes on),
  3. write the input's own record (`device`, `command`, `timer_expired`) FIRST and the
     effects' Journal records after it, in ONE SQLite transaction (Journal.append_batch),
     fsynced when any of them is durable: nothing leaves the process before that commit.
     The inputs taken together are handled one after the other, their records in that one
     commit, in order,
  4. carry out the other effects in order: Lamps -> the lamp board (written there and then),
     timers, Publish -> the event stream, Reply -> the socket client (a panel command's
     answer is published as a `command` event); the socket sends at the end of the turn.
  5. acknowledge to the shoe the messages that commit holds (AckWhenDurable:
     their `device` records are durable, so the commit was fsynced; PROTOCOL.md §9). A crash
     before this leaves the message with the device, which sends it again to the next daemon
     (a card already journaled is then a repeat: controller/daemon/shoe_resends.py).

The table's timers, the watchdog ping and the paced STATUS= line are reactor timers.

Nothing here blocks. A journal that another connection holds locked (SQLite answers "busy" at
once: busy_timeout 0) keeps the batch in memory, handled but neither committed nor acted on,
and retries from a timer every JOURNAL_RETRY_S; meanwhile new inputs wait in the inbox, the
drivers keep answering their devices (acks, heartbeats), STATUS= says so, and no watchdog
ping goes out (the daemon cannot act: systemd restarts it after WatchdogSec). Any other
journal failure is fatal (DaemonFatal): nothing may be acted on that is not journaled.
"""
from __future__ import annotations

import collections
import dataclasses
import gc
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import structlog

from controller.control import Request
from controller.daemon.health import Health
from controller.daemon.lamps_out import LampOutput
from controller.daemon.links import Links, status_line
from controller.daemon.timers import Timers
from controller.daemon.timing import LoopTiming
from controller.daemon.translate import Translator
from controller.journal import Journal, JournalBusy, JournalError, JournalFull, RecordKind
from controller.logs import output_state
from controller.table import CancelTimer, Lamps, Pattern, Publish, Reply, StartTimer, Table, button_map, lamp_ids
from controller.table import Journal as JournalEffect
from controller.table import inputs as i
from drivers import events as ev
from drivers.reactor import Reactor

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


# Inputs already waiting that share one commit. Every record of a batch is in its one
# transaction (all or none), fsynced when any is durable, and nothing of the batch is acted on
# before it: the size changes only how long the first input's effects wait for the others'
# handling (~50 us each). A table's turn holds a round's cards at most; a backlog (the journal
# was locked, an inbox filled by a benchmark) catches up with one fsync per batch, not per 32.
MAX_BATCH = 256
# Records written between two WAL checkpoints (~30 rounds, a few hundred KiB of WAL); SQLite's
# own autocheckpoint (Journal: 10,000 pages) stays the safety net far beyond it.
CHECKPOINT_RECORDS = 400
STATUS_EVERY_S = 0.25  # STATUS= (read by people) from the loop's turns at most this often
JOURNAL_RETRY_S = 0.05  # a locked journal is tried again this often
JOURNAL_FULL_RETRY_S = 1.0  # a full disk is tried again this often
# While the disk is full the table is held: "no more bets" slow blink (held), "error" fast blink.
HELD_LAMPS = {"no_more_bets": Pattern.SLOW.value, "error": Pattern.FAST.value}
HEALTH_EVERY_S = 1.0  # the parts' health is checked at least this often (and before every ping)


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
    commit_s: float = 0.0
    release: Callable[[], None] | None = None  # the device's ack, once the commit holding this is fsynced


class DaemonFatal(Exception):
    """The journal cannot be written: the daemon must not act on anything more."""


def _debug_enabled(bound) -> bool:
    """Whether the configured logger writes debug lines (asked once: the daemon configures
    logging before it builds the loop)."""
    is_enabled_for = getattr(bound, "is_enabled_for", None)
    return True if is_enabled_for is None else is_enabled_for(logging.DEBUG)


def input_json(inp) -> dict:
    fields: dict[str, Any] = (dataclasses.asdict(inp) if dataclasses.is_dataclass(inp) and not isinstance(inp, type)
                              else {"value": repr(inp)})
    return {"input": type(inp).__name__, **{k: (dict(v) if k == "args" else v) for k, v in fields.items()}}


class EventLoop:
    def __init__(self, table: Table, journal: Journal, lamps: LampOutput | None, notifier, *,
                 reactor: Reactor | None = None, publish: Callable[[dict], None] = lambda event: None,
                 clock: Callable[[], float] = time.monotonic):
        self.table, self.journal, self.lamps, self.notifier = table, journal, lamps, notifier
        self.reactor = reactor if reactor is not None else Reactor()
        self.publish = publish
        self.clock = clock  # the table timers' and STATUS= pacing's clock (tests move their own)
        self.inbox: collections.deque = collections.deque()
        self.timers = Timers()
        self.links = Links(lamps_used=frozenset(lamp_ids(table.game.key).values()))
        self.translator = Translator(table.game.key, table)
        self.ready = False
        self.stop_requested: str | None = None
        self.last_draw_counter: int | None = None  # the shoe's counter on the last card handled
        self.status_note = ""  # shown first in STATUS= (e.g. the journal is locked)
        self.journal_note = ""  # the journal's authenticity, when something is to be said (unsigned, broken)
        self.shoe_held: str | None = None  # why no new shoe may be declared: the journal failed its walk
        self.signing: dict[str, Any] = {}  # who signs the journal, and its walk's state (in `status`)
        self.timing = LoopTiming()
        self.subscribers: Callable[[], int] = lambda: 0  # followers of the event stream (the app sets it)
        self.control_info: Callable[[], dict] = dict  # the control socket's state for status (the app sets it)
        self.health = Health()  # the parts that must be alive for a watchdog ping (the app registers them)
        self.health_problems: list[str] = []
        self._pending: list | None = None  # inputs of the batch being taken, awaiting their commit
        self._blocked: list[_Handled] = []  # handled, not yet committed: the journal is locked or the disk full
        self.journal_full: str | None = None  # why the journal cannot be written now: the disk is full
        self._lamps_held = False  # HELD_LAMPS are on the board instead of the table's picture
        self._take_queued = False
        self._stopped: str | None = None  # the reason, once a Stop was taken
        self._status_sent: str | None = None
        self._status_at: float | None = None  # when the last STATUS= went out (loop clock)
        self._status_due: float | None = None  # a changed line waits until then
        # The lines of every round (events, panel commands) through a logger bound once: the
        # module's lazy proxy binds a new one for every line. Logging is configured before
        # the loop is built (daemon/app.py), as whether debug lines are written is asked only here.
        self._round_log = log.bind()
        self._log_debug = _debug_enabled(self._round_log)
        self._checkpointed_seq: int | None = None  # head_seq at the last checkpoint (None: none yet)
        self._table_timer = self.reactor.timer(self._on_table_timer)
        self._status_timer = self.reactor.timer(lambda now: self.refresh_status(self.clock()))
        self._ping_timer = self.reactor.timer(self._on_ping)
        self._retry_timer = self.reactor.timer(self._on_journal_retry)

    @property
    def journal_waiting(self) -> bool:
        """Inputs are handled but wait for a locked journal (retried from a timer)."""
        return bool(self._blocked)

    # ------------------------------------------------------------ posting
    def post(self, item) -> None:
        """A driver event, a control Request, or Stop. Never blocks. From the reactor's thread
        (a driver's or the socket's callback); from any other thread it goes through the
        reactor's wake-up pipe."""
        thread = self.reactor.thread
        if thread is not None and thread != threading.get_ident():
            self.reactor.call_soon_threadsafe(lambda: self.post(item))
            return
        self.inbox.append(item)
        self._queue_take()

    def request_stop(self, reason: str) -> None:
        """For a signal handler or another thread: a journal write waiting on a lock gives up,
        then Stop is taken after what is already queued."""
        self.stop_requested = reason
        self.reactor.call_soon_threadsafe(lambda: self.post(Stop(reason)))

    def _queue_take(self) -> None:
        if not self._take_queued:
            self._take_queued = True
            self.reactor.call_soon(self._take)

    # ------------------------------------------------------------ the loop
    def run(self) -> str:
        """Turn the reactor until Stop; returns its reason. Raises DaemonFatal when the journal fails."""
        self._stopped = None
        self._on_ping(self.reactor.now())
        self._arm_table_timer()
        self.refresh_status(self.clock())
        try:
            self.reactor.run()
        finally:  # stopped or failed: no more input is taken, though the reactor may turn on (shutdown)
            self._stopped = self._stopped or "failed"
            for timer in (self._table_timer, self._status_timer, self._ping_timer, self._retry_timer):
                timer.cancel()
        return self._stopped

    def _take(self) -> None:
        """Handle what waits in the inbox (up to MAX_BATCH): every input in order, their
        records in one commit, then every effect in order. A burst of cards costs one commit
        (one fsync when a result is among them)."""
        self._take_queued = False
        if self._blocked:  # the journal is locked or the disk full: the inbox waits, status is answered
            self._answer_status_now()
        if self._stopped is not None or self._blocked:
            return
        batch: list = []
        stop = None
        while self.inbox and len(batch) < MAX_BATCH:
            item = self.inbox.popleft()
            if isinstance(item, Stop):
                stop = item
                break
            batch.append(item)
        if batch:
            self._pending = []
            try:
                for item in batch:
                    self.dispatch(item)
            finally:
                pending, self._pending = self._pending, None
            self._finish(pending)
        if stop is not None:
            if self._blocked:  # the batch before it waits for the journal: Stop waits behind it
                self.inbox.appendleft(stop)
                return
            self._stopped = stop.reason
            self.reactor.stop()
            return
        if self.inbox:
            self._queue_take()
        self.refresh_status(self.clock())

    def _answer_status_now(self) -> None:
        """`tablectl status` while the journal cannot be written: answered at once from the
        table's state in memory (a status changes nothing and is never journaled) instead of
        waiting behind the inputs that wait for the journal; everything else keeps its place."""
        waiting = [item for item in self.inbox if isinstance(item, Request) and item.cmd == "status"]
        for request in waiting:
            self.inbox.remove(request)
            request.respond({**self.table.snapshot(), "daemon": self.daemon_info(), "message": "status"})

    def fire_timers(self, now: float) -> None:
        """Every timer due at `now` becomes a Timer input (its own `timer_expired` record first)."""
        for name in self.timers.pop_due(now):
            self.handle_inputs(("timer_expired", {"name": name}), [i.Timer(name)])

    def _on_table_timer(self, now: float) -> None:
        self.fire_timers(self.clock())
        self._arm_table_timer()

    def _arm_table_timer(self) -> None:
        deadline = self.timers.next_deadline()
        self._table_timer.at(None if deadline is None else self.reactor.now() + max(0.0, deadline - self.clock()))

    def _on_ping(self, now: float) -> None:
        """WATCHDOG=1 when due, only while the journal can be written and every part is alive
        (controller/daemon/health.py); the parts are checked at least every HEALTH_EVERY_S so
        that STATUS= and `tablectl status` say what died even without a watchdog."""
        healthy = self._check_health()
        # A journal another process keeps locked: no ping (the daemon cannot act; a restart frees
        # it). A full disk: the daemon holds the table as it must, and a restart would not free
        # space: it pings on.
        locked = bool(self._blocked) and self.journal_full is None
        if healthy and not locked:
            self.notifier.ping_if_due(now)
        wait = self.notifier.seconds_until_due(now)
        wait = HEALTH_EVERY_S if wait is None else min(wait, HEALTH_EVERY_S)
        self._ping_timer.at(now + (wait if healthy and not locked else max(wait, JOURNAL_RETRY_S)))

    def _check_health(self) -> bool:
        problems = self.health.problems()
        if problems != self.health_problems:
            if problems:
                log.error("not_alive", problems=problems, watchdog="no WATCHDOG=1 until every part is alive")
            else:
                log.info("alive_again", was=self.health_problems)
            self.health_problems = problems
            self.refresh_status()
        return not problems

    def dispatch(self, item) -> None:
        if isinstance(item, ev.DeviceEvent):
            self.device_event(item)
        elif isinstance(item, ev.AckWhenDurable):
            self.device_event(item.event, release=item.release)
        elif isinstance(item, Request):
            self.request(item)
        else:
            log.error("unknown_inbox_item", item=repr(item))

    # ------------------------------------------------------------ inputs
    def device_event(self, event: ev.DeviceEvent, release: Callable[[], None] | None = None) -> None:
        self.timing.add("lag", self.reactor.now() - event.at)
        link_change = self.links.note(event)
        translation = self.translator.translate(event)
        if isinstance(event, ev.CardDrawn):
            self.last_draw_counter = event.draw_counter
        button = getattr(event, "button", None) if isinstance(event, ev.ButtonPressed) else None
        if button is not None:  # who gave a command: the panel, by its button
            translation.record["by"] = {"source": "panel", "button": button}
        elif isinstance(event, ev.KeyTurned):
            translation.record["by"] = {"source": "panel", "key": "on" if event.on else "off"}
        extra = []
        if translation.problem is not None:  # an unknown button: refused by name, the daemon goes on
            extra = [JournalEffect(RecordKind.ERROR, {"detail": translation.problem, "device": event.device}),
                     Publish({"event": "command", "source": "panel", "button": button, "command": None,
                              "ok": False, "message": translation.problem})]
            log.warning("button_refused", button=button, reason=translation.problem)
        kind = RecordKind.TAMPER if isinstance(event, ev.FrameTampered) else RecordKind.DEVICE  # never delivered, on record
        self.handle_inputs((kind, translation.record), translation.inputs, extra=extra,
                           reply=self._panel_reply(button), before=link_change, release=release)

    def request(self, request) -> None:
        """A validated control-socket request (controller.control.Request)."""
        if request.cmd == "new_chain":  # the recovery of a journal that failed its start-up check
            request.fail("new_chain: the journal passed its start-up check: there is nothing to recover "
                         "(a new chain is started only on a journal that failed it)")
            return
        command = i.Command(request.cmd, dict(request.args), source="socket")
        by = request.peer.by()
        record = None if request.cmd == "status" else (
            RecordKind.COMMAND, {"name": request.cmd, "args": dict(request.args), "source": "socket",
                                 "client": request.client_id, "by": by})

        def reply(answer: Reply) -> None:
            fields = dict(answer.fields)
            if request.cmd == "status":
                fields["daemon"] = self.daemon_info()
            else:
                self.publish({"event": "command", "source": "socket", "command": request.cmd,
                              "ok": answer.ok, "message": answer.message, "by": by})
            body = {"ok": True, "message": answer.message} if answer.ok else {"ok": False, "error": answer.message}
            request.respond({**fields, **body})

        self.handle_inputs(record, [command], reply=reply)

    def handle_inputs(self, record: tuple[str, dict] | None, inputs: list, *, extra=(), reply=None,
                      before: dict | None = None, release: Callable[[], None] | None = None) -> None:
        """Handle `inputs` (the table's); `record` and every Journal effect go into the
        journal, committed before any other effect is carried out (with the rest of the
        batch when the loop is taking one). With `release` (the device's ack) the record is
        durable: its commit is fsynced, then `release` is called before any effect."""
        was_betting = self.table.state == "betting"
        started = time.perf_counter()
        effects = list(extra)
        for inp in inputs:
            effects += self._handle(inp)
        entries: list[tuple[str, Mapping[str, Any] | None, int | None, bool]] = (
            [(record[0], record[1], None, release is not None)] if record is not None else [])
        entries += [(e.kind, e.payload, None, e.durable) for e in effects if isinstance(e, JournalEffect)]
        handled = _Handled(entries, effects, reply, before, bool(inputs), time.perf_counter() - started,
                           opened_betting=self.table.state == "betting" and not was_betting, release=release)
        if self._pending is not None:
            self._pending.append(handled)
        else:
            self._finish([handled])

    def _finish(self, handled: list) -> None:
        """Commit the records of `handled`, then carry out their effects; a locked journal
        keeps them (in order, after any already waiting) for the retry timer."""
        if self._blocked:
            self._blocked.extend(handled)
        elif self._commit(handled):
            self._act(handled)

    def _act(self, handled: list) -> None:
        for h in handled:
            started = time.perf_counter()
            if h.before is not None:
                self.publish(h.before)
                warn = h.before["event"] == "tamper" or h.before.get("link") in ("lost", "absent") or "error" in h.before
                (log.warning if warn else log.info)(h.before["event"], **{k: v for k, v in h.before.items() if k != "event"})
            self.carry_out(h.effects, h.reply)
            if h.timed:
                self.timing.add("handle", h.handle_s)
                self.timing.add("commit", h.commit_s)
                self.timing.add("effects", time.perf_counter() - started)
        for h in handled:  # the commit is fsynced: the devices hear "got it" (after the lamps: they wait on nothing)
            if h.release is not None:
                h.release()
        if any(h.opened_betting for h in handled):
            self._checkpoint()  # a quiet moment: no card is due while bets are open

    def journal_walked(self, report) -> None:
        """The background walk of the whole journal answered (controller/daemon/journal_walk.py)."""
        self.signing["walk"] = report.to_json()
        if report.ok:
            log.info("journal_verified", records=report.records, signed_seq=report.signed_seq)
            return
        at = "" if report.broken_seq is None else f" at record {report.broken_seq}"
        self.shoe_held = (f"journal broken{at}: {report.reason} (last good record {report.head_seq}) · "
                          "no new shoe: the supervisor starts a new chain (docs/journal.md, Recovery)")
        self.journal_note = f"journal broken{at}: the next shoe is held"
        log.critical("journal_broken", journal=str(self.journal.path), first_broken_record=report.broken_seq,
                     problem=report.problem or "broken_chain", reason=report.reason, last_good_record=report.head_seq,
                     consequence="the round and shoe in play finish; no new shoe")
        self.publish({"event": "journal_broken", "first_broken_record": report.broken_seq, "reason": report.reason,
                      "last_good_record": report.head_seq, "problem": report.problem or "broken_chain"})
        self.refresh_status()

    def _handle(self, inp) -> list:
        if self.shoe_held is not None and isinstance(inp, i.Command) and inp.name == "new_shoe":
            detail = f"new_shoe refused: {self.shoe_held}"
            return [JournalEffect(RecordKind.ERROR, {"detail": detail, **input_json(inp), "state": self.table.state}),
                    Publish({"event": "error", "detail": detail}), Reply(False, detail)]
        try:
            return self.table.handle(inp)
        except Exception as error:  # a bug must not end the table: record it, refuse, go on
            log.exception("handle_failed", **input_json(inp))
            detail = f"{type(error).__name__} while handling {type(inp).__name__}: {error}"
            effects = [JournalEffect(RecordKind.ERROR, {"detail": detail, **input_json(inp), "state": self.table.state}),
                       Publish({"event": "error", "detail": detail})]
            if isinstance(inp, i.Command):
                effects.append(Reply(False, f"internal error, the command was not carried out: {detail}"))
            return effects

    def _commit(self, handled: list) -> bool:
        """One transaction for the records of `handled`; False when the journal is locked:
        they wait in _blocked (after any already there), retried from a timer."""
        if self._write(handled):
            return True
        first = not self._blocked
        self._blocked.extend(handled)
        if first:
            self._waiting_for_journal()
        return False

    def _waiting_for_journal(self) -> None:
        """Say why nothing is acted on (log, STATUS=, lamps) and retry from a timer."""
        if self.journal_full is not None:
            log.error("journal_full", error=self.journal_full, holding="nothing is dealt until space is freed",
                      waiting=len(self._blocked))
            self.status_note = "the disk is full: the table is held until space is freed"
            if self.lamps is not None:  # the picture on the board, with the round shown held
                self.lamps.show({**self.lamps.shown, **HELD_LAMPS})
                self._lamps_held = True
        else:
            log.warning("journal_busy", path=str(self.journal.path))
            self.status_note = "journal locked by another process: waiting to write"
        self.refresh_status()
        self._retry_timer.after(JOURNAL_RETRY_S if self.journal_full is None else JOURNAL_FULL_RETRY_S)

    def _write(self, handled: list) -> bool:
        entries = [entry for h in handled for entry in h.entries]
        started = time.perf_counter()
        try:
            if entries:
                self.journal.append_batch(entries)
        except (JournalBusy, JournalFull) as error:
            if self.stop_requested is not None:  # told to stop: these inputs are dropped, not acted on
                why = "the disk is full" if isinstance(error, JournalFull) else "the journal is locked"
                raise DaemonFatal(f"stopping while {why}, {len(handled)} inputs not journaled are dropped: "
                                  f"{error}") from None
            self.journal_full = str(error) if isinstance(error, JournalFull) else None
            return False
        except JournalError as error:
            raise DaemonFatal(str(error)) from None
        each = (time.perf_counter() - started) / max(1, len(handled))
        for h in handled:
            h.commit_s = each
        return True

    def _on_journal_retry(self, now: float) -> None:
        was_full = self.journal_full
        if not self._write(self._blocked):
            if (was_full is None) != (self.journal_full is None):  # locked became full, or full became locked
                self._waiting_for_journal()
            else:
                self._retry_timer.after(JOURNAL_RETRY_S if self.journal_full is None else JOURNAL_FULL_RETRY_S)
            return
        blocked, self._blocked = self._blocked, []
        log.info("journal_writable", was="the disk was full" if was_full else "locked by another process",
                 inputs=len(blocked))
        self.status_note = ""
        self.journal_full = None
        self._act(blocked)
        if self._lamps_held and self.lamps is not None:  # the table's own picture again, whole
            self._lamps_held = False
            self.lamps.show(self.table.snapshot()["lamps"])
        self._on_ping(now)
        self.refresh_status()
        if self.inbox:
            self._queue_take()

    def commit(self, entries: list) -> None:
        """Journal `entries` outside a batch (an effect that failed): with the next commit's
        turn when the journal is locked now."""
        if entries:
            self._finish([_Handled(list(entries), [], None, None, False, 0.0, False)])

    def carry_out(self, effects: list, reply=None) -> None:
        for effect in effects:
            try:
                if isinstance(effect, Lamps):
                    if self.lamps is None:
                        raise RuntimeError("the loop has no lamp output")
                    self.lamps.show(effect.states)
                elif isinstance(effect, StartTimer):
                    self.timers.start(effect.name, effect.seconds, self.clock())
                    self._arm_table_timer()
                elif isinstance(effect, CancelTimer):
                    self.timers.cancel(effect.name)
                    self._arm_table_timer()
                elif isinstance(effect, Publish):
                    self.publish(dict(effect.event))
                    self._log_event(effect.event)
                elif isinstance(effect, Reply) and reply is not None:
                    reply(effect)
            except Exception as error:  # a device or socket problem must not end the loop
                log.exception("effect_failed", effect=type(effect).__name__)
                self.commit([(RecordKind.ERROR, {"detail": f"{type(effect).__name__} failed: {type(error).__name__}: {error}"},
                              None, False)])

    def _panel_reply(self, button: int | None):
        if button is None:
            return None

        def reply(answer: Reply) -> None:
            command = self.table_button_command(button)
            self.publish({"event": "command", "source": "panel", "button": button, "command": command,
                          "ok": answer.ok, "message": answer.message, "by": {"source": "panel", "button": button}})
            (self._round_log.info if answer.ok else self._round_log.warning)("panel_command", button=button, command=command,
                                                     ok=answer.ok, message=answer.message)
        return reply

    def table_button_command(self, button: int) -> str | None:
        found = button_map(self.table.game.key).get(button)
        return found.command if found else None

    def _checkpoint(self) -> None:
        """Copy the WAL into the database at a quiet moment, once enough has been written
        since the last copy: each checkpoint fsyncs the database file, so one per round
        would cost a round an fsync that guarantees nothing (the WAL is the journal). Then
        anchor the head (controller/journal/anchor.py)."""
        if self._checkpointed_seq is not None and self.journal.head_seq - self._checkpointed_seq < CHECKPOINT_RECORDS:
            return
        self._checkpointed_seq = self.journal.head_seq
        try:
            self.journal.checkpoint()
            self.journal.anchor(mirror=True)  # the head, signed, outside the database and in it
        except JournalError as error:
            log.warning("checkpoint_failed", error=str(error))

    def _log_event(self, event) -> None:
        name = event.get("event")
        keys = LOGGED_EVENTS.get(name)
        if keys is not None:
            self._round_log.info(name, **{k: event.get(k) for k in keys if k in event})
        elif self._log_debug:  # a card's event: building a debug line costs more than the card's record
            self._round_log.debug(name, **{k: v for k, v in event.items() if k != "event"})

    # ------------------------------------------------------------ readiness and status
    def refresh_status(self, now: float | None = None) -> None:
        """READY=1 once every device had a session; STATUS= when the line changed. From the
        loop's turn (`now` given) a changed line waits until STATUS_EVERY_S after the last one
        sent (the loop wakes for it): a round changes it at every command, and each datagram
        costs a wake-up of its reader. Called without `now` it goes at once."""
        became_ready = not self.ready and self.links.all_up_once
        line = status_line(self.table, self.links, self.ready or became_ready, self._note())
        self._status_due = None
        self._status_timer.cancel()
        if became_ready:
            self.ready = True
            self.notifier.ready(status=line)
            log.info("ready", status=line)
            self.publish({"event": "ready", "status": line})
        elif line == self._status_sent:
            return
        elif now is not None and self._status_at is not None and now < self._status_at + STATUS_EVERY_S:
            self._status_due = self._status_at + STATUS_EVERY_S
            self._status_timer.at(self.reactor.now() + self._status_due - now)
            return
        else:
            self.notifier.status(line)
        self._status_sent = line
        self._status_at = self.clock() if now is None else now

    def _note(self) -> str:
        log_note = "log output broken" if output_state()["broken"] else ""
        return " · ".join(note for note in (self.status_note, self.journal_note, *self.health_problems, log_note) if note)

    def daemon_info(self) -> dict:
        status = status_line(self.table, self.links, self.ready, self._note())
        return {"ready": self.ready, "pid": os.getpid(), "status": status,
                "devices": self.links.to_json(), "timers": self.timers.running(),
                "journal": {"path": str(self.journal.path), "records": self.journal.head_seq,
                            "waiting": len(self._blocked), "queued": len(self.inbox), "full": self.journal_full,
                            "signing": self.signing, "shoe_held": self.shoe_held},
                "last_draw_counter": self.last_draw_counter, "subscribers": self.subscribers(),
                "control": self.control_info(), "log": output_state(), "alive": not self.health_problems, "problems": self.health_problems,
                "loop_us": self.timing.to_json(),
                "python": {"threads": threading.active_count(), "switch_interval_s": sys.getswitchinterval(),
                           "gc_frozen": gc.get_freeze_count()}}

"""The committer: the records of handled inputs into the journal, one transaction a batch,
before anything of them is acted on (controller/daemon/loop.py says the order).

Nothing blocks. A journal another connection holds locked (SQLite answers "busy" at once:
busy_timeout 0) keeps the handled inputs in memory, neither committed nor acted on, and
retries from a reactor timer every JOURNAL_RETRY_S; a full disk the same every
JOURNAL_FULL_RETRY_S, with the table shown held on the lamp board (HELD_LAMPS) until the
table's own picture comes back. Any other journal failure is fatal (DaemonFatal): nothing may
be acted on that is not journaled. Once bets open (a quiet moment) the WAL is checkpointed
and the head anchored, every CHECKPOINT_RECORDS records.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import structlog

from controller.daemon.lamps_out import LampOutput
from controller.journal import Journal, JournalBusy, JournalError, JournalFull
from controller.table import Pattern
from drivers.reactor import Reactor

log = structlog.get_logger("daemon")

# Records written between two WAL checkpoints (~30 rounds, a few hundred KiB of WAL); SQLite's
# own autocheckpoint (Journal: 10,000 pages) stays the safety net far beyond it.
CHECKPOINT_RECORDS = 400
JOURNAL_RETRY_S = 0.05  # a locked journal is tried again this often
JOURNAL_FULL_RETRY_S = 1.0  # a full disk is tried again this often
# While the disk is full the table is held: "no more bets" slow blink (held), "error" fast blink.
HELD_LAMPS = {"no_more_bets": Pattern.SLOW.value, "error": Pattern.FAST.value}

Entry = tuple[str, Mapping[str, Any] | None, int | None, bool]  # Journal.append_batch's (kind, payload, _, durable)


class DaemonFatal(Exception):
    """The journal cannot be written: the daemon must not act on anything more."""


@dataclass
class Handled:
    """One input, handled in memory: its records and effects, not yet committed or carried out."""
    entries: list[Entry]
    effects: list[Any] = field(default_factory=list)
    reply: Callable[[Any], None] | None = None
    before: dict[str, Any] | None = None  # the link change published before its effects
    timed: bool = False
    handle_s: float = 0.0
    opened_betting: bool = False
    commit_s: float = 0.0
    release: Callable[[], None] | None = None  # the device's ack, once the commit holding this is fsynced


class Committer:
    def __init__(self, journal: Journal, reactor: Reactor, lamps: LampOutput | None, *,
                 act: Callable[[list[Handled]], None], picture: Callable[[], dict[str, str]],
                 changed: Callable[[], None], writable_again: Callable[[], None],
                 stopping: Callable[[], bool]) -> None:
        """act: carry out what was committed; picture: the table's lamps; changed: the status
        changed; writable_again: the journal took what waited; stopping: a stop was asked for."""
        self.journal, self.reactor, self.lamps = journal, reactor, lamps
        self._act, self._picture, self._changed = act, picture, changed
        self._writable_again, self._stopping = writable_again, stopping
        self.blocked: list[Handled] = []  # handled, not yet committed: the journal is locked or the disk full
        self.full: str | None = None  # why the journal cannot be written now: the disk is full
        self.note = ""  # for STATUS= (the journal is locked, the disk full)
        self._lamps_held = False  # HELD_LAMPS are on the board instead of the table's picture
        self._checkpointed_seq: int | None = None  # head_seq at the last checkpoint (None: none yet)
        self.retry_timer = reactor.timer(self._on_retry)

    @property
    def waiting(self) -> bool:
        return bool(self.blocked)

    @property
    def locked(self) -> bool:
        """Another process holds the journal (not a full disk): the daemon cannot act."""
        return bool(self.blocked) and self.full is None

    def finish(self, handled: list[Handled]) -> None:
        """Commit the records of `handled`, then carry them out; a journal that cannot be
        written keeps them (in order, after any already waiting) for the retry timer."""
        if self.blocked:
            self.blocked.extend(handled)
        elif self._write(handled):
            self._act(handled)
            if any(h.opened_betting for h in handled):
                self.checkpoint()  # a quiet moment: no card is due while bets are open
        else:
            self.blocked.extend(handled)
            self._waiting()

    def record(self, entries: list[Entry]) -> None:
        """Journal `entries` outside a batch (an effect that failed): with the next commit's
        turn when the journal cannot be written now."""
        if entries:
            self.finish([Handled(list(entries))])

    def _waiting(self) -> None:
        """Say why nothing is acted on (log, STATUS=, lamps) and retry from a timer."""
        if self.full is not None:
            log.error("journal_full", error=self.full, holding="nothing is dealt until space is freed",
                      waiting=len(self.blocked))
            self.note = "the disk is full: the table is held until space is freed"
            if self.lamps is not None:  # the picture on the board, with the round shown held
                self.lamps.show({**self.lamps.shown, **HELD_LAMPS})
                self._lamps_held = True
        else:
            log.warning("journal_busy", path=str(self.journal.path))
            self.note = "journal locked by another process: waiting to write"
        self._changed()
        self.retry_timer.after(JOURNAL_RETRY_S if self.full is None else JOURNAL_FULL_RETRY_S)

    def _write(self, handled: list[Handled]) -> bool:
        entries = [entry for h in handled for entry in h.entries]
        started = time.perf_counter()
        try:
            if entries:
                self.journal.append_batch(entries)
        except (JournalBusy, JournalFull) as error:
            if self._stopping():  # told to stop: these inputs are dropped, not acted on
                why = "the disk is full" if isinstance(error, JournalFull) else "the journal is locked"
                raise DaemonFatal(f"stopping while {why}, {len(handled)} inputs not journaled are dropped: "
                                  f"{error}") from None
            self.full = str(error) if isinstance(error, JournalFull) else None
            return False
        except JournalError as error:
            raise DaemonFatal(str(error)) from None
        each = (time.perf_counter() - started) / max(1, len(handled))
        for h in handled:
            h.commit_s = each
        return True

    def _on_retry(self, now: float) -> None:
        was_full = self.full
        if not self._write(self.blocked):
            if (was_full is None) != (self.full is None):  # locked became full, or full became locked
                self._waiting()
            else:
                self.retry_timer.after(JOURNAL_RETRY_S if self.full is None else JOURNAL_FULL_RETRY_S)
            return
        blocked, self.blocked = self.blocked, []
        log.info("journal_writable", was="the disk was full" if was_full else "locked by another process",
                 inputs=len(blocked))
        self.note = ""
        self.full = None
        self._act(blocked)
        if any(h.opened_betting for h in blocked):
            self.checkpoint()
        if self._lamps_held and self.lamps is not None:  # the table's own picture again, whole
            self._lamps_held = False
            self.lamps.show(self._picture())
        self._writable_again()

    def checkpoint(self) -> None:
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

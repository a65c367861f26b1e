"""What the journal knows after a restart: one reading of its tail, for the daemon and the CLI.

`read_tail(journal)` reads, in one read transaction, only the records a restart needs: the
last record of each sticky setting (live spots, Fortune 7's player-dealer) and everything
from the start of the current shoe or the last round_opened, whichever is earlier. Both
readers take that tail:
- the daemon folds it into the table's own `TableRecovery` (controller/table) and restores
  the table from it; deciding whether to void or resume is the table's job (local ruling L4);
- `recover()` (`tablectl journal recovery`) folds it into `Recovery`: the last round number
  (rounds are numbered on from it), the round a crash interrupted (opened but neither void nor
  settled; it may already have a durable result) and the shoe's state (which cards have left
  it, burn done, cut card seen).
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from controller.journal.kinds import SHOE_STARTS, STICKY_KINDS, RecordKind, ShoeEvent
from controller.journal.readonly import reading
from controller.journal.records import COLUMNS, Record, record_from_row
from controller.journal.rounds import RoundView, card_seen, fold_rounds
from controller.journal.store import Journal

# the partial index of each sticky kind (store.py's schema): a query names it, with the literal kind
_STICKY_INDEX = {RecordKind.SPOTS: "spots_set", RecordKind.PLAYER_DEALER: "player_dealer_set"}


@dataclass(frozen=True)
class ShoeState:
    number: int | None  # None: no "shoe" {"event": "new"} record yet
    cards: tuple[str, ...] = ()  # every card read since the shoe began, burned and dealt, in shoe order
    cards_dealt: int = 0  # cards that left the shoe (misreads count; a reconstruction does not count twice)
    burn_done: bool = False
    cut_card_seen: bool = False
    rounds_after_cut: int = 0  # rounds opened after the cut card came out
    finished: bool = False
    last_draw_counter: int | None = None  # the shoe's counter on the last card journaled

    def to_json(self) -> dict:
        return {
            "number": self.number, "cards": list(self.cards), "cards_dealt": self.cards_dealt,
            "burn_done": self.burn_done, "cut_card_seen": self.cut_card_seen,
            "rounds_after_cut": self.rounds_after_cut, "finished": self.finished,
            "last_draw_counter": self.last_draw_counter,
        }


@dataclass(frozen=True)
class Recovery:
    last_seq: int  # 0 for an empty journal
    last_round: int  # the highest round_opened (0 if none): rounds are numbered on from it
    interrupted: RoundView | None  # status "open" (void it or resume) or "decided" (result stands)
    shoe: ShoeState

    @property
    def next_round(self) -> int:
        return self.last_round + 1

    @classmethod
    def from_tail(cls, tail: JournalTail) -> Recovery:
        last_round, interrupted = _interrupted(tail.records)
        return cls(tail.last_seq, last_round, interrupted, _shoe_state(tail.records))

    def to_json(self) -> dict:
        return {
            "last_seq": self.last_seq, "last_round": self.last_round, "next_round": self.next_round,
            "interrupted": None if self.interrupted is None else self.interrupted.to_json(),
            "shoe": self.shoe.to_json(),
        }


@dataclass(frozen=True)
class JournalTail:
    """The records a restart needs, oldest first, and the journal's last seq then."""

    last_seq: int  # 0 for an empty journal
    records: tuple[Record, ...]

    def pairs(self) -> Iterator[tuple[str, Mapping[str, Any]]]:
        """(kind, payload) of each record, as the table folds them."""
        return ((r.kind, r.payload) for r in self.records)


def read_tail(source: Journal | str | os.PathLike) -> JournalTail:
    """The tail (module docstring), from the writer itself (in its thread, before the first
    append) or from a path. Folding it gives what folding every record gives."""
    with reading(source) as conn, _snapshot(conn):
        last_seq = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM records").fetchone()[0]
        return JournalTail(last_seq, tuple(_tail(conn, last_seq)))


def restart_records(source: Journal | str | os.PathLike) -> list[Record]:
    """The tail's records (read_tail)."""
    return list(read_tail(source).records)


def recover(source: Journal | str | os.PathLike) -> Recovery:
    """What a restart finds (Recovery), from the writer itself or from a path."""
    return Recovery.from_tail(read_tail(source))


@contextmanager
def _snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """One read transaction: every query sees the journal as it was at the first one."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")


def _shoe_start(conn: sqlite3.Connection) -> int | None:
    """The seq of the last record that began a shoe (the shoe_events index)."""
    for row in conn.execute(f"SELECT {COLUMNS} FROM records WHERE kind = '{RecordKind.SHOE}' ORDER BY seq DESC"):
        if record_from_row(row).payload.get("event") in SHOE_STARTS:
            return row[0]
    return None


def _tail(conn: sqlite3.Connection, last_seq: int) -> list[Record]:
    shoe = _shoe_start(conn)
    row = conn.execute(f"SELECT seq FROM records WHERE kind = '{RecordKind.ROUND_OPENED}' "
                       "ORDER BY round DESC LIMIT 1").fetchone()
    starts = [seq for seq in (shoe, row[0] if row else None) if seq is not None]
    from_seq = min(starts) if starts else last_seq + 1
    sticky = []
    for kind in STICKY_KINDS:  # spelled out: a partial index needs the literal
        row = conn.execute(f"SELECT {COLUMNS} FROM records INDEXED BY {_STICKY_INDEX[kind]} WHERE kind = '{kind}' "
                           "AND seq < ? ORDER BY seq DESC LIMIT 1", (from_seq,)).fetchone()
        sticky += [record_from_row(row)] if row else []
    # the shift open or last closed (controller/table/shifts.py); journals made before shifts have
    # no index for it: there the search walks back over every record once, at start-up
    row = conn.execute(f"SELECT {COLUMNS} FROM records WHERE kind = '{RecordKind.SHIFT}' AND seq < ? "
                       "ORDER BY seq DESC LIMIT 1", (from_seq,)).fetchone()
    sticky += [record_from_row(row)] if row else []
    tail = [record_from_row(row) for row in conn.execute(
        f"SELECT {COLUMNS} FROM records WHERE seq >= ? AND seq <= ? ORDER BY seq", (from_seq, last_seq))]
    return sorted(sticky, key=lambda r: r.seq) + tail


def _interrupted(records: tuple[Record, ...]) -> tuple[int, RoundView | None]:
    """The last round opened, and its view when it is neither void nor settled."""
    opened = [(r.round, r) for r in records if r.kind == RecordKind.ROUND_OPENED and r.round is not None]
    if not opened:
        return 0, None
    number, last = max(opened, key=lambda pair: pair[0])
    view = fold_rounds(r for r in records if r.seq >= last.seq and r.round == number)[number]
    return number, None if view.finished else view


def _shoe_state(records: tuple[Record, ...]) -> ShoeState:
    starts = [i for i, r in enumerate(records) if r.kind == RecordKind.SHOE and r.payload.get("event") in SHOE_STARTS]
    if not starts:
        return ShoeState(number=None)
    number = records[starts[-1]].payload.get("shoe")
    cards: list[str] = []
    dealt, burn, cut, after_cut, finished, counter = 0, False, False, 0, False, None
    for record in records[starts[-1] + 1:]:
        payload = record.payload
        if record.kind == RecordKind.CARD:
            seen = card_seen(record.seq, payload)
            cards.extend([seen.card] if seen.card else [])
            dealt += 0 if seen.reconstructed else 1
            counter = seen.draw_counter if seen.draw_counter is not None else counter
        elif record.kind == RecordKind.ROUND_OPENED:
            after_cut += 1 if cut else 0
        elif record.kind != RecordKind.SHOE:
            continue
        elif payload.get("event") in (ShoeEvent.BURN, ShoeEvent.BURN_DONE):
            burned = list(payload.get("cards") or [])  # burn cards listed here or journaled as card records
            burn, dealt = True, dealt + len(burned)
            cards.extend(burned)
        elif payload.get("event") == ShoeEvent.CUT_CARD and not payload.get("ignored"):
            cut = True
        elif payload.get("event") == ShoeEvent.FINISHED:
            finished = True
    return ShoeState(number, tuple(cards), dealt, burn, cut, after_cut, finished, counter)

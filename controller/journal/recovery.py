"""What the journal knows after a restart: one reading of its tail, one fold of it.

`read_tail(journal)` reads, in one read transaction, only the records a restart needs: the
last record of each sticky setting (live spots, Fortune 7's player-dealer) and everything
from the start of the current shoe or the last round_opened, whichever is earlier.
`TailFold` walks those records once, oldest first; it is the one place that knows which record
kinds matter to a restart, and it keeps what every reader of the tail needs:
- the daemon's `TableRecovery.from_tail(tail)` (controller/table/recovery.py) takes the
  table's part (the shoe as its last `shoe_state` left it and the cards out of it, the round
  in progress with its steps and hold, the sticky settings, the integrity alarms) and restores
  the table from it; deciding whether to void or resume is the table's job (local ruling L4);
- `recover()` (`tablectl journal recovery`) takes `Recovery`: the last round number (rounds
  are numbered on from it), the round a crash interrupted (opened but neither void nor
  settled; it may already have a durable result) and the shoe's state as its records tell it
  (which cards have left it, burn done, cut card seen, the counter on the last card).
`tail.pairs()` gives the records as (kind, payload) for any other reader.
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from controller.journal.kinds import SHOE_STARTS, STICKY_KINDS, RecordKind, ShoeEvent
from controller.journal.readonly import reading
from controller.journal.records import COLUMNS, Record, record_from_row
from controller.journal.rounds import RoundView, card_seen
from controller.journal.store import Journal
from games.integrity import IRREGULARITY_KIND

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
        fold = tail.fold
        view = fold.view
        interrupted = None if view is None or view.finished else view
        return cls(tail.last_seq, fold.last_round, interrupted, fold.shoe_state())

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
        """(kind, payload) of each record, oldest first."""
        return ((r.kind, r.payload) for r in self.records)

    @cached_property
    def fold(self) -> TailFold:
        """The one fold of these records (TailFold), made once however many read it."""
        return TailFold.of_records(self.records)


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
    # the shift open or last closed (controller/table/shifts.py), through its index (shifts_set)
    row = conn.execute(f"SELECT {COLUMNS} FROM records WHERE kind = '{RecordKind.SHIFT}' AND seq < ? "
                       "ORDER BY seq DESC LIMIT 1", (from_seq,)).fetchone()
    sticky += [record_from_row(row)] if row else []
    tail = [record_from_row(row) for row in conn.execute(
        f"SELECT {COLUMNS} FROM records WHERE seq >= ? AND seq <= ? ORDER BY seq", (from_seq, last_seq))]
    return sorted(sticky, key=lambda r: r.seq) + tail


@dataclass
class TailFold:
    """Everything a restart needs, from the tail's records folded once, oldest first (`add`).
    Records of kinds that do not matter to a restart (the daemon's device and command
    records, ...) pass through untouched."""

    last_round: int = 0  # the highest round_opened
    spots: tuple[int, ...] | None = None  # the live spots last set
    player_dealer: tuple[int | None, int, int] | None = None  # (seat, hands_left, offer_from)
    brief: Mapping[str, Any] | None = None  # the last `shoe_state` a record carried (the table's word on its shoe)
    # the round opened last, neither void nor settled (None once it ended), as the table takes it up:
    # number, spots, bets_closed, steps (("card", code) and ("decision", spot, decision)), held,
    # result_recorded, hold (its irregularity record's `hold`, its `pending` extended by `held` cards)
    round: dict[str, Any] | None = None
    view: RoundView | None = None  # the round opened last as its records tell it (records folded only)
    # the shoe (or deck) in play, from its start record on
    shoe_started: bool = False  # a record began a shoe (or a round's deck)
    shoe_number: int | None = None
    codes_out: list[int] = field(default_factory=list)  # wire codes of every known card out of it
    cards: list[str] = field(default_factory=list)  # every card read, burned and dealt, in shoe order
    cards_dealt: int = 0
    burn_done: bool = False
    cut_card_seen: bool = False
    rounds_after_cut: int = 0
    finished: bool = False
    last_draw_counter: int | None = None  # the counter on the last card journaled
    checks_fired: list[str] = field(default_factory=list)  # integrity checks whose alarm is journaled
    shoe_alarms: list[Mapping[str, Any]] = field(default_factory=list)  # their records not answered since (L7)
    shift: Mapping[str, Any] | None = None  # the last `shift` record (controller/table/shifts.py)

    @classmethod
    def of_records(cls, records: Iterable[Record]) -> TailFold:
        fold = cls()
        for record in records:
            fold.add(record.kind, record.payload, record)
        return fold

    @classmethod
    def of_pairs(cls, pairs: Iterable[tuple[str, Mapping[str, Any]]]) -> TailFold:
        """From (kind, payload) alone (the table's Journal effects, in tests): no RoundView."""
        fold = cls()
        for kind, payload in pairs:
            fold.add(kind, payload)
        return fold

    def add(self, kind: str, p: Mapping[str, Any], record: Record | None = None) -> None:
        if isinstance(p.get("shoe_state"), Mapping):
            self.brief = p["shoe_state"]
        if kind == RecordKind.SHOE:
            self._shoe(p)
        elif kind == RecordKind.ROUND_OPENED:
            number = int(p["round"])
            self.last_round = max(self.last_round, number)
            self.rounds_after_cut += 1 if self.cut_card_seen else 0
            self.round = {"number": number, "spots": tuple(p.get("spots") or ()), "bets_closed": False,
                          "steps": [], "held": False, "result_recorded": False, "hold": None}
            self.view = RoundView(number) if record is not None else None
        elif kind == RecordKind.SPOTS:
            self.spots = tuple(p["spots"])
        elif kind == RecordKind.CARD:
            self._card(p, record)
        elif kind == RecordKind.PLAYER_DEALER:
            self.player_dealer = (p.get("seat"), int(p.get("hands_left", 0)), int(p.get("offer_from", 1)))
        elif kind == RecordKind.SHIFT:
            self.shift = p
        elif kind == RecordKind.IRREGULARITY and p.get("kind") == IRREGULARITY_KIND:
            self.checks_fired.append(str(p.get("check")))
            self.shoe_alarms.append(p)
        if self.view is not None and record is not None and record.round == self.view.round:
            self.view.apply(record)
        current = self.round
        alarm = kind == RecordKind.IRREGULARITY and p.get("kind") == IRREGULARITY_KIND  # the shoe's, not the round's
        if current is not None and p.get("round") == current["number"] and not alarm:
            self._round(kind, p, current)

    def _shoe(self, p: Mapping[str, Any]) -> None:
        event = p.get("event")
        if event in SHOE_STARTS:
            self.shoe_started, self.shoe_number = True, p.get("shoe")
            self.codes_out, self.cards, self.cards_dealt = [], [], 0
            self.burn_done = self.cut_card_seen = self.finished = False
            self.rounds_after_cut, self.last_draw_counter = 0, None
            self.checks_fired, self.shoe_alarms = [], []
        elif event == ShoeEvent.ACCEPTED:
            self.shoe_alarms = []
        elif event in (ShoeEvent.BURN, ShoeEvent.BURN_DONE):
            burned = list(p.get("cards") or [])  # burn cards listed here or journaled as card records
            self.burn_done, self.cards_dealt = True, self.cards_dealt + len(burned)
            self.cards.extend(burned)
        elif event == ShoeEvent.CUT_CARD and not p.get("ignored"):
            self.cut_card_seen = True
        elif event == ShoeEvent.FINISHED:
            self.finished = True

    def _card(self, p: Mapping[str, Any], record: Record | None) -> None:
        if (not p.get("reconstructed") or p.get("keyed_in")) and p.get("card") is not None:
            self.codes_out.append(int(p["code"]))
        seen = card_seen(0 if record is None else record.seq, p)
        self.cards.extend([seen.card] if seen.card else [])
        self.cards_dealt += 0 if seen.reconstructed else 1
        self.last_draw_counter = seen.draw_counter if seen.draw_counter is not None else self.last_draw_counter
        current = self.round
        if current is not None and p.get("round") == current["number"]:
            if p.get("status") == "dealt":
                current["steps"].append(("card", int(p["code"])))
            elif p.get("status") == "held" and current["hold"] is not None:
                current["hold"]["pending"].append(dict(p))

    def _round(self, kind: str, p: Mapping[str, Any], current: dict[str, Any]) -> None:
        """A record of the round in progress (its card records: `_card`)."""
        if kind == RecordKind.SPOTS:
            current["spots"] = tuple(p["spots"])
        elif kind == RecordKind.BETS_CLOSED:
            current["bets_closed"] = True
        elif kind == RecordKind.DECISION:
            current["steps"].append(("decision", int(p["spot"]), str(p["decision"])))
        elif kind == RecordKind.IRREGULARITY and p.get("consequence") == "hold":
            current["held"] = True
            hold = p.get("hold")
            current["hold"] = {**hold, "pending": list(hold.get("pending") or ())} if isinstance(hold, Mapping) else None
        elif kind == RecordKind.ROUND_RESUMED:
            current["held"], current["hold"] = False, None
        elif kind == RecordKind.RESULT:
            current["result_recorded"] = True
        elif kind in (RecordKind.VOID, RecordKind.SETTLED):
            self.round = None

    def shoe_state(self) -> ShoeState:
        """The shoe as its records tell it (`tablectl journal recovery`)."""
        if not self.shoe_started:
            return ShoeState(number=None)
        return ShoeState(self.shoe_number, tuple(self.cards), self.cards_dealt, self.burn_done, self.cut_card_seen,
                         self.rounds_after_cut, self.finished, self.last_draw_counter)

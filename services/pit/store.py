"""The pit's own SQLite database of every table's records, and the chain check per table.

Records are stored once per (table, seq), whatever QoS 1 delivers twice; each is checked as
it arrives, with the journal's own rules (controller.journal.verify): its hash recomputed
from its fields, and its prev_hash against the hash of the record before it. Alarms name
the table and the record:

    gap        records N-M missing once a later one arrived (cleared when they arrive)
    bad_hash   the record's hash does not match its contents (edited at the source)
    bad_chain  its prev_hash is not the hash of the record before (one before it replaced)
    differs    a record arrived for a seq already stored, with other contents

A record whose predecessor has not arrived is stored as `pending` and checked when the gap
fills. Writes are batched: `commit()` ends a batch (the caller acknowledges the MQTT
messages only after it, so the broker redelivers whatever a crash lost).
"""
from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from controller.journal import GENESIS, Record
from controller.journal.verify import EDITED, link_problem

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, at TEXT NOT NULL, mono_ns INTEGER NOT NULL,
    kind TEXT NOT NULL, round INTEGER, payload TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
    received_at TEXT NOT NULL, checked TEXT NOT NULL,   -- ok | pending | bad_hash | bad_chain
    PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_round_opened ON records (table_id, round) WHERE kind = 'round_opened';
CREATE TABLE IF NOT EXISTS alarms (
    id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
    kind TEXT NOT NULL, detail TEXT NOT NULL, evidence TEXT, raised_at TEXT NOT NULL, cleared_at TEXT);
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY, status TEXT, status_at TEXT);
"""
COLUMNS = "seq, at, mono_ns, kind, round, payload, prev_hash, hash"


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class Alarm:
    id: int
    table: str
    seq: int
    last_seq: int
    kind: str
    detail: str
    raised_at: str
    cleared_at: str | None = None

    def to_json(self) -> dict:
        return {"id": self.id, "table": self.table, "seq": self.seq, "last_seq": self.last_seq, "kind": self.kind,
                "detail": self.detail, "raised_at": self.raised_at, "cleared_at": self.cleared_at}


@dataclass
class Chain:
    """A table's chain as far as it is contiguous: every record 1..through is stored."""
    through: int = 0
    through_hash: str = GENESIS
    highest: int = 0
    pending: dict[int, Record] = field(default_factory=dict)  # stored, its predecessor not yet here
    gaps: dict[int, tuple[int, int]] = field(default_factory=dict)  # open gap alarm id -> (first, last)


@dataclass
class Outcome:
    """What one arriving record did: the records that joined the contiguous chain (in order),
    and the alarms raised or cleared."""
    stored: bool = False
    in_order: list[Record] = field(default_factory=list)
    raised: list[Alarm] = field(default_factory=list)
    cleared: list[Alarm] = field(default_factory=list)


class PitStore:
    def __init__(self, path: str | os.PathLike) -> None:
        self.path = str(path)
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(SCHEMA)
        self.chains: dict[str, Chain] = {}
        self._in_batch = False
        self._rows: dict[tuple[str, int], list] = {}  # this batch's new rows, written at commit (executemany:
        # one statement a batch, so the network thread does not take the GIL from us at every row)
        self.duplicates = 0
        self._load_chains()

    # ------------------------------------------------------------------ startup
    def _load_chains(self) -> None:
        for (table,) in self.conn.execute("SELECT DISTINCT table_id FROM records").fetchall():
            chain = self.chains[table] = Chain()
            rows = self.conn.execute(f"SELECT {COLUMNS}, checked FROM records WHERE table_id = ? ORDER BY seq", (table,))
            for row in rows:
                record = Record(*row[:8])
                chain.highest = record.seq
                if record.seq == chain.through + 1:
                    chain.through, chain.through_hash = record.seq, record.hash
                else:
                    chain.pending[record.seq] = record
        for alarm_id, table, first, last in self.conn.execute(
                "SELECT id, table_id, seq, last_seq FROM alarms WHERE kind = 'gap' AND cleared_at IS NULL"):
            self.chains.setdefault(table, Chain()).gaps[alarm_id] = (first, last)

    # ------------------------------------------------------------------ arriving records
    def add(self, table: str, record: Record, hash_ok: bool | None = None) -> Outcome:
        """Store and check a record (its payload_text canonical JSON, as record_from_message
        makes it). hash_ok: whether its hash matches its contents, if the caller knows."""
        self._begin()
        chain = self.chains.setdefault(table, Chain())
        outcome = Outcome()
        if record.seq <= chain.through or record.seq in chain.pending:
            self._again(table, record, outcome)
            return outcome
        if hash_ok is None:
            hash_ok = record.hash == record.expected_hash()
        self_problem = None if hash_ok else EDITED
        if record.seq > chain.highest + 1:
            first, last = chain.highest + 1, record.seq - 1
            alarm = self._raise(table, first, last, "gap", f"{_span(first, last)} missing (a later record, {record.seq}, arrived)")
            chain.gaps[alarm.id] = (first, last)
            outcome.raised.append(alarm)
        chain.highest = max(chain.highest, record.seq)
        outcome.stored = True
        if record.seq != chain.through + 1:
            self._insert(table, record, "bad_hash" if self_problem else "pending")
            if self_problem:
                outcome.raised.append(self._raise(table, record.seq, record.seq, "bad_hash", f"record {record.seq}: {self_problem}"))
            chain.pending[record.seq] = record
            return outcome
        self._insert(table, record, self._check(table, chain, record, outcome, hash_ok))
        self._cascade(table, chain, outcome)
        return outcome

    def _check(self, table: str, chain: Chain, record: Record, outcome: Outcome, hash_ok: bool) -> str:
        """Check `record` (seq = through + 1, its own hash found `hash_ok`) against the chain;
        it becomes the chain's head."""
        problem = link_problem(record, chain.through, chain.through_hash, contents_ok=hash_ok)
        chain.through, chain.through_hash = record.seq, record.hash
        outcome.in_order.append(record)
        if problem is None:
            return "ok"
        kind = "bad_chain" if "prev_hash" in problem else "bad_hash"
        outcome.raised.append(self._raise(table, record.seq, record.seq, kind, f"record {record.seq}: {problem}"))
        return kind

    def _cascade(self, table: str, chain: Chain, outcome: Outcome) -> None:
        """Records stored earlier that now follow on: check them in order."""
        if not chain.pending and not chain.gaps:
            return  # records arriving in order: nothing waits
        while chain.through + 1 in chain.pending:
            record = chain.pending.pop(chain.through + 1)
            checked = "bad_hash" if record.hash != record.expected_hash() else None
            state = self._check(table, chain, record, outcome, True) if checked is None else self._anchor(chain, record, outcome)
            self._set_checked(table, record.seq, state)
        for alarm_id, (_, last) in list(chain.gaps.items()):
            if last <= chain.through:
                del chain.gaps[alarm_id]
                outcome.cleared.append(self._clear(alarm_id))

    def _anchor(self, chain: Chain, record: Record, outcome: Outcome) -> str:
        """A record already alarmed as bad_hash joins the chain as it is."""
        chain.through, chain.through_hash = record.seq, record.hash
        outcome.in_order.append(record)
        return "bad_hash"

    def _set_checked(self, table: str, seq: int, state: str) -> None:
        row = self._rows.get((table, seq))
        if row is not None:
            row[-1] = state
        else:
            self.conn.execute("UPDATE records SET checked = ? WHERE table_id = ? AND seq = ?", (state, table, seq))

    def _again(self, table: str, record: Record, outcome: Outcome) -> None:
        """A seq already stored: a redelivery (dropped) or a different record (alarm)."""
        batched = self._rows.get((table, record.seq))
        row = tuple(batched[1:9]) if batched is not None else self.conn.execute(
            f"SELECT {COLUMNS} FROM records WHERE table_id = ? AND seq = ?", (table, record.seq)).fetchone()
        if row is not None and Record(*row) == record:
            self.duplicates += 1
            return
        stored = Record(*row) if row else None
        evidence = {"arrived": record_json(record), "stored": record_json(stored) if stored else None}
        detail = (f"record {record.seq} arrived again with other contents (hash {record.hash[:12]}..., "
                  f"stored {stored.hash[:12] if stored else '?'}...): the journal at the table was changed")
        outcome.raised.append(self._raise(table, record.seq, record.seq, "differs", detail, evidence))

    # ------------------------------------------------------------------ writing
    def _begin(self) -> None:
        if not self._in_batch:
            self.conn.execute("BEGIN")
            self._in_batch = True

    def commit(self) -> None:
        """Write the batch's records, received_at = now (one time for the batch), and commit."""
        if self._in_batch:
            now = utc_now()
            for row in self._rows.values():
                row[9] = now
            self.conn.executemany("INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?)", self._rows.values())
            self._rows.clear()
            self.conn.execute("COMMIT")
            self._in_batch = False

    def _insert(self, table: str, record: Record, checked: str) -> None:
        self._rows[(table, record.seq)] = [table, record.seq, record.at, record.mono_ns, record.kind, record.round,
                                           record.payload_text, record.prev_hash, record.hash, None, checked]

    def _raise(self, table: str, seq: int, last: int, kind: str, detail: str, evidence: Any = None) -> Alarm:
        now = utc_now()
        cursor = self.conn.execute(
            "INSERT INTO alarms (table_id, seq, last_seq, kind, detail, evidence, raised_at) VALUES (?,?,?,?,?,?,?)",
            (table, seq, last, kind, detail, None if evidence is None else json.dumps(evidence, ensure_ascii=False), now))
        return Alarm(int(cursor.lastrowid or 0), table, seq, last, kind, detail, now)

    def _clear(self, alarm_id: int) -> Alarm:
        now = utc_now()
        self.conn.execute("UPDATE alarms SET cleared_at = ? WHERE id = ?", (now, alarm_id))
        row = self.conn.execute("SELECT id, table_id, seq, last_seq, kind, detail, raised_at, cleared_at FROM alarms WHERE id = ?",
                                (alarm_id,)).fetchone()
        return Alarm(*row)

    def set_status(self, table: str, status: Mapping[str, Any]) -> None:
        self._begin()
        self.conn.execute("INSERT INTO tables VALUES (?, ?, ?) ON CONFLICT(table_id) DO UPDATE SET status = excluded.status, "
                          "status_at = excluded.status_at", (table, json.dumps(status, ensure_ascii=False), utc_now()))

    # ------------------------------------------------------------------ reading
    def missing(self, table: str) -> tuple[int, int] | None:
        """The first run of records not yet here, below the highest seen: (first, last)."""
        chain = self.chains.get(table)
        if chain is None or chain.through >= chain.highest:
            return None
        first = chain.through + 1
        later = [seq for seq in chain.pending if seq > first]
        return first, (min(later) - 1 if later else chain.highest)

    def records(self, table: str, since: int = 0) -> Iterator[Record]:
        self.commit()
        for row in self.conn.execute(f"SELECT {COLUMNS} FROM records WHERE table_id = ? AND seq > ? ORDER BY seq", (table, since)):
            yield Record(*row)

    def alarms(self, table: str | None = None, open_only: bool = False) -> list[Alarm]:
        query = "SELECT id, table_id, seq, last_seq, kind, detail, raised_at, cleared_at FROM alarms WHERE 1"
        args: list[Any] = []
        if table is not None:
            query += " AND table_id = ?"
            args.append(table)
        if open_only:
            query += " AND cleared_at IS NULL"
        return [Alarm(*row) for row in self.conn.execute(query + " ORDER BY id", args)]

    def tables(self) -> list[str]:
        found = {row[0] for row in self.conn.execute("SELECT table_id FROM tables")}
        return sorted(found | set(self.chains))

    def statuses(self) -> dict[str, dict]:
        return {table: json.loads(text) for table, text in self.conn.execute("SELECT table_id, status FROM tables") if text}

    def close(self) -> None:
        self.commit()
        self.conn.close()


def record_json(record: Record) -> dict:
    return record.to_json()


def _span(first: int, last: int) -> str:
    return f"record {first}" if first == last else f"records {first}-{last}"

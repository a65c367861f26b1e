"""The pit's own database of every table's records (SQLite, or PostgreSQL: database.py), and
the chain check per table.

Records are stored once per (table, seq), whatever QoS 1 delivers twice; each is checked as
it arrives, with the journal's own rules (controller.journal.verify): its hash recomputed
from its fields, and its prev_hash against the hash of the record before it. Alarms name
the table and the record:

    gap        records N-M missing once a later one arrived (cleared when they arrive)
    bad_hash   the record's hash does not match its contents (edited at the source)
    bad_chain  its prev_hash is not the hash of the record before (one before it replaced)
    differs    a record arrived for a seq already stored, with other contents

A record whose predecessor has not arrived is stored as `pending` and checked when the gap
fills. For a table enrolled with its public key (enrolled.py) the table's signed heads decide
what is its own: records up to its newest good signed head are verified (`verified_through`),
a record that conflicts with a verified one, or a version displaced by the one a signed head
vouches for, is kept apart (table `apart`), and the alarms name a forgery:

    forgery    a record conflicting with the table's signed records, or a signed head that is
               not the table's (another key, another identity, a bad signature)
    contested  two versions of a record not yet vouched for arrived: the next signed head decides
               (cleared then)

Writes are batched: `commit()` ends a batch (the caller acknowledges the MQTT
messages only after it, so the broker redelivers whatever a crash lost).
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from controller.journal import GENESIS, DamagedRecord, Record
from controller.journal.signing import SignedHead
from controller.journal.verify import EDITED, link_problem
from services.pit.database import connect
from services.pit.enrolled import ENROLLED_SCHEMA, Enrolment, enrol, enrolments

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
    replaced: bool = False  # records already shown were replaced by the table's own: fold the view again


class PitStore:
    def __init__(self, target: str | os.PathLike) -> None:
        """target: a SQLite file's path, or a postgresql:// URL (DatabaseError if it cannot be reached)."""
        self.conn = connect(str(target))
        self.path = self.conn.name  # as shown: a URL without its password
        self.conn.create(SCHEMA + ENROLLED_SCHEMA)
        self.chains: dict[str, Chain] = {}
        self.enrolled: dict[str, Enrolment] = {}
        self._enrolled_mark: tuple | None = None
        self.verified: dict[str, tuple[int, str]] = {
            table: (through, digest) for table, through, digest in self.conn.execute("SELECT table_id, through, hash FROM verified")}
        self._waiting_heads: dict[str, Record] = {}  # a good signed head whose records are not all here yet
        self._in_batch = False
        self._rows: dict[tuple[str, int], list] = {}  # this batch's new rows, written at commit (in bulk:
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
        enrolment = self.enrolled.get(table)
        if record.seq <= chain.through or record.seq in chain.pending:
            if enrolment is None:
                self._again(table, record, outcome)
            else:
                self._again_signed(table, enrolment, record, outcome)
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
        if enrolment is not None:
            self._signed_heads(table, enrolment, outcome)
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
            self.load_enrolled()

    # ------------------------------------------------------------------ enrolment and signed heads
    def enrol(self, table: str, key_file: str) -> Enrolment:
        """Enrol `table` (SITE/TABLE) with its public key file; SigningKeyError if it is none."""
        self._begin()
        enrolment = enrol(self.conn, table, key_file, utc_now())
        self.commit()
        return enrolment

    def load_enrolled(self) -> None:
        """Enrolments made by `tablectl pit enroll` while the pit runs are taken at the next batch."""
        mark = self.conn.execute("SELECT count(*), max(enrolled_at) FROM enrolled").fetchone()
        if mark != self._enrolled_mark:
            self._enrolled_mark, self.enrolled = mark, enrolments(self.conn)

    def _again_signed(self, table: str, enrolment: Enrolment, record: Record, outcome: Outcome) -> None:
        """A seq already stored, of an enrolled table: a redelivery, a forgery of a verified
        record, or a second version of one not yet vouched for (kept apart: contested)."""
        stored = self._main(table, record.seq)
        if stored == record:
            self.duplicates += 1
            return
        evidence = {"arrived": record_json(record), "stored": record_json(stored) if stored else None}
        if record.seq <= self.verified.get(table, (0, GENESIS))[0]:
            if self._apart_row(table, record, "forgery"):
                outcome.raised.append(self._raise(table, record.seq, record.seq, "forgery", (
                    f"record {record.seq} arrived with other contents (hash {record.hash[:12]}...) than {table}'s signed "
                    "record: a forgery by whoever published it, kept apart; the verified record stays"), evidence))
            return
        if self._apart_row(table, record, "contested"):
            outcome.raised.append(self._raise(table, record.seq, record.seq, "contested", (
                f"two versions of record {record.seq} arrived (hash {record.hash[:12]}..., stored "
                f"{stored.hash[:12] if stored else '?'}...): the table's next signed head decides which is its own; "
                "the other will be kept apart as a forgery"), evidence))
        if record.kind == "signed_head":
            self._signed(table, enrolment, record, outcome)
        waiting = self._waiting_heads.get(table)
        if waiting is not None and record.seq <= waiting.seq:
            self._signed(table, enrolment, waiting, outcome)

    def _signed_heads(self, table: str, enrolment: Enrolment, outcome: Outcome) -> None:
        for joined in list(outcome.in_order):
            if joined.kind == "signed_head":
                self._signed(table, enrolment, joined, outcome)
        waiting = self._waiting_heads.get(table)
        if waiting is not None and outcome.in_order and outcome.in_order[0].seq <= waiting.seq:
            self._signed(table, enrolment, waiting, outcome)

    def _signed(self, table: str, enrolment: Enrolment, record: Record, outcome: Outcome) -> None:
        """A signed head of an enrolled table: verify the records it vouches for, or alarm a forgery."""
        self._waiting_heads.pop(table, None)
        try:
            head = SignedHead.from_json(record.payload)
            problem = enrolment.verifier.problem(head)
        except (ValueError, DamagedRecord) as error:
            problem = f"it is malformed ({error})"
        if problem is not None:
            outcome.raised.append(self._raise(table, record.seq, record.seq, "forgery", (
                f"record {record.seq} claims to be {table}'s signed head, but {problem}: a forgery by whoever "
                "published it, not the table's")))
            self._set_aside_tail(table, record, outcome)
            return
        through, through_hash = self.verified.get(table, (0, GENESIS))
        if head.seq <= through:
            return
        chain = self.chains[table]
        if head.seq > chain.through:
            self._waiting_heads[table] = record
            return
        swaps, expected = [], head.hash
        for seq in range(head.seq, through, -1):
            stored = self._main(table, seq)
            if stored is not None and stored.hash == expected and stored.expected_hash() == expected:
                expected = stored.prev_hash
                continue
            own = self._apart_record(table, seq, expected)
            if own is None:  # the table's own version has not arrived: verify when it does
                self._waiting_heads[table] = record
                return
            swaps.append((stored, own))
            expected = own.prev_hash
        if expected != through_hash:
            outcome.raised.append(self._raise(table, record.seq, record.seq, "contradicted", (
                f"{table}'s signed head of record {head.seq} does not chain to the records verified before it "
                f"(through {through}): the table's journal was begun again, or its key is in other hands")))
            return
        for stored, own in swaps:
            self._replace(table, stored, own, head.seq, outcome)
        self._verified(table, head, through, outcome)

    def _verified(self, table: str, head: SignedHead, before: int, outcome: Outcome) -> None:
        self.verified[table] = (head.seq, head.hash)
        self.conn.execute("INSERT INTO verified VALUES (?, ?, ?, ?) ON CONFLICT(table_id) DO UPDATE SET "
                          "through = excluded.through, hash = excluded.hash, signed_at = excluded.signed_at",
                          (table, head.seq, head.hash, utc_now()))
        for (row_table, seq), row in self._rows.items():
            if row_table == table and before < seq <= head.seq:
                row[-1] = "ok"
        self.conn.execute("UPDATE records SET checked = 'ok' WHERE table_id = ? AND seq > ? AND seq <= ?",
                          (table, before, head.seq))
        after = self._main(table, head.seq + 1)
        last = head.seq + 1 if after is not None and after.prev_hash == head.hash else head.seq
        for alarm_id, in self.conn.execute(
                "SELECT id FROM alarms WHERE table_id = ? AND cleared_at IS NULL AND kind IN "
                "('bad_hash', 'bad_chain', 'contested', 'differs') AND seq > ? AND seq <= ?", (table, before, last)).fetchall():
            outcome.cleared.append(self._clear(alarm_id))
        if last > head.seq:
            self._set_checked(table, last, "ok")
        for row in self.conn.execute(f"SELECT {COLUMNS} FROM apart WHERE table_id = ? AND why = 'contested' AND seq > ? "
                                     "AND seq <= ?", (table, before, head.seq)).fetchall():
            other = Record(*row)
            self.conn.execute("UPDATE apart SET why = 'forgery' WHERE table_id = ? AND seq = ? AND hash = ?",
                              (table, other.seq, other.hash))
            outcome.raised.append(self._raise(table, other.seq, other.seq, "forgery", (
                f"record {other.seq} (hash {other.hash[:12]}...) is not {table}'s own: its signed head of record "
                f"{head.seq} vouches for the other version; a forgery by whoever published it, kept apart"),
                {"forged": record_json(other)}))

    def _replace(self, table: str, stored: Record | None, own: Record, head_seq: int, outcome: Outcome) -> None:
        """The record a good signed head vouches for takes the place of the one first received."""
        self.conn.execute("DELETE FROM apart WHERE table_id = ? AND seq = ? AND hash = ?", (table, own.seq, own.hash))
        if stored is not None:
            self._remove_main(table, stored.seq)
            self._apart_row(table, stored, "forgery")
            outcome.raised.append(self._raise(table, stored.seq, stored.seq, "forgery", (
                f"record {stored.seq} as first received (hash {stored.hash[:12]}...) is not {table}'s own: its signed "
                f"head of record {head_seq} vouches for another; a forgery by whoever published it, kept apart, and the "
                "table's record takes its place"), {"forged": record_json(stored), "own": record_json(own)}))
        self._insert(table, own, "ok")
        chain = self.chains[table]
        if chain.through == own.seq:
            chain.through_hash = own.hash
        outcome.replaced = True

    def _set_aside_tail(self, table: str, record: Record, outcome: Outcome) -> None:
        """A forged signed head at the end of what arrived goes apart (one in the middle stays
        until the table's next signed head displaces it)."""
        chain = self.chains[table]
        if record.seq != chain.through or chain.highest != record.seq or self._main(table, record.seq) != record:
            return
        self._remove_main(table, record.seq)
        self._apart_row(table, record, "forgery")
        chain.through, chain.through_hash, chain.highest = record.seq - 1, record.prev_hash, record.seq - 1
        outcome.in_order = [r for r in outcome.in_order if r is not record]

    def _main(self, table: str, seq: int) -> Record | None:
        batched = self._rows.get((table, seq))
        if batched is not None:
            return Record(*batched[1:9])
        row = self.conn.execute(f"SELECT {COLUMNS} FROM records WHERE table_id = ? AND seq = ?", (table, seq)).fetchone()
        return None if row is None else Record(*row)

    def _remove_main(self, table: str, seq: int) -> None:
        if self._rows.pop((table, seq), None) is None:
            self.conn.execute("DELETE FROM records WHERE table_id = ? AND seq = ?", (table, seq))

    def _apart_record(self, table: str, seq: int, digest: str) -> Record | None:
        row = self.conn.execute(f"SELECT {COLUMNS} FROM apart WHERE table_id = ? AND seq = ? AND hash = ?",
                                (table, seq, digest)).fetchone()
        record = None if row is None else Record(*row)
        return record if record is not None and record.expected_hash() == digest else None

    def _apart_row(self, table: str, record: Record, why: str) -> bool:
        """Keep `record` apart (False: that very version is already there)."""
        cursor = self.conn.execute(
            "INSERT INTO apart VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
            (table, record.seq, record.at, record.mono_ns, record.kind, record.round, record.payload_text, record.prev_hash,
             record.hash, utc_now(), why))
        if cursor.rowcount == 0:
            self.conn.execute("UPDATE apart SET why = ? WHERE table_id = ? AND seq = ? AND hash = ?",
                              (why, table, record.seq, record.hash))
            self.duplicates += 1
        return cursor.rowcount > 0

    def apart(self, table: str) -> list[tuple[Record, str]]:
        """What was kept apart for `table`: (record, why) in seq order."""
        return [(Record(*row[:8]), row[8]) for row in self.conn.execute(
            f"SELECT {COLUMNS}, why FROM apart WHERE table_id = ? ORDER BY seq, hash", (table,))]

    def commit(self) -> None:
        """Write the batch's records, received_at = now (one time for the batch), and commit."""
        if self._in_batch:
            now = utc_now()
            for row in self._rows.values():
                row[9] = now
            self.conn.insert_rows("records", 11, self._rows.values())
            self._rows.clear()
            self.conn.execute("COMMIT")
            self._in_batch = False

    def _insert(self, table: str, record: Record, checked: str) -> None:
        self._rows[(table, record.seq)] = [table, record.seq, record.at, record.mono_ns, record.kind, record.round,
                                           record.payload_text, record.prev_hash, record.hash, None, checked]

    def _raise(self, table: str, seq: int, last: int, kind: str, detail: str, evidence: Any = None) -> Alarm:
        now = utc_now()
        (alarm_id,) = self.conn.execute(
            "INSERT INTO alarms (table_id, seq, last_seq, kind, detail, evidence, raised_at) VALUES (?,?,?,?,?,?,?) RETURNING id",
            (table, seq, last, kind, detail, None if evidence is None else json.dumps(evidence, ensure_ascii=False), now)).fetchone()
        return Alarm(int(alarm_id), table, seq, last, kind, detail, now)

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
        query = "SELECT id, table_id, seq, last_seq, kind, detail, raised_at, cleared_at FROM alarms WHERE TRUE"
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

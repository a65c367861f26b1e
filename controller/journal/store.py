"""The journal file: SQLite in WAL mode, one append-only table of hash-chained records.

One process writes (the daemon, from its loop thread); a lock on the file refuses a
second writer. Readers (`tablectl recall`, `journal verify`, `journal export`) open the
file read-only and may do so while the daemon writes: WAL gives them a consistent snapshot.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.journal.anchor import Anchor, anchor_path, fsync_directory, read_anchor, write_anchor
from controller.journal.kinds import RecordKind
from controller.journal.records import (
    COLUMNS,
    GENESIS,
    JournalError,
    Record,
    canonical_json,
    record_from_row,
    record_hash,
)
from controller.journal.signing import TableSigner

SCHEMA_VERSION = 1
FILE_MODE = 0o640  # the daemon's group reads the journal (recall, verify, the services)
_INSERT = "INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_FULL = 5, 6, 13
_SCHEMA = """
CREATE TABLE records (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    mono_ns INTEGER NOT NULL,
    kind TEXT NOT NULL,
    round INTEGER,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
-- Partial indexes: a card append updates neither (each index on every row costs ~10 us).
CREATE INDEX rounds_opened ON records(round, seq) WHERE kind = 'round_opened';
CREATE INDEX shoe_events ON records(seq) WHERE kind = 'shoe';
CREATE INDEX spots_set ON records(seq) WHERE kind = 'spots';
CREATE INDEX player_dealer_set ON records(seq) WHERE kind = 'player_dealer';
CREATE INDEX chips_set ON records(seq) WHERE kind = 'chips';
CREATE INDEX shifts_set ON records(seq) WHERE kind = 'shift';
"""
# added to a journal made before them, at its first open by the writer (one pass, once)
_LATER_INDEXES = ("CREATE INDEX IF NOT EXISTS chips_set ON records(seq) WHERE kind = 'chips'",
                  "CREATE INDEX IF NOT EXISTS shifts_set ON records(seq) WHERE kind = 'shift'")

# "always":  every commit is fsynced (synchronous=FULL: SQLite syncs the WAL before another
#            connection can see the commit, so no reader ever holds a record a power cut takes).
#            The daemon's default (journal.sync).
# "results": fsync only the commits asked for with durable=True (results, voids, acknowledged
#            inputs); every other commit survives a crash of the process, not a power cut.
SYNC_MODES = ("results", "always")
# SQLite checkpoints the WAL inside whichever commit crosses this many pages; that commit
# then takes milliseconds. The daemon calls checkpoint() between rounds instead, so this
# large default is only a safety net (bench/bench_journal.py measures both).
AUTOCHECKPOINT_PAGES = 10000


class JournalBusy(JournalError):
    """Another connection held the journal's write lock longer than SQLite's busy timeout;
    nothing was written, the same append may be tried again."""


class JournalFull(JournalError):
    """The disk (or SQLite's max_page_count) is full: nothing of the append was written, the
    chain is as it was, and the same append may be tried again once space is freed."""


def sqlite_code(error: sqlite3.Error) -> int | None:
    """The primary result code (SQLITE_FULL, SQLITE_BUSY, ...), without the extended bits."""
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


_second: tuple[int, str] = (-1, "")  # (a second since the epoch, its "YYYY-MM-DDTHH:MM:SS")


def _utc_now() -> str:
    """UTC wall clock, ISO 8601 with microseconds and Z, as datetime.isoformat writes it; the
    date and time of day are formatted once per second (every record asks for one)."""
    global _second
    micros = time.time_ns() // 1000
    second, fraction = divmod(micros, 1_000_000)
    cached = _second
    if cached[0] != second:
        cached = _second = (second, datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
    return f"{cached[1]}.{fraction:06d}Z"


def check_schema(conn: sqlite3.Connection, path: Path) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if version > SCHEMA_VERSION:
        raise JournalError(f"{path}: journal format {version} is newer than this tablectl reads ({SCHEMA_VERSION})")
    if version != SCHEMA_VERSION or "records" not in tables:
        raise JournalError(f"{path}: not a tablectl journal (no records table of format {SCHEMA_VERSION})")


def create_journal(path: Path) -> None:
    """A new, empty journal appears at `path` all at once: it is built under a temporary name
    and linked into place, so no reader or later start ever finds a 0-byte or schema-less
    file there (a 0-byte journal is refused as damaged). If another process created one
    meanwhile, that one stays."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.new")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, FILE_MODE)
    os.fchmod(fd, FILE_MODE)  # whatever the umask: the group reads it
    os.close(fd)
    try:
        conn = sqlite3.connect(temporary, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(_SCHEMA + f"PRAGMA user_version={SCHEMA_VERSION};")
        finally:
            conn.close()  # the WAL goes into the file and is removed
        fd = os.open(temporary, os.O_RDONLY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass
        fsync_directory(path.parent)
    except sqlite3.DatabaseError as error:
        raise JournalError(f"{path}: cannot create the journal: {error}") from None
    finally:
        for leftover in (temporary, Path(f"{temporary}-wal"), Path(f"{temporary}-shm")):
            leftover.unlink(missing_ok=True)


def iter_records(conn: sqlite3.Connection, since: int = 0, until: int | None = None) -> Iterator[Record]:
    """Records with seq > since (and <= until), in order, streamed (constant memory)."""
    query = f"SELECT {COLUMNS} FROM records WHERE seq > ?"
    args: list[Any] = [since]
    if until is not None:
        query += " AND seq <= ?"
        args.append(until)
    for row in conn.execute(query + " ORDER BY seq", args):
        yield record_from_row(row)


class Journal:
    """The writer. `append` returns only once the record is committed (and fsynced when
    durable). Use from one thread: sqlite3 refuses a connection shared across threads."""

    def __init__(self, path: str | os.PathLike, sync: str = "results", autocheckpoint_pages: int = AUTOCHECKPOINT_PAGES,
                 signer: TableSigner | None = None):
        """Open the journal at `path` for writing, creating it when there is none. `signer`:
        the table's key, which signs every anchor (None: unsigned anchors). Refused with
        JournalError: a second writer, a file that is not a journal, a 0-byte file, and a
        missing journal whose anchor is still there (it would silently become a new chain at
        round 1). The start-up check (`check_journal`) is run before this, by the daemon."""
        if sync not in SYNC_MODES:
            raise JournalError(f"journal sync {sync!r}: expected one of {', '.join(SYNC_MODES)}")
        self.path = Path(path)
        self.sync = sync
        self.signer = signer
        self._autocheckpoint = autocheckpoint_pages
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._owner = threading.get_ident()
        if not self.path.exists():
            anchor = read_anchor(self.path)
            if anchor is not None:
                raise JournalError(f"{self.path}: the journal is missing, but its anchor names record {anchor.seq}: "
                                   "not starting a new chain at round 1 over it (docs/journal.md, Recovery)")
            create_journal(self.path)
        self._lock_fd = self._lock(self.path)
        try:
            if os.fstat(self._lock_fd).st_size == 0:
                raise JournalError(f"{self.path}: the journal is 0 bytes (emptied or truncated): not starting a new "
                                   "chain at round 1 over it (docs/journal.md, Recovery)")
            self._conn: sqlite3.Connection | None = self._connect()
        except BaseException:
            os.close(self._lock_fd)
            raise
        row = self._db.execute("SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1").fetchone()
        self.head_seq, self.head_hash = (int(row[0]), str(row[1])) if row else (0, GENESIS)
        row = self._db.execute("SELECT hash FROM records WHERE seq = 1").fetchone()
        self._first_hash: str | None = row[0] if row else None
        self.anchored: Anchor | None = None  # the last anchor this writer wrote
        # The WAL, held open once fsynced: a descriptor short later (a flood of clients) must not
        # fail an fsync the devices' acks wait on. SQLite keeps the file while we are connected.
        self._wal_fd: int | None = None
        with contextlib.suppress(FileNotFoundError):
            self._wal_fd = os.open(f"{self.path}-wal", os.O_RDONLY | os.O_CLOEXEC)

    @staticmethod
    def _lock(path: Path) -> int:
        # flock on a descriptor of our own: independent of SQLite's POSIX locks.
        try:
            fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
        except FileNotFoundError:
            raise JournalError(f"{path}: the journal disappeared while it was opened") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise JournalError(f"{path}: another process is writing this journal (is tablectl already running?)") from None
        return fd

    def _connect(self) -> sqlite3.Connection:
        conn = None
        try:
            conn = sqlite3.connect(self.path, isolation_level=None)  # autocommit: one INSERT = one commit
            check_schema(conn, self.path)  # before anything is changed in a file that may be no journal
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode != "wal":
                raise JournalError(f"{self.path}: cannot use WAL mode (got {mode!r})")
            conn.execute("PRAGMA synchronous=" + ("FULL" if self.sync == "always" else "NORMAL"))
            conn.execute(f"PRAGMA wal_autocheckpoint={int(self._autocheckpoint)}")
            for index in _LATER_INDEXES:
                conn.execute(index)
        except (sqlite3.DatabaseError, JournalError) as error:
            if conn is not None:
                conn.close()
            if isinstance(error, JournalError):
                raise
            raise self._failure(error, "cannot open the journal") from None
        return conn

    def append(self, kind: str, payload: Mapping[str, Any] | None = None, round: int | None = None,
               durable: bool = False) -> Record:
        """Write one record and commit it. `round` defaults to payload["round"]. durable=True
        fsyncs the commit (and every record before it) before returning."""
        return self.append_many([(kind, payload, round, durable)])[0]

    def append_many(self, entries: Sequence[tuple[str, Mapping[str, Any] | None, int | None, bool]]) -> list[Record]:
        """Write several records, (kind, payload, round, durable) each, in ONE transaction:
        all are committed together or none is (every entry is checked before anything is
        written); the commit is fsynced when any entry is durable. The daemon writes an input
        and the records of its effects this way: one commit per input instead of one each.
        JournalBusy when another connection holds the write lock past SQLite's busy timeout."""
        return [record_from_row(row) for row in self._append_rows(entries)]

    def append_batch(self, entries: Sequence[tuple[str, Mapping[str, Any] | None, int | None, bool]]) -> None:
        """append_many without the Record objects back: the daemon's loop needs none of them,
        and building them is a tenth of a record's cost."""
        self._append_rows(entries)

    def _append_rows(self, entries: Sequence[tuple[str, Mapping[str, Any] | None, int | None, bool]]) -> list[tuple]:
        if threading.get_ident() != self._owner:
            raise JournalError(f"{self.path}: append from another thread; the journal belongs to the thread that opened it")
        rows, prev, seq = [], self.head_hash, self.head_seq
        for kind, payload, round, _ in entries:
            seq += 1
            row = self._row(seq, prev, kind, payload, round)
            rows.append(row)
            prev = row[-1]
        if not rows:
            return rows
        fsync_now = self.sync == "results" and any(entry[3] for entry in entries)
        conn = self._db
        try:
            if len(rows) == 1:
                conn.execute(_INSERT, rows[0])  # autocommit
            else:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.executemany(_INSERT, rows)
                    conn.execute("COMMIT")
                except BaseException:
                    # SQLite has already rolled back after some errors (SQLITE_FULL):
                    # a second ROLLBACK would fail and hide the real reason.
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
        except sqlite3.Error as error:
            what = f"{rows[0][3]} record {rows[0][0]}" + (f" (and {len(rows) - 1} more)" if len(rows) > 1 else "")
            raise self._failure(error, f"cannot append {what}") from None
        if self.head_seq == 0:
            self._first_hash = rows[0][-1]
        self.head_seq, self.head_hash = rows[-1][0], rows[-1][-1]
        if fsync_now:
            # The commit at NORMAL, then one fsync of the WAL: what synchronous=FULL does at the
            # commit, without two PRAGMA statements around it. If it fails the records are
            # committed but not durable: never JournalFull (whose append may be tried again,
            # which would write them twice); the caller stops before acting on any of it.
            try:
                self._fsync_wal()
            except OSError as error:
                raise JournalError(f"{self.path}: records {rows[0][0]}-{rows[-1][0]} are committed but the fsync "
                                   f"that makes them durable failed: {error.strerror}") from None
        return rows

    def _failure(self, error: sqlite3.Error, doing: str) -> JournalError:
        """The JournalError (or subclass) an SQLite error while `doing` something stands for."""
        code = sqlite_code(error)
        if code == _SQLITE_FULL:
            return JournalFull(f"{self.path}: the disk is full: {doing} (nothing of it was written, "
                               f"the journal is intact; try again once space is freed: {error})")
        if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return JournalBusy(f"{self.path}: {doing}: {error}")
        return JournalError(f"{self.path}: {doing}: {error}")

    def _row(self, seq: int, prev_hash: str, kind: str, payload: Mapping[str, Any] | None, round: int | None) -> tuple:
        if not isinstance(kind, str) or not kind:
            raise JournalError(f"record kind must be a non-empty string, got {kind!r}")
        kind = str(kind)  # a RecordKind is stored as its plain string
        payload = {} if payload is None else payload
        if not isinstance(payload, Mapping):
            raise JournalError(f"{kind} record: payload must be a JSON object, got {type(payload).__name__}")
        round = _round_of(kind, payload, round)
        try:
            payload_text = canonical_json(payload)
        except (TypeError, ValueError) as error:
            raise JournalError(f"{kind} record: payload is not plain JSON: {error}") from None
        at, mono_ns = _utc_now(), time.monotonic_ns()
        digest = record_hash(prev_hash, seq, at, mono_ns, kind, round, payload_text)
        return (seq, at, mono_ns, kind, round, payload_text, prev_hash, digest)

    def checkpoint(self) -> tuple[int, int]:
        """Copy the WAL into the database file now, at a quiet moment (betting open, no card
        due), so no append has to. PASSIVE: never waits for readers, so a reader holding an
        old snapshot may leave frames behind. Returns (frames in the WAL, frames copied)."""
        try:
            _, frames, copied = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as error:
            raise self._failure(error, "checkpoint failed") from None
        return frames, copied

    def anchor(self, mirror: bool = False) -> Anchor:
        """Make every record written so far durable (fsync of the WAL) and anchor the head in
        the file beside the journal (docs/journal.md, Anchor), signed with the table's key when
        the journal has one. mirror=True then also journals the signed head as a `signed_head`
        record (after the anchor: the anchor never names a record that may be lost). The
        daemon anchors after its start-up check and after `daemon_stopped`, and at every
        checkpoint with the mirror (the first when bets first open). JournalFull when the disk
        is full, JournalError otherwise; the previous anchor then stays as it was."""
        if threading.get_ident() != self._owner:
            raise JournalError(f"{self.path}: anchor from another thread; the journal belongs to the thread that opened it")
        signed = None if self.signer is None else self.signer.sign(self.head_seq, self.head_hash)
        anchor = Anchor(self.head_seq, self.head_hash, self._first_hash, _utc_now(), signed)
        try:
            self._fsync_wal()
            write_anchor(self.path, anchor)
        except OSError as error:
            where = anchor_path(self.path)
            if error.errno == errno.ENOSPC:
                raise JournalFull(f"{where}: the disk is full: cannot write the anchor of record {anchor.seq} "
                                  "(the previous anchor stays; try again once space is freed)") from None
            raise JournalError(f"{where}: cannot write the anchor: {error.strerror}") from None
        self.anchored = anchor
        if mirror and signed is not None:
            self.append(RecordKind.SIGNED_HEAD, signed.to_json())  # made durable by the next anchor's fsync
        return anchor

    def _fsync_wal(self) -> None:
        """Records committed with synchronous=NORMAL are in the WAL, not yet on the disk; a
        checkpoint has already synced whatever it copied into the database file."""
        wal = f"{self.path}-wal"
        if self._wal_fd is not None and os.fstat(self._wal_fd).st_ino != _inode(wal):
            os.close(self._wal_fd)  # replaced behind our back: the new one is the journal's
            self._wal_fd = None
        if self._wal_fd is None:
            try:
                self._wal_fd = os.open(wal, os.O_RDONLY | os.O_CLOEXEC)
            except FileNotFoundError:
                os.fsync(self._lock_fd)  # no WAL (yet): the database file holds everything
                return
        os.fsync(self._wal_fd)

    def records(self, since: int = 0) -> Iterator[Record]:
        return iter_records(self._db, since)

    @property
    def connection(self) -> sqlite3.Connection:
        """For readers in the writer's own thread (recovery at start-up)."""
        return self._db

    @property
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError(f"{self.path}: the journal is closed")
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            os.close(self._lock_fd)
            if self._wal_fd is not None:
                os.close(self._wal_fd)
                self._wal_fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _inode(path: str) -> int | None:
    try:
        return os.stat(path).st_ino
    except FileNotFoundError:
        return None


def _round_of(kind: str, payload: Mapping[str, Any], round: int | None) -> int | None:
    in_payload = payload.get("round")
    if round is None:
        round = in_payload
    elif in_payload is not None and in_payload != round:
        raise JournalError(f"{kind} record: round={round} but the payload says round {in_payload}")
    if round is not None and (type(round) is not int or round < 1):
        raise JournalError(f"{kind} record: round must be a positive integer, got {round!r}")
    return round

"""Reading every record of a journal that may be damaged, for `journal verify` and `journal
export`: each record that cannot be used is named, and a damaged file (truncated, a page
overwritten) is read around its damage, saying which records cannot be read, instead of an
SQLite exception ending the walk.

    for item in scan(conn, since):
        if isinstance(item, Unreadable): ...   # item.seq, item.last, item.reason
        else: ...                              # a Record whose columns have their types
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

from controller.journal.records import COLUMN_TYPES, COLUMNS, Record, column_problem

_NOT_UTF8 = "Could not decode to UTF-8"  # how Python's sqlite3 reports such a TEXT value
# Past a damaged page the walk looks for the next record it can reach, one seq at a time (a
# lookup costs about 10 us; which records a lost page held is not known in advance), up to
# the most records the file can have held (its size from its header / the smallest record),
# and never more than PROBE_LIMIT lookups (2 s): beyond that the rest counts as lost.
PROBE_LIMIT = 200_000
MIN_RECORD_BYTES = 160  # two 64-digit hashes, the time, the rest: no record is smaller


@dataclass(frozen=True)
class Unreadable:
    seq: int  # the (first) record that cannot be read or used
    last: int | None  # the last one of that run (seq for one record); None: none after seq can be read
    reason: str
    file_damage: bool = False  # the file cannot be read there (rather than one record's contents)

    @property
    def rest_lost(self) -> bool:
        return self.last is None

    def records(self) -> str:
        """'5', '1201-1499' or 'everything from 2301 on'."""
        if self.last is None:
            return f"everything from {self.seq} on"
        return str(self.seq) if self.last == self.seq else f"{self.seq}-{self.last}"


def scan(conn: sqlite3.Connection, since: int = 0, damage: str | None = None,
         file_bytes: int | None = None) -> Iterator[Record | Unreadable]:
    """Records with seq > since in order, or Unreadable for what cannot be used or read (the
    walk goes on past it where anything further can be reached). `damage`: the error that
    made the file open only tolerantly (shorter than its header says); records after the last
    one reached are then reported lost even when the walk met no error. `file_bytes`: the
    size the file's header gives (bounds the search past damage)."""
    last = since
    while True:
        try:
            for row in conn.execute(f"SELECT {COLUMNS} FROM records WHERE seq > ? ORDER BY seq", (last,)):
                if row[0] <= last:  # a page read past the end of a truncated file: zeros
                    raise sqlite3.DatabaseError(damage or f"a record numbered {row[0]} after record {last}")
                last = row[0]  # INTEGER PRIMARY KEY: always an integer
                problem = column_problem(row)
                yield Record(*row) if problem is None else Unreadable(last, last, problem)
        except sqlite3.DatabaseError as error:
            bad = _next_seq(conn, last) if str(error).startswith(_NOT_UTF8) else None
            if bad is not None:  # one record's text: name it and go on after it
                yield Unreadable(bad, bad, _not_utf8(conn, bad))
                last = bad
                continue
            found = _next_readable(conn, last, file_bytes)
            if found is None:
                yield _rest_lost(since, last, error)
                return
            if found > last + 1:
                yield _lost_run(last + 1, found - 1, error)
            yield from _one(conn, found)  # reached by its key: the walk goes on after it
            last = found
            continue
        if damage is not None:
            yield _rest_lost(since, last, damage)
        return


def _one(conn: sqlite3.Connection, seq: int) -> Iterator[Record | Unreadable]:
    try:
        row = conn.execute(f"SELECT {COLUMNS} FROM records WHERE seq = ?", (seq,)).fetchone()
    except sqlite3.OperationalError:  # its text is not UTF-8 (_next_readable found it reachable)
        yield Unreadable(seq, seq, _not_utf8(conn, seq))
        return
    problem = column_problem(row)
    yield Record(*row) if problem is None else Unreadable(seq, seq, problem)


def _next_seq(conn: sqlite3.Connection, after: int) -> int | None:
    try:
        row = conn.execute("SELECT seq FROM records WHERE seq > ? ORDER BY seq LIMIT 1", (after,)).fetchone()
    except sqlite3.DatabaseError:
        return None
    return row[0] if row else None


def _next_readable(conn: sqlite3.Connection, after: int, file_bytes: int | None) -> int | None:
    """The first seq after `after` whose record can be reached by its key, or None."""
    try:
        end = conn.execute("SELECT MAX(seq) FROM records").fetchone()[0] or after
    except sqlite3.DatabaseError:  # the right edge of the file is lost too
        end = after + PROBE_LIMIT if file_bytes is None else file_bytes // MIN_RECORD_BYTES
    for seq in range(after + 1, min(end, after + PROBE_LIMIT) + 1):
        try:
            if conn.execute(f"SELECT {COLUMNS} FROM records WHERE seq = ?", (seq,)).fetchone() is not None:
                return seq
        except sqlite3.OperationalError as error:
            if str(error).startswith(_NOT_UTF8):
                return seq  # reachable: the walk names its text
        except sqlite3.DatabaseError:
            continue
    return None


def _not_utf8(conn: sqlite3.Connection, seq: int) -> str:
    """Which column of the record holds bytes that are not UTF-8, and where."""
    for name in COLUMN_TYPES:
        raw = conn.execute(f"SELECT CAST({name} AS BLOB) FROM records WHERE seq = ?", (seq,)).fetchone()[0]
        if isinstance(raw, bytes):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as error:
                return f"its {name} is not UTF-8 text (byte 0x{raw[error.start]:02x} at offset {error.start})"
    return "it holds text that is not UTF-8"


def _lost_run(first: int, last: int, error: object) -> Unreadable:
    which = f"record {first}" if first == last else f"records {first}-{last}"
    return Unreadable(first, last, f"{which} cannot be read: the file is damaged there ({error})", file_damage=True)


def _rest_lost(since: int, last: int, error: object) -> Unreadable:
    if last == since:
        where = "no record can be read" if since == 0 else f"no record after {since} can be read"
        return Unreadable(last + 1, None, f"the file is damaged: {where} ({error})", file_damage=True)
    return Unreadable(last + 1, None, f"the file is damaged after record {last}: no record after it can be read ({error})",
                      file_damage=True)


def first_damage(conn: sqlite3.Connection) -> Unreadable | None:
    """The first record that cannot be read or used, walking the whole journal (for a reader
    whose query failed on a damaged record and wants to name it)."""
    for item in scan(conn):
        if isinstance(item, Unreadable):
            return item
    return None

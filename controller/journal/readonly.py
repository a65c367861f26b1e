"""Read-only access to the journal for any process (recall, verify, export, the services),
whether the daemon runs or not, and for members of the daemon's group who may not write in
its directory.

A WAL-mode database is normally read through its -shm file. While the daemon runs (or after
it was killed) the -wal and -shm files exist, owned by the daemon with the journal's mode
(0640), and a group member reads through them read-only. After a clean stop SQLite has
removed both; a reader that may not create the -shm in the daemon's 0750 directory then
gets "attempt to write a readonly database". Every record is in the database file at that
point (the last close checkpointed the WAL into it), so such a reader opens the file as
immutable (no -shm, no locks) and checks afterwards that the file did not change while it
read (the daemon started and checkpointed): a JournalError asks to run again if it did.
"""
from __future__ import annotations

import grp
import os
import pwd
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from controller.journal.records import DamagedRecord, JournalError
from controller.journal.scan import first_damage
from controller.journal.store import Journal, check_schema, sqlite_code

_SQLITE_READONLY, _SQLITE_CORRUPT, _SQLITE_CANTOPEN, _SQLITE_NOTADB = 8, 11, 14, 26
VERIFY_HINT = "`tablectl journal verify` names the damage"


class ReadConnection(sqlite3.Connection):
    """A reader's connection. For one opened as immutable, `check_unchanged()` raises
    JournalError when the file changed while it was read."""

    path: Path
    immutable_stat: tuple[int, int, int] | None = None  # (inode, size, mtime_ns) at open

    def check_unchanged(self) -> None:
        if self.immutable_stat is not None and _identity(self.path) != self.immutable_stat:
            raise JournalError(f"{self.path}: the journal changed while it was read without the daemon "
                               "(the daemon started?): run the command again")


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _name(lookup, number: int, kind: str) -> str:
    try:
        return lookup(number)[0]
    except KeyError:
        return f"{kind} {number}"


def check_access(path: Path) -> None:
    """JournalError with the reason when this process cannot read the journal at `path`."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise JournalError(f"no journal at {path}") from None
    except PermissionError:
        raise JournalError(f"{path}: permission denied: its directory {path.parent} is open to the daemon's user "
                           "and group only; ask to be added to that group") from None
    if not stat.S_ISREG(st.st_mode):
        raise JournalError(f"no journal at {path} (not a file)")
    if not os.access(path, os.R_OK):
        owner, group = _name(pwd.getpwuid, st.st_uid, "uid"), _name(grp.getgrgid, st.st_gid, "gid")
        raise JournalError(f"{path}: permission denied: the journal is readable by its owner ({owner}) and "
                           f"group ({group}) only; ask to be added to that group")


def _wal_holds_frames(path: Path) -> bool:
    try:
        return os.path.getsize(f"{path}-wal") > 0
    except OSError:
        return False


def _connect(path: Path, *, immutable: bool, tolerate_damage: bool) -> ReadConnection:
    uri = f"{path.resolve().as_uri()}?mode=ro" + ("&immutable=1" if immutable else "")
    conn = sqlite3.connect(uri, uri=True, factory=ReadConnection)
    conn.path = path
    try:
        if tolerate_damage:  # read a file shorter than its header says (the connection cannot write)
            conn.execute("PRAGMA writable_schema = ON")
        check_schema(conn, path)
    except BaseException:
        conn.close()
        raise
    return conn


def open_readonly(path: str | os.PathLike, *, tolerate_damage: bool = False) -> ReadConnection:
    """A read-only connection for readers in any process; JournalError if it cannot be read
    or is not a journal. tolerate_damage: also open a file shorter than its header says
    (truncated), to read what is left of it."""
    path = Path(path)
    check_access(path)
    try:
        try:
            return _connect(path, immutable=False, tolerate_damage=tolerate_damage)
        except sqlite3.DatabaseError as error:
            if sqlite_code(error) not in (_SQLITE_READONLY, _SQLITE_CANTOPEN):
                raise
            if _wal_holds_frames(path):  # records only in the WAL: they need the -shm
                raise JournalError(
                    f"{path}: cannot read the journal: its write-ahead log ({path}-wal) holds records and its "
                    f"-shm file is missing, which only the daemon's user may create: start the daemon, or read "
                    f"as its user") from None
        before = _identity(path)
        conn = _connect(path, immutable=True, tolerate_damage=tolerate_damage)
        conn.immutable_stat = before
        return conn
    except sqlite3.DatabaseError as error:
        failure = JournalError(f"{path}: cannot read the journal: {error}")
        failure.sqlite_code = sqlite_code(error)  # type: ignore[attr-defined]
        raise failure from None


def open_for_scan(path: str | os.PathLike) -> tuple[ReadConnection, str | None, int | None]:
    """(connection, None, size) or, for a damaged (truncated) file, a tolerant connection and
    the error a plain open gave: `scan` then reports how far the file can be read. `size`:
    the bytes the file's header says it holds (None if it cannot be read)."""
    try:
        conn, damage = open_readonly(path), None
    except JournalError as error:
        if getattr(error, "sqlite_code", None) != _SQLITE_CORRUPT:
            raise
        conn, damage = open_readonly(path, tolerate_damage=True), str(error).rsplit(": ", 1)[-1]
    return conn, damage, _header_bytes(Path(path))


def _header_bytes(path: Path) -> int | None:
    """Page size x page count from the database header (bytes 16-17 and 28-31)."""
    try:
        with open(path, "rb") as file:
            header = file.read(32)
    except OSError:
        return None
    if len(header) < 32:
        return None
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    return page_size * int.from_bytes(header[28:32], "big")


@contextmanager
def reading(source: Journal | str | os.PathLike) -> Iterator[sqlite3.Connection]:
    """A connection to read from: the writer's own (in its thread) or a read-only one to a
    path, closed afterwards. On a path, a damaged record or file becomes a JournalError that
    names the record where it can."""
    if isinstance(source, Journal):
        yield source.connection
        return
    try:
        conn = open_readonly(source)
    except JournalError as error:
        if getattr(error, "sqlite_code", None) in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
            raise JournalError(f"{error}; {VERIFY_HINT}") from None
        raise
    try:
        yield conn
        conn.check_unchanged()
    except DamagedRecord as error:
        raise JournalError(f"{source}: {error}; {VERIFY_HINT}") from None
    except sqlite3.DatabaseError as error:
        conn.check_unchanged()  # a damage seen because the daemon changed the file: say that
        found = first_damage(conn) if isinstance(error, sqlite3.OperationalError) else None
        where = f"record {found.seq}: {found.reason}" if found and not found.file_damage else f"cannot read the journal: {error}"
        raise JournalError(f"{source}: {where}; {VERIFY_HINT}") from None
    finally:
        conn.close()

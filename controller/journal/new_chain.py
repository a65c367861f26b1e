"""The documented recovery from a broken or missing journal: archive the old files and start
a new chain whose first record names the old head, what was wrong and who did it.

    done = start_new_chain(path, by={"user": "alice", "uid": 1001, "pid": 4242}, reason="journal truncated by ...")
    done.journal        # the new journal, open for writing in this thread (its anchor written)
    done.first          # its record 1: kind "chain_started"
    done.archived       # the old files, renamed: journal.sqlite.archived-20261126T041200Z[-wal|-shm|.anchor]

The supervisor's command (through the daemon) calls it; nothing is deleted: the archived
journal stays readable with `tablectl journal verify|export --journal ARCHIVED`.
"""
from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.journal.anchor import anchor_path, fsync_directory
from controller.journal.kinds import RecordKind
from controller.journal.readonly import open_readonly
from controller.journal.records import JournalError, Record
from controller.journal.signing import TableSigner
from controller.journal.startup import StartupCheck, check_journal
from controller.journal.store import Journal

CHAIN_STARTED = RecordKind.CHAIN_STARTED


@dataclass(frozen=True)
class NewChain:
    journal: Journal
    first: Record
    archived: list[Path]


def start_new_chain(path: str | os.PathLike, *, by: Mapping[str, Any], reason: str, sync: str = "results",
                    signer: TableSigner | None = None) -> NewChain:
    """Archive the journal at `path` (with its -wal, -shm and anchor) and start a new chain.
    `by`: who asked (a JSON object with at least "user"); `reason`: their words; `signer`: the
    table's key, which checks the old journal's signatures and signs the new one. JournalError
    when another process writes the journal, or `by`/`reason` are missing."""
    if not isinstance(by, Mapping) or not isinstance(by.get("user"), str) or not by["user"]:
        raise JournalError("a new chain needs who started it: by={'user': ..., ...}")
    if not isinstance(reason, str) or not reason.strip():
        raise JournalError("a new chain needs a reason")
    path = Path(path)
    lock = _lock_old(path)
    try:
        check = check_journal(path, signer)
        previous = _previous(path, check)
        archived_journal, archived = _archive(path)
        previous["archived_as"] = None if archived_journal is None else archived_journal.name
    finally:
        if lock is not None:
            os.close(lock)
    journal = Journal(path, sync=sync, signer=signer)
    try:
        first = journal.append(CHAIN_STARTED, {"previous": previous, "by": dict(by), "reason": reason}, durable=True)
        journal.anchor()
    except BaseException:
        journal.close()
        raise
    return NewChain(journal, first, archived)


def _lock_old(path: Path) -> int | None:
    """The writer's lock on the old journal, held while it is archived: no daemon writes it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise JournalError(f"{path}: another process is writing this journal (is tablectl running?): "
                           "a new chain is started by the daemon itself") from None
    return fd


def _previous(path: Path, check: StartupCheck) -> dict[str, Any]:
    """What the new chain's first record says of the old one."""
    return {
        "problem": check.problem, "reason": check.reason, "broken_seq": check.broken_seq,
        "verified_head": {"seq": check.head_seq, "hash": check.head_hash},
        "last_record": _last_record(path),
        "anchor": None if check.anchor is None else check.anchor.to_json(),
    }


def _last_record(path: Path) -> dict | None:
    """The highest record the old file still holds, if it can be read at all."""
    try:
        conn = open_readonly(path, tolerate_damage=True)
    except JournalError:
        return None
    try:
        row = conn.execute("SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1").fetchone()
    except sqlite3.DatabaseError:
        return None
    finally:
        conn.close()
    return None if row is None else {"seq": row[0], "hash": row[1]}


def _archive(path: Path) -> tuple[Path | None, list[Path]]:
    """Rename the journal and what belongs to it, keeping SQLite's names (ARCHIVED-wal beside
    ARCHIVED, so the archived journal opens with its WAL): (the journal's new name if there was
    a journal, every file moved)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    base, n = Path(f"{path}.archived-{stamp}"), 1
    while any(Path(f"{base}{suffix}").exists() for suffix in ("", "-wal", "-shm", ".anchor")):
        n += 1
        base = Path(f"{path}.archived-{stamp}-{n}")
    moved = []
    for old, new in ((path, base), (Path(f"{path}-wal"), Path(f"{base}-wal")), (Path(f"{path}-shm"), Path(f"{base}-shm")),
                     (anchor_path(path), Path(f"{base}.anchor"))):
        try:
            os.rename(old, new)
        except FileNotFoundError:
            continue
        moved.append(new)
    fsync_directory(path.parent)
    return (base if base in moved else None), moved

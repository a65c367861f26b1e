"""The start-up check: before the daemon opens its journal for writing, is it the journal it
left, intact? Fast: it checks the records since the last anchor, that the anchored record is
still there with its hash, that the chain is the anchored one (record 1's hash), and that no
seq is missing anywhere (a count); a full `verify` walks every record.

    check = check_journal(path, verifier)   # before Journal(path); read-only; verifier: the table's key
    if not check.ok:
        ...                            # do not deal: check.broken_seq, check.problem, check.reason
    journal = Journal(path); journal.anchor()

Problems (`check.problem`) and what they mean:

    missing        no journal, but its anchor is there (deleted or moved)
    empty          a 0-byte journal (emptied or truncated); never taken for a new chain
    anchor         the anchor file cannot be read
    unreadable     not a journal, or it cannot be opened
    replaced       record 1 is not the anchored chain's (another journal was put in its place)
    truncated      the journal ends before the anchored record (a tail cut off, an older copy)
    rewritten      the anchored record's hash changed (the chain was recomputed up to it)
    deleted        records are missing (the count of records does not match the last seq)
    broken_chain   a record since the anchor was edited, reordered, deleted or corrupted
    damaged        the file cannot be read past some point (SQLite: malformed)

With the table's key (`verifier`, signing.py) the anchor must be there once the journal holds
records, and signed by this table; every signed head after it is checked, and (`full=True`,
the default) every record and every signed head from record 1 (signed_chain.py):

    no_anchor      records, but no anchor (deleted): the tail after the last signed head is unvouched
    unsigned       the anchor is not signed (a journal from before signing)
    foreign        another table's anchor or signed head, or a signature that is not valid
    contradicted   a signed head names a hash the chain no longer has (rewritten)

`full=False` leaves the records before the anchor to a walk of its own (the daemon runs
`verify(path, verifier)` in the background on a large journal). When the check fails, the
first broken record and the last good one are named as `verify` names them (`named_by_walk`;
with `full=False` the caller does that, the daemon in the background).
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path

from controller.journal.anchor import Anchor, anchor_path, read_anchor
from controller.journal.readonly import open_for_scan
from controller.journal.records import COLUMNS, GENESIS, JournalError, Record, column_problem
from controller.journal.scan import scan
from controller.journal.signed_chain import SignatureWalk
from controller.journal.signing import TableVerifier
from controller.journal.verify import VerifyReport, verify, verify_chain

# Problems where a walk of every record can say more (the fast check does not look before the
# anchor): the first broken record and the last good one, as `verify` names them.
NOT_NAMED_BY_WALK = ("missing", "empty", "unreadable", "anchor")


@dataclass(frozen=True)
class StartupCheck:
    ok: bool
    journal: str
    anchor: Anchor | None  # the anchor found beside the journal
    head_seq: int  # the last record known good (0: none, or the check cannot tell)
    head_hash: str
    checked: int  # records whose chain was checked (those after the anchor)
    broken_seq: int | None = None  # the first broken record, where one can be named
    problem: str | None = None  # a word from the list above
    reason: str | None = None  # what is wrong, for people

    def to_json(self) -> dict:
        return {"ok": self.ok, "journal": self.journal, "anchor": None if self.anchor is None else self.anchor.to_json(),
                "head_seq": self.head_seq, "head_hash": self.head_hash, "checked": self.checked,
                "broken_seq": self.broken_seq, "problem": self.problem, "reason": self.reason}

    def __str__(self) -> str:
        since = "no anchor: every record" if self.anchor is None else f"anchored at record {self.anchor.seq}"
        if self.ok:
            return f"ok: {since}; {self.checked} records checked; head {self.head_seq} {self.head_hash}"
        at = "" if self.broken_seq is None else f" at record {self.broken_seq}"
        return f"BROKEN{at} ({self.problem}): {self.reason} ({since}; last good record {self.head_seq})"


def check_journal(path: str | os.PathLike, verifier: TableVerifier | None = None, *, full: bool = True) -> StartupCheck:
    """Read-only; never raises for a damaged journal: the answer says what is wrong."""
    check = _fast_check(Path(path), verifier)
    if not full:
        return check
    if check.ok and verifier is not None and check.head_seq:
        report = verify(path, verifier)
        return check if report.ok else from_report(check, report)
    return named_by_walk(check, verifier)


def named_by_walk(check: StartupCheck, verifier: TableVerifier | None) -> StartupCheck:
    """A failed check with its first broken record, last good record and reason as `verify`
    names them (the problem word stays the check's); as it was when the walk has nothing to add."""
    if check.ok or check.problem in NOT_NAMED_BY_WALK:
        return check
    report = verify(check.journal, verifier)
    if report.ok:
        return check  # what the chain and the signatures before the anchor cannot show (a cut tail without a signing key)
    return replace(check, broken_seq=report.broken_seq, head_seq=report.head_seq, head_hash=report.head_hash,
                   reason=report.reason)


def from_report(check: StartupCheck, report: VerifyReport) -> StartupCheck:
    """A check that passed, failed by the full walk `report`."""
    problem = report.problem or ("damaged" if report.file_damage else "broken_chain")
    return StartupCheck(False, check.journal, check.anchor, report.head_seq, report.head_hash, report.records,
                        report.broken_seq, problem, report.reason)


def _fast_check(path: Path, verifier: TableVerifier | None) -> StartupCheck:
    name = str(path)
    try:
        anchor = read_anchor(path)
    except JournalError as error:
        return StartupCheck(False, name, None, 0, GENESIS, 0, None, "anchor", str(error))
    if not path.exists():
        if anchor is None:
            return StartupCheck(True, name, None, 0, GENESIS, 0)  # the first start: a new journal
        return _broken(name, anchor, "missing", f"there is no journal, but its anchor ({anchor_path(path)}) names "
                                                f"record {anchor.seq}: it was deleted or moved", 0, GENESIS)
    try:
        size = path.stat().st_size
    except OSError as error:
        return _broken(name, anchor, "unreadable", f"cannot read the journal: {error.strerror}", 0, GENESIS)
    if size == 0:
        return _broken(name, anchor, "empty", "the journal is 0 bytes (emptied or truncated)", 0, GENESIS)
    try:
        conn, damage, file_bytes = open_for_scan(path)
    except JournalError as error:
        return _broken(name, anchor, "unreadable", str(error), 0, GENESIS)
    try:
        return _check(conn, name, anchor, damage, file_bytes, verifier)
    except sqlite3.DatabaseError as error:  # beyond what scan reads around: an index, the count
        return _broken(name, anchor, "damaged", f"the file is damaged ({error})", 0, GENESIS)
    finally:
        conn.close()


def _broken(name: str, anchor: Anchor | None, problem: str, reason: str, head_seq: int, head_hash: str,
            broken_seq: int | None = None, checked: int = 0) -> StartupCheck:
    return StartupCheck(False, name, anchor, head_seq, head_hash, checked, broken_seq, problem, reason)


def _record(conn: sqlite3.Connection, seq: int) -> Record | None:
    row = conn.execute(f"SELECT {COLUMNS} FROM records WHERE seq = ?", (seq,)).fetchone()
    return None if row is None or column_problem(row) is not None else Record(*row)


def _check(conn: sqlite3.Connection, name: str, anchor: Anchor | None, damage: str | None,
           file_bytes: int | None, verifier: TableVerifier | None) -> StartupCheck:
    since, since_hash = 0, GENESIS
    walk = None if verifier is None else SignatureWalk(conn, verifier)
    if walk is not None and (anchor is None or anchor.signed is None or walk.verifier.problem(anchor.signed) is not None):
        last = conn.execute("SELECT MAX(seq) FROM records").fetchone()[0] or 0
        problem = walk.check_anchor(anchor, name, last, "")  # what is wrong with the anchor itself, if anything
        if problem is not None:
            return _broken(name, anchor, problem.problem, problem.reason, problem.good_seq, problem.good_hash,
                           problem.broken_seq)
    if anchor is not None and anchor.seq > 0:
        found = _anchored(conn, name, anchor)
        if found is not None:
            return found
        since, since_hash = anchor.seq, anchor.hash
    report = verify_chain(scan(conn, since, damage, file_bytes), since, since_hash, walk=walk)
    if not report.ok:
        return _broken(name, anchor, report.problem or ("damaged" if report.file_damage else "broken_chain"),
                       report.reason or "", report.head_seq, report.head_hash, report.broken_seq, report.records)
    count, lowest = conn.execute("SELECT COUNT(*), MIN(seq) FROM records").fetchone()
    if count != report.head_seq or (count and lowest != 1):
        return _broken(name, anchor, "deleted", f"{report.head_seq - count} records are missing (the journal holds "
                       f"{count} records numbered up to {report.head_seq})",
                       report.head_seq, report.head_hash, None, report.records)
    return StartupCheck(True, name, anchor, report.head_seq, report.head_hash, report.records)


def _anchored(conn: sqlite3.Connection, name: str, anchor: Anchor) -> StartupCheck | None:
    """A StartupCheck if the anchored record or the chain's first record is not as anchored."""
    first, record = _record(conn, 1), _record(conn, anchor.seq)
    if first is not None and first.hash != anchor.first_hash:
        return _broken(name, anchor, "replaced", "record 1 is not the anchored chain's first record: another "
                       "journal was put in its place", 0, GENESIS, 1)
    if record is None:
        last = conn.execute("SELECT MAX(seq) FROM records").fetchone()[0] or 0
        last_hash = GENESIS if last == 0 else conn.execute("SELECT hash FROM records WHERE seq = ?", (last,)).fetchone()[0]
        if last < anchor.seq:
            return _broken(name, anchor, "truncated", f"the journal ends at record {last}, but its anchor names record "
                           f"{anchor.seq}: records were cut off its end (or an older copy was put back)",
                           last, last_hash, last + 1)
        return _broken(name, anchor, "deleted", f"the anchored record {anchor.seq} is missing or unreadable",
                       0, GENESIS, anchor.seq)
    if record.hash != anchor.hash:
        return _broken(name, anchor, "rewritten", f"the anchored record {anchor.seq} has another hash than the anchor "
                       "says: the chain was rewritten up to it", 0, GENESIS, anchor.seq)
    if record.hash != record.expected_hash():
        return _broken(name, anchor, "broken_chain", f"the anchored record {anchor.seq} was edited: its hash does not "
                       "match its contents", 0, GENESIS, anchor.seq)
    return None

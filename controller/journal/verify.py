"""`verify(path)`: walk the chain from the first record and report the first broken one.
`verify(path, verifier)`: the table's signatures too (signed_chain.py): every `signed_head`
record and the anchor, which must be this table's and agree with the chain."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace

from controller.journal.anchor import read_anchor
from controller.journal.readonly import open_for_scan
from controller.journal.records import GENESIS, JournalError, Record, canonical_json
from controller.journal.scan import Unreadable, scan
from controller.journal.signed_chain import SignatureProblem, SignatureWalk
from controller.journal.signing import TableVerifier


@dataclass(frozen=True)
class VerifyReport:
    ok: bool
    records: int  # records checked (up to and including the first broken one)
    head_seq: int  # seq of the last good record (0 if none)
    head_hash: str  # its hash: note it down elsewhere to detect a truncated tail later
    broken_seq: int | None = None
    reason: str | None = None
    file_damage: bool = False  # the file could not be read there (rather than a record being wrong)
    problem: str | None = None  # a signature's problem word (signed_chain.py); None: the chain's own
    signed_by: str | None = None  # "table T, key K" when signatures were checked
    signed_seq: int | None = None  # the newest record a valid signature vouches for

    def to_json(self) -> dict:
        out = {
            "ok": self.ok, "records": self.records, "head_seq": self.head_seq,
            "head_hash": self.head_hash, "broken_seq": self.broken_seq, "reason": self.reason,
        }
        if self.signed_by is not None:
            out |= {"problem": self.problem, "signed_by": self.signed_by, "signed_seq": self.signed_seq}
        return out

    def __str__(self) -> str:
        signed = "" if self.signed_by is None else f"; signed by {self.signed_by} up to record {self.signed_seq}"
        if self.ok:
            return f"ok: {self.records} records, chain intact{signed}; head {self.head_seq} {self.head_hash}"
        return (f"BROKEN at record {self.broken_seq}: {self.reason} "
                f"({self.records} records checked; last good record {self.head_seq}{signed})")


EDITED = "its hash does not match its contents (the record was edited)"


def link_problem(record: Record, prev_seq: int, prev_hash: str, *, contents_ok: bool | None = None) -> str | None:
    """What is wrong with `record` as the one after (prev_seq, prev_hash), or None.
    contents_ok: what the caller already found of the record's own hash and canonical payload
    (the pit checks each record's hash as it arrives); None: both are checked here."""
    if record.seq != prev_seq + 1:
        gap = f"record {prev_seq + 1} is" if record.seq == prev_seq + 2 else f"records {prev_seq + 1}-{record.seq - 1} are"
        return f"{gap} missing (deleted?)"
    if record.prev_hash != prev_hash:
        return f"its prev_hash does not match the hash of record {prev_seq} (a record before it was replaced)"
    if contents_ok is not None:
        return None if contents_ok else EDITED
    if record.hash != record.expected_hash():
        return EDITED
    try:
        payload = json.loads(record.payload_text)
    except ValueError as error:
        return f"its payload is not JSON ({error})"
    if not isinstance(payload, dict) or canonical_json(payload) != record.payload_text:
        return "its payload is not a canonical JSON object"
    return None




def verify(path: str | os.PathLike, verifier: TableVerifier | None = None) -> VerifyReport:
    """Check every record: seq without gaps, prev_hash = the previous record's hash, the hash
    recomputed from the record's own fields, a canonical JSON payload. Streams the file. A
    record that cannot be read (bytes that are not UTF-8, a column of the wrong type) or a
    damaged file (truncated) is the first broken record, named with what is wrong. With the
    table's `verifier`, its signatures too: every signed head in the journal, and the anchor."""
    try:
        anchor = None if verifier is None else read_anchor(path)
    except JournalError as error:
        assert verifier is not None  # only read with a verifier
        return VerifyReport(False, 0, 0, GENESIS, None, str(error), problem="anchor", signed_by=_by(verifier), signed_seq=0)
    conn, damage, size = open_for_scan(path)
    try:
        walk = None if verifier is None else SignatureWalk(conn, verifier)
        report = verify_chain(scan(conn, 0, damage, size), walk=walk)
        if walk is not None and report.ok:
            problem = walk.check_anchor(anchor, str(path), report.head_seq, report.head_hash)
            report = report if problem is None else signature_report(problem, report.records, walk)
            report = replace(report, signed_by=_by(walk.verifier), signed_seq=walk.signed_seq)
        conn.check_unchanged()
        return report
    finally:
        conn.close()


def _by(verifier: TableVerifier) -> str:
    return f"table {verifier.table}, key {verifier.key_id}"


def signature_report(problem: SignatureProblem, records: int, walk: SignatureWalk) -> VerifyReport:
    return VerifyReport(False, records, problem.good_seq, problem.good_hash, problem.broken_seq, problem.reason,
                        problem=problem.problem, signed_by=_by(walk.verifier), signed_seq=walk.signed_seq)


def verify_chain(items, since: int = 0, since_hash: str = GENESIS, walk: SignatureWalk | None = None) -> VerifyReport:
    """Check records (scan's items) that follow record `since` whose hash is `since_hash`;
    with `walk`, the signed heads among them too."""
    checked, prev_seq, prev_hash = 0, since, since_hash
    for item in items:
        checked += 1
        if isinstance(item, Unreadable):
            if item.file_damage:
                checked -= 1  # nothing was read there: no record was checked
            return VerifyReport(False, checked, prev_seq, prev_hash, item.seq, item.reason, item.file_damage)
        reason = link_problem(item, prev_seq, prev_hash)
        if reason is not None:
            return VerifyReport(False, checked, prev_seq, prev_hash, item.seq, reason)
        if walk is not None and item.kind == "signed_head":
            problem = walk.check(item)
            if problem is not None:
                return signature_report(problem, checked, walk)
        prev_seq, prev_hash = item.seq, item.hash
    return VerifyReport(True, checked, prev_seq, prev_hash)

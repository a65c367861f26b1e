"""`verify(path)`: walk the chain from the first record and report the first broken one."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from controller.journal.readonly import open_for_scan
from controller.journal.records import GENESIS, Record, canonical_json
from controller.journal.scan import Unreadable, scan


@dataclass(frozen=True)
class VerifyReport:
    ok: bool
    records: int  # records checked (up to and including the first broken one)
    head_seq: int  # seq of the last good record (0 if none)
    head_hash: str  # its hash: note it down elsewhere to detect a truncated tail later
    broken_seq: int | None = None
    reason: str | None = None
    file_damage: bool = False  # the file could not be read there (rather than a record being wrong)

    def to_json(self) -> dict:
        return {
            "ok": self.ok, "records": self.records, "head_seq": self.head_seq,
            "head_hash": self.head_hash, "broken_seq": self.broken_seq, "reason": self.reason,
        }

    def __str__(self) -> str:
        if self.ok:
            return f"ok: {self.records} records, chain intact; head {self.head_seq} {self.head_hash}"
        return (f"BROKEN at record {self.broken_seq}: {self.reason} "
                f"({self.records} records checked; last good record {self.head_seq})")


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




def verify(path: str | os.PathLike) -> VerifyReport:
    """Check every record: seq without gaps, prev_hash = the previous record's hash, the hash
    recomputed from the record's own fields, a canonical JSON payload. Streams the file. A
    record that cannot be read (bytes that are not UTF-8, a column of the wrong type) or a
    damaged file (truncated) is the first broken record, named with what is wrong."""
    conn, damage, size = open_for_scan(path)
    try:
        report = verify_chain(scan(conn, 0, damage, size))
        conn.check_unchanged()
        return report
    finally:
        conn.close()


def verify_chain(items, since: int = 0, since_hash: str = GENESIS) -> VerifyReport:
    """Check records (scan's items) that follow record `since` whose hash is `since_hash`."""
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
        prev_seq, prev_hash = item.seq, item.hash
    return VerifyReport(True, checked, prev_seq, prev_hash)

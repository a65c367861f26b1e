"""`verify(path)`: walk the chain from the first record and report the first broken one."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from controller.journal.records import GENESIS, canonical_json
from controller.journal.store import iter_records, reading


@dataclass(frozen=True)
class VerifyReport:
    ok: bool
    records: int  # records checked (up to and including the first broken one)
    head_seq: int  # seq of the last good record (0 if none)
    head_hash: str  # its hash: note it down elsewhere to detect a truncated tail later
    broken_seq: int | None = None
    reason: str | None = None

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


def _problem(record, prev_seq: int, prev_hash: str) -> str | None:
    if record.seq != prev_seq + 1:
        gap = f"record {prev_seq + 1} is" if record.seq == prev_seq + 2 else f"records {prev_seq + 1}-{record.seq - 1} are"
        return f"{gap} missing (deleted?)"
    if record.prev_hash != prev_hash:
        return f"its prev_hash does not match the hash of record {prev_seq} (a record before it was replaced)"
    if record.hash != record.expected_hash():
        return "its hash does not match its contents (the record was edited)"
    try:
        payload = json.loads(record.payload_text)
    except ValueError as error:
        return f"its payload is not JSON ({error})"
    if not isinstance(payload, dict) or canonical_json(payload) != record.payload_text:
        return "its payload is not a canonical JSON object"
    return None


chain_problem = _problem  # the same check for one record at a time (the pit, as records arrive)


def verify(path: str | os.PathLike) -> VerifyReport:
    """Check every record: seq without gaps, prev_hash = the previous record's hash, the hash
    recomputed from the record's own fields, a canonical JSON payload. Streams the file."""
    with reading(path) as conn:
        checked, prev_seq, prev_hash = 0, 0, GENESIS
        for record in iter_records(conn):
            checked += 1
            reason = _problem(record, prev_seq, prev_hash)
            if reason is not None:
                return VerifyReport(False, checked, prev_seq, prev_hash, record.seq, reason)
            prev_seq, prev_hash = record.seq, record.hash
        return VerifyReport(True, checked, prev_seq, prev_hash)

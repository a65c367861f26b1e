"""The table's signatures on a walk of the journal: every `signed_head` record and the anchor.

A `signed_head` record (signing.py) names an earlier record and its hash, signed with the
table's key. On a walk each one must be this table's (its identity, its key, a valid
signature) and must agree with the chain (the record it names has that hash). The anchor
beside the journal must exist once the journal holds records, be signed by this table, and
name a record the journal still has, with that hash. What is wrong is a `SignatureProblem`:
the first broken record where one can be named, the last record a signature still vouches
for, a problem word and a reason for people.

    foreign       signed by another table or key, or a signature that is not valid (forged)
    contradicted  a signed head names a hash the chain no longer has (rewritten at or before it)
    no_anchor     a journal with records but no anchor: what came after the last signed head
                  is vouched for by nothing (the anchor deleted, the tail perhaps cut)
    unsigned      the anchor carries no signature (a journal from before signing)
    truncated     the journal ends before the record the signed anchor names
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from controller.journal.anchor import Anchor, anchor_path
from controller.journal.kinds import RecordKind
from controller.journal.records import GENESIS, DamagedRecord, Record
from controller.journal.signing import SignedHead, TableVerifier


@dataclass(frozen=True)
class SignatureProblem:
    problem: str  # a word from the list above
    reason: str
    broken_seq: int | None  # the first record not vouched for, where one can be named
    good_seq: int  # the last record a valid signature vouches for (0: none)
    good_hash: str


class SignatureWalk:
    """Fed the records of a walk in order (`check`); remembers the newest valid signed head."""

    def __init__(self, conn: sqlite3.Connection, verifier: TableVerifier) -> None:
        self.conn, self.verifier = conn, verifier
        self.signed_seq, self.signed_hash = 0, GENESIS
        self.signatures = 0  # signed heads checked

    def check(self, record: Record) -> SignatureProblem | None:
        if record.kind != RecordKind.SIGNED_HEAD:
            return None
        try:
            head = SignedHead.from_json(record.payload)
        except (ValueError, DamagedRecord) as error:
            return self._broken("foreign", record.seq, f"its signed head is malformed ({error})")
        if head.seq >= record.seq:
            return self._broken("foreign", record.seq, f"its signed head names record {head.seq}, not one before it")
        problem = self.verifier.problem(head)
        if problem is not None:
            return self._broken("foreign", record.seq, f"its signed head of record {head.seq}: {problem}")
        actual = record.prev_hash if head.seq == record.seq - 1 else self._hash_of(head.seq)
        if actual != head.hash:
            return self._broken("contradicted", self.signed_seq + 1,
                                f"the table signed record {head.seq} with hash {head.hash[:16]}..., but it has "
                                f"{'no record there' if actual is None else actual[:16] + '...'}: the chain was "
                                f"rewritten after record {self.signed_seq} (the last signed head it agrees with) "
                                f"and at or before record {head.seq} (signed head in record {record.seq})")
        self.signatures += 1
        if head.seq > self.signed_seq:
            self.signed_seq, self.signed_hash = head.seq, head.hash
        return None

    def check_anchor(self, anchor: Anchor | None, journal: str, head_seq: int, head_hash: str) -> SignatureProblem | None:
        """After a walk that reached `head_seq` intact: the anchor as this table signed it."""
        where = anchor_path(journal)
        if anchor is None:
            if head_seq == 0:
                return None  # a new, empty journal: nothing to vouch for
            return self._broken("no_anchor", self.signed_seq + 1,
                                f"there is no anchor ({where}): records after {self.signed_seq} (the last signed head in "
                                "the journal) are vouched for by nothing: the anchor was deleted (and the tail perhaps cut)")
        if anchor.signed is None:
            return self._broken("unsigned", self.signed_seq + 1 if head_seq else None,
                                f"the anchor ({where}) is not signed: this table signs its journal "
                                "(a journal from before signing, or an unsigned table's)")
        problem = self.verifier.problem(anchor.signed)
        if problem is not None:
            return SignatureProblem("foreign", f"the anchor ({where}): {problem}", 1, 0, GENESIS)
        if anchor.seq > head_seq:
            return SignatureProblem("truncated", f"the journal ends at record {head_seq}, but its anchor names record "
                                    f"{anchor.seq}: records were cut off its end (or an older copy was put back)",
                                    head_seq + 1, head_seq, head_hash)
        actual = head_hash if anchor.seq == head_seq else self._hash_of(anchor.seq)
        if actual != anchor.hash:
            return self._broken("contradicted", self.signed_seq + 1,
                                f"the signed anchor names record {anchor.seq} with hash {anchor.hash[:16]}..., but it has "
                                f"{'no record there' if actual is None else actual[:16] + '...'}: the chain was rewritten "
                                f"after record {self.signed_seq} and at or before record {anchor.seq}")
        if anchor.seq > self.signed_seq:
            self.signed_seq, self.signed_hash = anchor.seq, anchor.hash
        return None

    def _broken(self, problem: str, broken_seq: int | None, reason: str) -> SignatureProblem:
        return SignatureProblem(problem, reason, broken_seq, self.signed_seq, self.signed_hash)

    def _hash_of(self, seq: int) -> str | None:
        if seq == 0:
            return GENESIS
        row = self.conn.execute("SELECT hash FROM records WHERE seq = ?", (seq,)).fetchone()
        return None if row is None or not isinstance(row[0], str) else row[0]

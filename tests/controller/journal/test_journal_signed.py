"""The journal's authenticity belongs to the table: its Ed25519 key signs every anchor, each
signed head is mirrored into the journal as a `signed_head` record, and the start-up check
and `verify` refuse a journal whose signed heads are missing, foreign or contradicted. Real
keys (cryptography), real SQLite files, tampered with as anyone holding the files could."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys

import pytest
from journal_history import write_history
from tampering import rehash_from, tamper

from controller.journal import Journal, anchor_path, check_journal, read_anchor, verify
from controller.journal.signing import (
    SignedHead,
    SigningKeyError,
    TableSigner,
    TableVerifier,
    load_private_key,
    new_key_pair,
    public_key_path,
)
from simulation.rig.processes import ROOT, child_env


@pytest.fixture
def key(tmp_path):
    path = tmp_path / "keys" / "table.key"
    path.parent.mkdir()
    new_key_pair(path)
    return path


@pytest.fixture
def signer(key):
    return TableSigner.from_file(key, "t12")


def other_signer(tmp_path, table="t12"):
    path = tmp_path / "other" / "table.key"
    path.parent.mkdir(exist_ok=True)
    new_key_pair(path)
    return TableSigner.from_file(path, table)


def signed_journal(path, signer, checkpoints=3):
    """write_history (26 records) `checkpoints` times, anchored and mirrored after each, as the
    daemon does at its checkpoints; then 3 records after the last anchor."""
    with Journal(path, signer=signer) as journal:
        journal.anchor(mirror=True)  # at start: the empty chain's head, signed
        for _ in range(checkpoints):
            write_history(journal)
            journal.anchor(mirror=True)
        for n in range(3):
            journal.append("card", {"round": 4, "card": "9s", "n": n})
    return path


def kinds(path):
    import sqlite3
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("SELECT kind FROM records ORDER BY seq")]
    finally:
        conn.close()


# ---------------------------------------------------------------- keys and signed heads

def test_the_key_pair_is_written_private_0600_and_public_0644(key):
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(public_key_path(key)).st_mode) == 0o644
    assert key.read_text().startswith("-----BEGIN PRIVATE KEY-----")
    load_private_key(key)


def test_a_private_key_the_group_may_read_is_refused(key):
    key.chmod(0o640)
    with pytest.raises(SigningKeyError, match="mode 0640 lets others than its owner read it"):
        load_private_key(key)


def test_a_signed_head_verifies_only_for_its_table_and_key(signer, tmp_path):
    head = signer.sign(7, "ab" * 32)
    verifier = TableVerifier.from_public_file(public_key_path(tmp_path / "keys" / "table.key"), "t12")
    assert verifier.problem(head) is None
    assert "signed as table 't12', not 't13'" in TableVerifier(signer.public, "t13").problem(head)
    stranger = other_signer(tmp_path)
    assert "not this table's key" in TableVerifier(stranger.public, "t12").problem(head)
    forged = SignedHead(head.table, 8, head.hash, head.key_id, head.signature)  # another seq, the same signature
    assert "signature is not valid" in verifier.problem(forged)


def test_every_anchor_is_signed_and_mirrored_into_the_journal(journal_path, signer):
    signed_journal(journal_path, signer)
    anchor = read_anchor(journal_path)
    assert anchor.signed is not None and (anchor.signed.seq, anchor.signed.hash) == (anchor.seq, anchor.hash)
    assert json.loads(anchor_path(journal_path).read_text())["format"] == 2
    found = kinds(journal_path)
    assert found.count("signed_head") == 4  # at start and after each of 3 checkpoints
    assert found[anchor.seq] == "signed_head"  # record anchor.seq + 1 mirrors the anchor
    report = verify(journal_path, signer)
    assert report.ok and report.signed_seq == anchor.seq, report
    assert str(report).startswith(f"ok: {len(found)} records, chain intact; signed by table t12, key {signer.key_id} "
                                  f"up to record {anchor.seq}; head {len(found)} ")
    check = check_journal(journal_path, signer)
    assert check.ok, check


# ---------------------------------------------------------------- what the signatures catch

def test_a_deleted_anchor_and_a_cut_tail_are_refused(journal_path, signer):
    signed_journal(journal_path, signer)
    last_mirror = max(i + 1 for i, k in enumerate(kinds(journal_path)) if k == "signed_head")
    tamper(journal_path, "DELETE FROM records WHERE seq > ?", last_mirror + 5)  # the tail cut...
    anchor_path(journal_path).unlink()  # ...and the anchor that would show it, deleted
    assert check_journal(journal_path).ok  # what the chain alone cannot see: the case the key is for
    check = check_journal(journal_path, signer)
    signed = json.loads(_payload(journal_path, last_mirror))["seq"]
    assert (check.ok, check.problem, check.broken_seq, check.head_seq) == (False, "no_anchor", signed + 1, signed), check
    assert check.reason.startswith(f"there is no anchor ({anchor_path(journal_path)}): records after {signed} (the last "
                                   "signed head in the journal) are vouched for by nothing")
    report = verify(journal_path, signer)
    assert (report.ok, report.broken_seq, report.head_seq, report.reason) == (False, check.broken_seq, check.head_seq,
                                                                            check.reason)


def test_an_edit_before_the_last_anchor_is_refused_naming_the_record(journal_path, signer):
    signed_journal(journal_path, signer)
    anchor = read_anchor(journal_path)
    tamper(journal_path, "UPDATE records SET payload = replace(payload, '}', ',\"x\":1}') WHERE seq = 10")
    assert check_journal(journal_path, signer, full=False).ok  # the fast part alone does not walk there...
    check = check_journal(journal_path, signer)  # ...the full check does
    assert (check.ok, check.problem, check.broken_seq, check.head_seq) == (False, "broken_chain", 10, 9), check
    assert check.reason == "its hash does not match its contents (the record was edited)"
    assert 10 < anchor.seq
    report = verify(journal_path, signer)
    assert (report.broken_seq, report.head_seq, report.reason) == (10, 9, check.reason)


def test_a_chain_recomputed_after_an_edit_contradicts_its_signed_heads(journal_path, signer):
    signed_journal(journal_path, signer)
    anchor = read_anchor(journal_path)
    mirrors = [i + 1 for i, k in enumerate(kinds(journal_path)) if k == "signed_head"]
    first_signed = json.loads(_payload(journal_path, mirrors[1]))["seq"]  # the first checkpoint's signed head
    tamper(journal_path, "UPDATE records SET payload = replace(payload, '}', ',\"x\":1}') WHERE seq = ?", first_signed + 10)
    rehash_from(journal_path, first_signed + 10)  # every hash after it recomputed: the chain verifies again
    assert verify(journal_path).ok
    check = check_journal(journal_path, signer)
    # the fast check sees the anchored record's hash changed; the walk names where the signatures stop agreeing
    assert (check.ok, check.problem, check.broken_seq, check.head_seq) == (False, "rewritten", first_signed + 1,
                                                                          first_signed), check
    assert f"the chain was rewritten after record {first_signed}" in check.reason
    assert anchor.seq > first_signed


def test_another_tables_journal_with_its_anchor_is_refused(tmp_path, journal_path, signer):
    other = tmp_path / "other.sqlite"
    signed_journal(other, other_signer(tmp_path))  # another table, its own key, the same table id even
    for suffix in ("", "-wal", "-shm", ".anchor"):
        if os.path.exists(f"{other}{suffix}"):
            shutil.copy(f"{other}{suffix}", f"{journal_path}{suffix}")
    assert check_journal(journal_path).ok  # intact as a chain, anchored: only the key tells
    check = check_journal(journal_path, signer)
    assert (check.ok, check.problem, check.broken_seq, check.head_seq) == (False, "foreign", 1, 0), check
    assert "not this table's key" in check.reason
    assert not verify(journal_path, signer).ok


def test_the_same_key_under_another_table_identity_is_refused(journal_path, key, signer):
    signed_journal(journal_path, signer)
    check = check_journal(journal_path, TableSigner.from_file(key, "t13"))
    assert (check.ok, check.problem) == (False, "foreign")
    assert "signed as table 't12', not 't13'" in check.reason


def test_an_unsigned_journal_is_refused_by_a_signing_table(journal_path, signer):
    with Journal(journal_path) as journal:
        write_history(journal)
        journal.anchor()
    check = check_journal(journal_path, signer)
    assert (check.ok, check.problem) == (False, "unsigned")
    assert check.reason.endswith("is not signed: this table signs its journal (a journal from before signing, or an "
                                 "unsigned table's)")


def test_a_forged_signed_head_record_is_refused(journal_path, signer, tmp_path):
    signed_journal(journal_path, signer)
    forger = other_signer(tmp_path)
    with Journal(journal_path, signer=forger) as journal:  # a signed_head signed by someone else, in the chain
        journal.append("signed_head", forger.sign(journal.head_seq, journal.head_hash).to_json())
        forged = journal.head_seq
    check = check_journal(journal_path, signer)
    assert (check.ok, check.problem, check.broken_seq) == (False, "foreign", forged), check
    assert f"its signed head of record {forged - 1}: it is signed with key {forger.key_id}" in check.reason


def test_journal_verify_checks_signatures_with_the_public_key(journal_path, signer, key):
    signed_journal(journal_path, signer)
    anchor_path(journal_path).unlink()
    base = [sys.executable, "-m", "cli", "journal", "verify", "--journal", str(journal_path)]
    plain = subprocess.run(base, cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=60)
    assert plain.returncode == 0  # the chain alone is intact
    signed = subprocess.run([*base, "--public-key", str(public_key_path(key)), "--table", "t12", "--json"], cwd=ROOT,
                            env=child_env(), capture_output=True, text=True, timeout=60)
    assert signed.returncode == 1, signed.stderr
    report = json.loads(signed.stdout)
    assert report["problem"] == "no_anchor" and report["signed_by"] == f"table t12, key {signer.key_id}"


def _payload(path, seq):
    import sqlite3
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT payload FROM records WHERE seq = ?", (seq,)).fetchone()[0]
    finally:
        conn.close()

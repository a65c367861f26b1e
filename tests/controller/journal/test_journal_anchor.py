"""The anchor (the head's seq and hash in a file beside the journal, written atomically) and
the start-up check built on it: every kind of damage the campaign found is detected on real
files, tampered with through SQLite or byte by byte, as anyone with the files could."""
from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys

import pytest
from journal_history import write_history
from tampering import rehash_from, tamper

from controller.journal import (
    GENESIS,
    Journal,
    JournalError,
    JournalFull,
    anchor_path,
    check_journal,
    read_anchor,
    verify,
)


@pytest.fixture
def anchored(journal_path):
    """26 records, anchored at 20 (a checkpoint), then 6 more: the daemon's usual state."""
    with Journal(journal_path) as journal:
        write_history(journal)
        conn = journal.connection
        conn.execute("DELETE FROM records WHERE seq > 20")  # rewind to 20 to anchor there...
        journal.head_seq, journal.head_hash = 20, conn.execute("SELECT hash FROM records WHERE seq = 20").fetchone()[0]
        journal.anchor()
        for n in range(6):  # ...and write 6 more after the anchor
            journal.append("card", {"round": 4, "card": "9s", "n": n})
    return journal_path
# ---------------------------------------------------------------- the anchor file

def test_anchor_names_the_head_and_the_chain(journal, journal_path):
    write_history(journal)
    written = journal.anchor()
    assert (written.seq, written.hash) == (26, journal.head_hash)
    assert written.first_hash == journal.connection.execute("SELECT hash FROM records WHERE seq = 1").fetchone()[0]
    assert read_anchor(journal_path) == written == journal.anchored
    data = json.loads(anchor_path(journal_path).read_text())
    assert data == {"format": 1, "seq": 26, "hash": written.hash, "first_hash": written.first_hash, "at": written.at}
    assert stat.S_IMODE(os.stat(anchor_path(journal_path)).st_mode) == 0o640
    assert sorted(os.listdir(journal_path.parent)) == sorted(  # no temporary file left
        ["journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm", "journal.sqlite.anchor"])


def test_an_empty_chain_can_be_anchored(journal, journal_path):
    assert journal.anchor().to_json() | {"at": None} == {"format": 1, "seq": 0, "hash": GENESIS, "first_hash": None, "at": None}
    assert check_journal(journal_path).ok


ANCHOR_WRITER = """
import sys
from controller.journal import Journal
journal = Journal(sys.argv[1])
for n in range(30):
    journal.append("card", {"n": n})
print("START", flush=True)
journal.anchor()
print("END", flush=True)
"""


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed (.ci/setup should install it)")
def test_anchoring_fsyncs_the_wal_the_new_file_and_the_directory_and_renames(tmp_path):
    """Records anchored are durable; the anchor replaces the old one atomically."""
    trace = subprocess.run(["strace", "-f", "-qq", "-e", "trace=fsync,fdatasync,rename,renameat,renameat2,write",
                            sys.executable, "-c", ANCHOR_WRITER, str(tmp_path / "journal.sqlite")],
                           capture_output=True, text=True)
    assert trace.returncode == 0, trace.stderr[-2000:]
    calls = trace.stderr.splitlines()
    calls = calls[next(i for i, c in enumerate(calls) if "START" in c):next(i for i, c in enumerate(calls) if "END" in c)]
    syncs = [c for c in calls if c.startswith(("fsync(", "fdatasync("))]
    renames = [c for c in calls if c.startswith("rename")]
    assert len(syncs) == 3, calls  # the WAL, the new anchor, the directory
    assert len(renames) == 1 and ".journal.sqlite.anchor." in renames[0] and 'journal.sqlite.anchor"' in renames[0]
    order = [c.split("(")[0] for c in calls if c.startswith(("fsync(", "fdatasync(", "rename"))]
    assert order[:2] == ["fsync", "fsync"] and order[2].startswith("rename") and order[3] == "fsync"


def test_a_damaged_anchor_is_reported(journal, journal_path):
    journal.append("daemon_started", {})
    journal.anchor()
    anchor_path(journal_path).write_text('{"format": 1, "seq": 1, "hash": "zz"}')
    with pytest.raises(JournalError, match=r"journal.sqlite.anchor: the anchor is damaged \('first_hash'\)"):
        read_anchor(journal_path)
    found = check_journal(journal_path)
    assert (found.ok, found.problem) == (False, "anchor") and "the anchor is damaged" in found.reason


# ---------------------------------------------------------------- the start-up check: good journals

def test_the_first_start_is_ok(journal_path):
    found = check_journal(journal_path)
    assert (found.ok, found.head_seq, found.anchor, found.checked) == (True, 0, None, 0)


def test_an_intact_anchored_journal_checks_only_the_records_since_the_anchor(anchored):
    found = check_journal(anchored)
    assert (found.ok, found.head_seq, found.checked, found.anchor.seq) == (True, 26, 6, 20)
    assert found.head_hash == verify(anchored).head_hash
    assert str(found) == f"ok: anchored at record 20; 6 records checked; head 26 {found.head_hash}"


def test_without_an_anchor_the_whole_chain_is_checked(journal, journal_path):
    write_history(journal)  # a journal from before anchors existed
    journal.close()
    found = check_journal(journal_path)
    assert (found.ok, found.checked, found.anchor) == (True, 26, None)
    assert str(found).startswith("ok: no anchor: every record; 26 records checked; head 26 ")


def test_the_check_runs_while_a_writer_holds_the_journal(anchored):
    with Journal(anchored) as writer:
        writer.append("daemon_started", {})
        assert check_journal(anchored).ok


# ---------------------------------------------------------------- the start-up check: what it detects

def expect_broken(path, problem, broken_seq, reason_start):
    found = check_journal(path)
    assert not found.ok, found
    assert (found.problem, found.broken_seq) == (problem, broken_seq), found
    assert found.reason.startswith(reason_start), found.reason
    return found


def test_an_edited_record_after_the_anchor(anchored):
    tamper(anchored, "UPDATE records SET payload = replace(payload, '9s', 'Ks') WHERE seq = 23")
    found = expect_broken(anchored, "broken_chain", 23, "its hash does not match its contents (the record was edited)")
    assert found.head_seq == 22
    assert str(found).startswith("BROKEN at record 23 (broken_chain): its hash does not match its contents")


def test_reordered_records_after_the_anchor(anchored):
    conn = sqlite3.connect(anchored)
    a, b = (conn.execute("SELECT at, mono_ns, kind, round, payload, prev_hash, hash FROM records WHERE seq = ?", (s,)).fetchone()
            for s in (22, 24))
    for seq, row in ((22, b), (24, a)):
        conn.execute("UPDATE records SET at=?, mono_ns=?, kind=?, round=?, payload=?, prev_hash=?, hash=? WHERE seq = ?", (*row, seq))
    conn.commit()
    conn.close()
    expect_broken(anchored, "broken_chain", 22, "its prev_hash does not match the hash of record 21")


def test_a_record_deleted_after_the_anchor(anchored):
    tamper(anchored, "DELETE FROM records WHERE seq = 24")
    expect_broken(anchored, "broken_chain", 25, "record 24 is missing (deleted?)")


def test_records_deleted_before_the_anchor(anchored):
    tamper(anchored, "DELETE FROM records WHERE seq IN (3, 4)")
    found = expect_broken(anchored, "deleted", 5, "records 3-4 are missing (deleted?)")
    assert (found.broken_seq, found.head_seq, found.reason) == (verify(anchored).broken_seq, 2, verify(anchored).reason)


def test_a_byte_corrupted_record_after_the_anchor(anchored):
    """One byte of a record's text flipped in the file itself, not through SQLite."""
    with Journal(anchored) as journal:  # the records are in the WAL until a checkpoint copies them in
        journal.checkpoint()
    raw = bytearray(anchored.read_bytes())
    target = b'"n":3'  # record 24's payload: {"card":"9s","n":3,"round":4}
    at = raw.find(target)
    assert at > 0 and raw.find(target, at + 1) < 0
    raw[at + 4] ^= 0x01  # "3" -> "2": same length, the page stays well-formed
    anchored.write_bytes(bytes(raw))
    expect_broken(anchored, "broken_chain", 24, "its hash does not match its contents")


def test_a_truncated_tail(anchored):
    """Records cut off the end, back to before the anchor: the chain alone still verifies."""
    tamper(anchored, "DELETE FROM records WHERE seq > 15")
    assert verify(anchored).ok
    found = expect_broken(anchored, "truncated", 16, "the journal ends at record 15, but its anchor names record 20: "
                                               "records were cut off its end (or an older copy was put back)")
    assert found.head_seq == 15


def test_a_file_truncated_by_bytes(anchored):
    with Journal(anchored) as journal:
        for n in range(3000):
            journal.append("card", {"round": 5, "n": n})
        journal.anchor()
    os.truncate(anchored, os.path.getsize(anchored) // 2)
    found = check_journal(anchored)
    assert not found.ok and found.problem in ("truncated", "damaged"), found


def test_an_older_copy_put_back(anchored, tmp_path):
    older = tmp_path / "older.sqlite"
    shutil.copy(anchored, older)  # a copy at 26 records (its WAL is in the file: the writer closed)
    with Journal(anchored) as journal:
        for n in range(10):
            journal.append("card", {"round": 5, "n": n})
        journal.anchor()  # anchored at 36
    os.replace(older, anchored)
    expect_broken(anchored, "truncated", 27, "the journal ends at record 26, but its anchor names record 36")


def test_a_replaced_file(anchored, tmp_path):
    other = tmp_path / "other.sqlite"
    with Journal(other) as journal:
        write_history(journal)  # another table's journal: same shape, another chain
        for n in range(10):
            journal.append("card", {"n": n})
    os.replace(other, anchored)
    expect_broken(anchored, "replaced", 1, "record 1 is not the anchored chain's first record")


def test_the_anchored_record_edited(anchored):
    tamper(anchored, "UPDATE records SET payload = '{\"round\":4}' WHERE seq = 20")
    expect_broken(anchored, "broken_chain", 20, "its hash does not match its contents (the record was edited)")


def test_the_chain_rewritten_up_to_the_anchor(anchored):
    tamper(anchored, "UPDATE records SET payload = replace(payload, '\"win\"', '\"lose\"') WHERE seq = 10")
    rehash_from(anchored, 10)
    assert verify(anchored).ok  # a consistent forgery: only the anchor shows it
    expect_broken(anchored, "rewritten", 20, "the anchored record 20 has another hash than the anchor says")


def test_the_journal_missing_next_to_its_anchor(anchored):
    os.unlink(anchored)
    found = expect_broken(anchored, "missing", None, "there is no journal, but its anchor")
    assert "names record 20: it was deleted or moved" in found.reason
    with pytest.raises(JournalError, match="the journal is missing, but its anchor names record 20: not starting a new chain"):
        Journal(anchored)
    assert not anchored.exists()  # nothing was created


@pytest.mark.parametrize("with_anchor", [True, False])
def test_a_0_byte_journal_is_never_a_new_chain(anchored, with_anchor):
    """The campaign's failure: a journal truncated to 0 bytes became a fresh chain at round 1."""
    if not with_anchor:
        os.unlink(anchor_path(anchored))
    os.truncate(anchored, 0)
    for leftover in ("-wal", "-shm"):
        if os.path.exists(f"{anchored}{leftover}"):
            os.unlink(f"{anchored}{leftover}")
    expect_broken(anchored, "empty", None, "the journal is 0 bytes (emptied or truncated)")
    with pytest.raises(JournalError, match=r"the journal is 0 bytes \(emptied or truncated\): not starting a new chain"):
        Journal(anchored)
    assert os.path.getsize(anchored) == 0  # left as found, for the supervisor


def test_a_file_that_is_no_journal(journal_path):
    journal_path.write_text("hello")
    found = check_journal(journal_path)
    assert (found.ok, found.problem) == (False, "unreadable") and "cannot read the journal" in found.reason
    with pytest.raises(JournalError):
        Journal(journal_path)


def test_edits_before_the_anchor_are_left_to_the_full_verify(anchored):
    """What the fast check does not see, by design: a record before the anchor edited without
    touching the anchored one. `tablectl journal verify` (every record) finds it."""
    tamper(anchored, "UPDATE records SET payload = replace(payload, '\"win\"', '\"lose\"') WHERE seq = 10")
    assert check_journal(anchored).ok
    assert verify(anchored).broken_seq == 10


def test_a_new_journal_appears_whole(journal_path):
    """Created under another name and linked into place: never a 0-byte file to be found."""
    with Journal(journal_path) as journal:
        assert journal.head_seq == 0
    assert os.path.getsize(journal_path) > 0 and stat.S_IMODE(os.stat(journal_path).st_mode) == 0o640
    assert os.listdir(journal_path.parent) == ["journal.sqlite"]


def test_anchor_writes_are_atomic_replacements(journal, journal_path):
    journal.append("a", {})
    first = journal.anchor()
    inode = os.stat(anchor_path(journal_path)).st_ino
    journal.append("b", {})
    second = journal.anchor()
    assert os.stat(anchor_path(journal_path)).st_ino != inode and read_anchor(journal_path) == second != first


def test_a_failed_anchor_write_leaves_the_old_one(journal, journal_path, monkeypatch):
    """ENOSPC at the new anchor's fsync (a real full disk is in test_journal_disk_full.py)."""
    journal.append("a", {})
    first = journal.anchor()
    real_fsync = os.fsync

    def fsync(fd):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    journal.append("b", {})
    with pytest.raises(JournalFull, match="the disk is full: cannot write the anchor of record 2"):
        journal.anchor()
    assert read_anchor(journal_path) == first
    assert [n for n in os.listdir(journal_path.parent) if n.endswith(".tmp")] == []


# ---------------------------------------------------------------- `tablectl journal check`

def test_journal_check_prints_what_the_start_up_check_finds(capsys, anchored):
    from cli import main

    assert main(["journal", "check", "--journal", str(anchored)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{anchored}: ok: anchored at record 20; 6 records checked; head 26 ")
    tamper(anchored, "DELETE FROM records WHERE seq > 15")
    assert main(["journal", "check", "--journal", str(anchored)]) == 1
    assert capsys.readouterr().out == (
        f"{anchored}: BROKEN at record 16 (truncated): the journal ends at record 15, but its anchor names record 20: "
        "records were cut off its end (or an older copy was put back) (anchored at record 20; last good record 15)\n")
    assert main(["journal", "check", "--json", "--journal", str(anchored)]) == 1
    found = json.loads(capsys.readouterr().out)
    assert (found["ok"], found["problem"], found["broken_seq"], found["anchor"]["seq"]) == (False, "truncated", 16, 20)

"""The documented recovery: archive the broken journal (with its -wal, -shm and anchor) and
start a new chain whose first record names the old head, what was wrong and who did it."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest
from journal_history import write_history

from controller.journal import (
    CHAIN_STARTED,
    Journal,
    JournalError,
    anchor_path,
    check_journal,
    read_anchor,
    recover,
    start_new_chain,
    verify,
)

ALICE = {"user": "alice", "uid": 1001, "pid": 4242}


KILLED_WRITER = """
import sys, time
sys.path[:0] = sys.argv[2:]
from journal_history import write_history
from controller.journal import Journal
journal = Journal(sys.argv[1])
write_history(journal)
journal.anchor()                                    # at 26
journal.append("card", {"round": 4, "card": "9s"})  # 27, after the anchor
print("ready", flush=True)
time.sleep(60)
"""


@pytest.fixture
def broken(journal_path):
    """An anchored journal whose record 27 (after the anchor) was edited, left as a killed
    daemon leaves it: -wal and -shm beside it."""
    here = os.path.dirname(__file__)
    writer = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(journal_path), here], stdout=subprocess.PIPE)
    try:
        assert writer.stdout.readline() == b"ready\n"
        conn = sqlite3.connect(journal_path)  # tampered while the writer runs: its WAL stays
        conn.execute("UPDATE records SET payload = replace(payload, '9s', 'Ks') WHERE seq = 27")
        conn.commit()
        conn.close()
    finally:
        writer.kill()
        writer.wait()
        writer.stdout.close()
    assert os.path.exists(f"{journal_path}-wal") and os.path.exists(f"{journal_path}-shm")
    assert check_journal(journal_path).problem == "broken_chain"
    return journal_path


def archived_files(directory, stem="journal.sqlite.archived-"):
    return sorted(name for name in os.listdir(directory) if name.startswith(stem))


def test_a_broken_journal_is_archived_and_a_new_chain_names_it(broken):
    old_anchor = read_anchor(broken)
    done = start_new_chain(broken, by=ALICE, reason="record 27 edited; police report 17")
    try:
        first = done.first
        assert (first.seq, first.kind, first.round) == (1, CHAIN_STARTED, None)
        payload = first.payload
        assert payload["by"] == ALICE and payload["reason"] == "record 27 edited; police report 17"
        previous = payload["previous"]
        assert previous["problem"] == "broken_chain" and previous["broken_seq"] == 27
        assert previous["reason"].startswith("its hash does not match its contents")
        assert previous["verified_head"]["seq"] == 26 and previous["anchor"] == old_anchor.to_json()
        assert previous["last_record"]["seq"] == 27
        names = archived_files(broken.parent)
        base = previous["archived_as"]
        assert base.startswith("journal.sqlite.archived-") and base in names
        assert set(names) == {base, f"{base}-wal", f"{base}-shm", f"{base}.anchor"}
        # the new chain: anchored at its first record, checked ok, usable
        assert read_anchor(broken).seq == 1 and done.journal.anchored.seq == 1
        record = done.journal.append("daemon_started", {"pid": 1})
        assert record.seq == 2 and record.prev_hash == first.hash
    finally:
        done.journal.close()
    assert check_journal(broken).ok and recover(broken).next_round == 1
    # nothing was lost: the archived journal still says what it said, records and damage
    archived = broken.parent / base
    report = verify(archived)
    assert (report.ok, report.broken_seq, report.head_seq) == (False, 27, 26)


def test_a_missing_journal_next_to_its_anchor(journal_path):
    with Journal(journal_path) as journal:
        write_history(journal)
        old = journal.anchor()
    os.unlink(journal_path)
    with start_new_chain(journal_path, by=ALICE, reason="journal deleted").journal as journal:
        previous = journal.records().__next__().payload["previous"]
    assert previous["problem"] == "missing" and previous["archived_as"] is None
    assert previous["anchor"] == old.to_json() and previous["last_record"] is None
    names = archived_files(journal_path.parent)
    assert len(names) == 1 and names[0].endswith(".anchor")
    assert check_journal(journal_path).ok


def test_a_0_byte_journal(journal_path):
    with Journal(journal_path) as journal:
        write_history(journal)
    os.truncate(journal_path, 0)
    with start_new_chain(journal_path, by=ALICE, reason="emptied").journal as journal:
        assert journal.head_seq == 1
    names = archived_files(journal_path.parent)
    assert len(names) == 1 and os.path.getsize(journal_path.parent / names[0]) == 0  # kept as found


def test_refused_while_a_daemon_writes_the_journal(journal, journal_path):
    journal.append("daemon_started", {})
    with pytest.raises(JournalError, match="another process is writing this journal"):
        start_new_chain(journal_path, by=ALICE, reason="x")
    assert archived_files(journal_path.parent) == []


@pytest.mark.parametrize("by, reason, message", [
    ({}, "x", "needs who started it"), ({"user": ""}, "x", "needs who started it"), ("alice", "x", "needs who started it"),
    (ALICE, " ", "needs a reason"),
])
def test_who_and_why_are_required(broken, by, reason, message):
    with pytest.raises(JournalError, match=message):
        start_new_chain(broken, by=by, reason=reason)
    assert archived_files(broken.parent) == []


def test_two_recoveries_in_one_second_do_not_collide(broken):
    start_new_chain(broken, by=ALICE, reason="first").journal.close()
    start_new_chain(broken, by=ALICE, reason="second").journal.close()
    bases = [n for n in archived_files(broken.parent) if not n.endswith(("-wal", "-shm", ".anchor"))]
    assert len(bases) == 2
    assert anchor_path(broken).exists()

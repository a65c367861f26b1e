"""Journal.append_many: several records in one SQLite transaction (the daemon writes an input
and its effects' records this way), on a real file: all or nothing, chained like single
appends, a durable commit when any entry is durable, and JournalBusy while another
connection holds the write lock."""
import os
import sqlite3

import pytest

from controller.journal import Journal, JournalBusy, JournalError, JournalFull, iter_records, open_readonly, verify


def kinds(path):
    conn = open_readonly(path)
    try:
        return [r.kind for r in iter_records(conn)]
    finally:
        conn.close()


def test_records_are_chained_as_single_appends_are(journal, journal_path):
    first = journal.append("daemon_started", {})
    batch = journal.append_many([("device", {"event": "CardDrawn"}, None, False),
                                 ("card", {"round": 2, "card": "As"}, None, False),
                                 ("result", {"round": 2, "winner": "player"}, None, True)])
    assert [r.seq for r in batch] == [2, 3, 4]
    assert [r.prev_hash for r in batch] == [first.hash, batch[0].hash, batch[1].hash]
    assert batch[1].round == 2 and (journal.head_seq, journal.head_hash) == (4, batch[-1].hash)
    assert kinds(journal_path) == ["daemon_started", "device", "card", "result"]
    assert verify(journal_path).ok
    assert journal.append_many([]) == []


def test_a_bad_entry_anywhere_writes_nothing(journal, journal_path):
    journal.append("a", {})
    head = (journal.head_seq, journal.head_hash)
    with pytest.raises(JournalError, match="payload is not plain JSON"):
        journal.append_many([("b", {}, None, False), ("c", {"x": {1, 2}}, None, True)])
    with pytest.raises(JournalError, match="round=3 but the payload says round 4"):
        journal.append_many([("b", {"round": 4}, 3, False)])
    assert (journal.head_seq, journal.head_hash) == head
    assert kinds(journal_path) == ["a"]


def test_a_failure_inside_the_transaction_rolls_all_of_it_back(journal, journal_path):
    """A TEMP trigger makes SQLite itself refuse the second row, after the first was inserted."""
    journal.append("a", {})
    journal.connection.execute("CREATE TEMP TRIGGER boom BEFORE INSERT ON records WHEN NEW.kind = 'boom' "
                               "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
    with pytest.raises(JournalError, match="refused by the test"):
        journal.append_many([("b", {}, None, False), ("boom", {}, None, True)])
    assert kinds(journal_path) == ["a"]
    journal.connection.execute("DROP TRIGGER boom")
    journal.append_many([("b", {}, None, False), ("c", {}, None, True)])
    assert kinds(journal_path) == ["a", "b", "c"] and verify(journal_path).ok


def test_durable_commits_leave_the_connection_at_normal_sync(journal):
    journal.append_many([("a", {}, None, False), ("result", {}, None, True)])
    journal.append_many([("settled", {}, None, True)])
    assert journal.connection.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert not journal.connection.in_transaction


def test_busy_while_another_connection_holds_the_write_lock_then_the_retry_works(journal, journal_path):
    journal.append("a", {})
    journal.connection.execute("PRAGMA busy_timeout = 50")  # the default 5 s would only slow the test
    other = sqlite3.connect(journal_path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(JournalBusy, match="database is locked"):
            journal.append_many([("b", {}, None, False), ("c", {}, None, True)])
        with pytest.raises(JournalBusy):
            journal.append("b", {})
        assert journal.head_seq == 1
    finally:
        other.execute("ROLLBACK")
        other.close()
    journal.append_many([("b", {}, None, False), ("c", {}, None, True)])
    assert kinds(journal_path) == ["a", "b", "c"] and verify(journal_path).ok


def test_sync_always_needs_no_switch(tmp_path):
    with Journal(tmp_path / "j.sqlite", sync="always") as journal:
        journal.append_many([("a", {}, None, False), ("b", {}, None, True)])
        assert journal.connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_append_batch_writes_what_append_many_writes_without_records_back(journal, journal_path, tmp_path):
    from controller.journal import Journal
    entries = [("device", {"event": "CardDrawn"}, None, False), ("result", {"round": 2, "winner": "player"}, None, True)]
    assert journal.append_batch(entries) is None
    other = Journal(tmp_path / "other.sqlite")
    try:
        other.append_many(entries)
        assert [(r.seq, r.kind, r.round, r.payload_text) for r in other.records()] == \
               [(r.seq, r.kind, r.round, r.payload_text) for r in journal.records()]
    finally:
        other.close()
    assert journal.head_seq == 2 and journal.head_hash == list(journal.records())[-1].hash
    assert kinds(journal_path) == ["device", "result"] and verify(journal_path).ok


def test_a_durable_append_fsyncs_the_wal_after_its_commit_and_a_plain_one_does_not(journal, monkeypatch):
    """os.fsync observed, not replaced: it still runs."""
    synced: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real_fsync(fd))[1])
    journal.append_batch([("device", {"event": "CardDrawn"}, None, False)])
    assert synced == []
    journal.append_batch([("device", {"event": "CardDrawn"}, None, False), ("result", {"round": 1}, None, True)])
    assert synced == [f"{journal.path.resolve()}-wal"]


def test_an_fsync_that_fails_after_the_commit_is_never_taken_for_a_full_disk(journal, monkeypatch):
    """os.fsync raising ENOSPC stands for a disk that fails the fsync (no real disk here fails
    one on cue). The records are committed but not durable: JournalFull would let the daemon
    append them again, so it is a plain JournalError naming them."""
    import errno

    def failing(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(JournalError, match=r"records 1-1 are committed but the fsync") as raised:
        journal.append_batch([("result", {"round": 1}, None, True)])
    assert not isinstance(raised.value, JournalFull)
    assert journal.head_seq == 1

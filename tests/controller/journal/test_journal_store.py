"""The journal writer on a real SQLite file: commit on append, the hash chain, reopening,
one writer only, read-only readers alongside, and clear errors for bad records and files."""
import json
import shutil
import sqlite3
import subprocess
import sys
import threading

import pytest

from controller.config import default_config
from controller.journal import GENESIS, Journal, JournalError, iter_records, open_readonly, record_hash


def test_append_commits_a_chained_record_with_canonical_payload(journal, journal_path):
    first = journal.append("daemon_started", {"version": "1", "a": [1, 2]})
    second = journal.append("card", {"round": 3, "card": "As", "hand": "player"})
    assert (first.seq, first.prev_hash, second.seq, second.prev_hash) == (1, GENESIS, 2, first.hash)
    assert first.payload_text == '{"a":[1,2],"version":"1"}'
    assert second.round == 3 and second.payload == {"round": 3, "card": "As", "hand": "player"}
    assert second.hash == record_hash(first.hash, 2, second.at, second.mono_ns, "card", 3, second.payload_text)
    assert second.at.endswith("Z") and second.mono_ns >= first.mono_ns
    conn = open_readonly(journal_path)  # another connection sees it: it was committed
    assert [r for r in iter_records(conn)] == [first, second]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_reopening_continues_the_chain(journal_path):
    with Journal(journal_path) as writer:
        last = writer.append("a", {})
    with Journal(journal_path) as writer:
        assert (writer.head_seq, writer.head_hash) == (1, last.hash)
        assert writer.append("b", {}).prev_hash == last.hash


def test_a_second_writer_is_refused_in_this_process_and_in_another(journal, journal_path):
    with pytest.raises(JournalError, match="another process is writing this journal"):
        Journal(journal_path)
    other = subprocess.run([sys.executable, "-c", f"from controller.journal import Journal; Journal({str(journal_path)!r})"],
                           capture_output=True, text=True)
    assert other.returncode == 1 and "another process is writing this journal" in other.stderr


def test_the_lock_goes_with_close(journal_path):
    Journal(journal_path).close()
    with Journal(journal_path) as again:
        assert again.head_seq == 0


def test_readers_see_a_snapshot_and_cannot_write(journal, journal_path):
    journal.append("a", {})
    conn = open_readonly(journal_path)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        conn.execute("DELETE FROM records")
    journal.append("b", {})
    assert [r.kind for r in iter_records(conn)] == ["a", "b"]
    conn.close()


def test_appends_belong_to_the_thread_that_opened_the_journal(journal):
    errors = []
    thread = threading.Thread(target=lambda: _try(journal, errors))
    thread.start()
    thread.join()
    assert len(errors) == 1 and "the journal belongs to the thread that opened it" in str(errors[0])
    assert journal.append("from_the_owner", {}).seq == 1


def _try(journal, errors):
    try:
        journal.append("from_another_thread", {})
    except Exception as error:  # noqa: BLE001 - the test inspects it
        errors.append(error)


@pytest.mark.parametrize("args, message", [
    (("", {}), "record kind must be a non-empty string, got ''"),
    (("card", [1, 2]), "card record: payload must be a JSON object, got list"),
    (("card", {"x": {1, 2}}), "card record: payload is not plain JSON: Object of type set"),
    (("card", {"x": float("nan")}), "card record: payload is not plain JSON: Out of range float"),
    (("card", {"round": 2}, 3), "card record: round=3 but the payload says round 2"),
    (("card", {"round": "2"}), "card record: round must be a positive integer, got '2'"),
    (("card", {}, True), "card record: round must be a positive integer, got True"),
    (("card", {}, 0), "card record: round must be a positive integer, got 0"),
])
def test_bad_records_are_refused_by_name_and_leave_the_chain_as_it_was(journal, args, message):
    journal.append("a", {})
    with pytest.raises(JournalError, match="^" + message.replace("(", r"\(")):
        journal.append(*args)
    assert journal.append("b", {}).seq == 2


def test_files_that_are_not_journals_are_named(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(JournalError, match=f"{junk}: cannot open the journal: file is not a database"):
        Journal(junk)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(JournalError, match=f"{other}: not a tablectl journal"):
        Journal(other)
    newer = tmp_path / "newer.sqlite"
    Journal(newer).close()
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version=9")
    conn.close()
    with pytest.raises(JournalError, match="journal format 9 is newer than this tablectl reads"):
        open_readonly(newer)
    with pytest.raises(JournalError, match=f"no journal at {tmp_path}/absent.sqlite"):
        open_readonly(tmp_path / "absent.sqlite")
    with pytest.raises(JournalError, match="journal sync 'never': expected one of results, always"):
        Journal(tmp_path / "j.sqlite", sync="never")


def test_the_file_is_made_with_its_directory_and_is_not_world_readable(tmp_path):
    path = tmp_path / "state" / "journal.sqlite"
    Journal(path).close()
    assert path.stat().st_mode & 0o777 == 0o640


FSYNC_COUNTER = """
import sys
from controller.journal import Journal
journal = Journal(sys.argv[1], sync=sys.argv[2])
journal.append("warm", {})
print("START", flush=True)
for i in range(20):
    journal.append("card", {"i": i}, durable=sys.argv[3] == "durable")
print("END", flush=True)
"""


def _fsyncs_while_appending(tmp_path, sync, durable) -> int:
    """fsync/fdatasync calls made by 20 appends, counted by strace on a real child process."""
    path = tmp_path / f"{sync}-{durable}.sqlite"
    trace = subprocess.run(
        ["strace", "-f", "-qq", "-e", "trace=fsync,fdatasync,write", sys.executable, "-c", FSYNC_COUNTER, str(path), sync, durable],
        capture_output=True, text=True)
    assert trace.returncode == 0, trace.stderr[-2000:]
    calls = trace.stderr.splitlines()
    start = next(i for i, line in enumerate(calls) if "START" in line)
    end = next(i for i, line in enumerate(calls) if "END" in line)
    return sum(1 for line in calls[start:end] if "fsync(" in line or "fdatasync(" in line)


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed (.ci/setup should install it)")
def test_durable_appends_fsync_and_plain_ones_do_not(tmp_path):
    """The fsync itself is made by SQLite's C code: strace sees it, nothing in Python can."""
    assert _fsyncs_while_appending(tmp_path, "results", "plain") == 0
    assert _fsyncs_while_appending(tmp_path, "results", "durable") >= 20
    assert _fsyncs_while_appending(tmp_path, "always", "plain") >= 20


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed (.ci/setup should install it)")
def test_the_daemons_default_fsyncs_every_commit(tmp_path):
    """journal.sync's default: no commit the feed can read (and send on) is one a power cut takes."""
    assert _fsyncs_while_appending(tmp_path, default_config().journal.sync, "plain") >= 20


def test_payloads_round_trip_unicode_and_nesting(journal, journal_path):
    payload = {"detail": "Fa Fa Fabulous 4: 4-gold ♦", "evidence": {"cards": ["4-gold", "S-fire"], "codes": [0x0214]}}
    journal.append("irregularity", payload)
    conn = open_readonly(journal_path)
    [record] = list(iter_records(conn))
    conn.close()
    assert record.payload == payload and json.loads(record.payload_text) == payload


def test_checkpoint_copies_the_wal_between_rounds_and_autocheckpoint_is_a_safety_net(journal_path):
    with Journal(journal_path) as writer:
        assert writer.connection.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 10000
        for i in range(50):
            writer.append("card", {"round": 1, "n": i})
        frames, copied = writer.checkpoint()
        assert frames > 0 and copied == frames
        assert writer.checkpoint() == (frames, frames)  # nothing new since
    with Journal(journal_path, autocheckpoint_pages=1000) as writer:
        assert writer.connection.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000

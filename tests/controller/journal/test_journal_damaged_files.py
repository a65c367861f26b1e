"""`tablectl journal verify|export` and `recall` on damaged files, through the command
dispatcher (an exception escaping it fails the test; one case runs as a real process, so a
traceback would show on its stderr): bytes that are not UTF-8 in a record, columns of the
wrong type, a payload that is not JSON, and files truncated at several points. Each names the
record, or says what is readable and where it ends."""
import contextlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest
from tampering import tamper

from cli import main
from controller.journal import Journal, JournalError, export_jsonl, verify

RECORDS = 3000  # enough pages that a cut lands inside the records table


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    path = tmp_path_factory.mktemp("pristine") / "journal.sqlite"
    with Journal(path) as journal:
        for n in range(RECORDS):
            if n % 10 == 0:
                journal.append("round_opened", {"round": 1 + n // 10, "game": "fortune6", "decks": 8, "shoe": 1})
            else:
                journal.append("card", {"round": 1 + n // 10, "card": "As", "hand": "player", "n": n})
    return path


@pytest.fixture
def copy(pristine, tmp_path):
    path = tmp_path / "journal.sqlite"
    shutil.copy(pristine, path)
    return path


def tablectl(*argv) -> subprocess.CompletedProcess:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(arg) for arg in argv])
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


def test_a_real_process_prints_no_traceback(copy):
    tamper(copy, "UPDATE records SET payload = CAST(X'7b226e223a22ff227d' AS TEXT) WHERE seq = 5")
    for argv in (["journal", "verify"], ["journal", "export"], ["recall"]):
        done = subprocess.run([sys.executable, "-m", "cli", *argv, "--journal", str(copy)],
                              capture_output=True, text=True, timeout=120)
        assert "Traceback" not in done.stderr and done.returncode == (0 if argv == ["recall"] else 1), done.stderr

NOT_UTF8 = [  # column, SQL value, what verify says of it
    ("payload", "CAST(X'7b226e223a22ff227d' AS TEXT)", "its payload is not UTF-8 text (byte 0xff at offset 6)"),
    ("kind", "CAST(X'63617264c3' AS TEXT)", "its kind is not UTF-8 text (byte 0xc3 at offset 4)"),
    ("hash", "CAST(X'80' AS TEXT)", "its hash is not UTF-8 text (byte 0x80 at offset 0)"),
]


@pytest.mark.parametrize("column, value, reason", NOT_UTF8, ids=[c for c, _, _ in NOT_UTF8])
def test_verify_names_the_record_with_bytes_that_are_not_utf8(copy, column, value, reason):
    tamper(copy, f"UPDATE records SET {column} = {value} WHERE seq = 5")
    done = tablectl("journal", "verify", "--journal", copy)
    assert done.returncode == 1 and done.stderr == ""
    assert done.stdout == f"{copy}: BROKEN at record 5: {reason} (5 records checked; last good record 4)\n"
    as_json = json.loads(tablectl("journal", "verify", "--json", "--journal", copy).stdout)
    assert (as_json["ok"], as_json["broken_seq"], as_json["reason"]) == (False, 5, reason)


@pytest.mark.parametrize("column, value, reason", NOT_UTF8, ids=[c for c, _, _ in NOT_UTF8])
def test_export_writes_every_readable_record_and_names_the_one_it_cannot(copy, column, value, reason):
    tamper(copy, f"UPDATE records SET {column} = {value} WHERE seq = 5")
    done = tablectl("journal", "export", "--journal", copy)
    assert done.returncode == 1
    seqs = [json.loads(line)["seq"] for line in done.stdout.splitlines()]
    assert seqs == [n for n in range(1, RECORDS + 1) if n != 5]
    assert done.stderr == (f"tablectl journal: record 5 not exported: {reason}\n"
                           f"tablectl journal: {RECORDS - 1} records exported; not exported: 5\n")


@pytest.mark.parametrize("sql, verify_says, export_says", [
    ("UPDATE records SET payload = X'7b7d' WHERE seq = 7", "its payload is a BLOB, not text", None),
    ("UPDATE records SET mono_ns = 'soon' WHERE seq = 7", "its mono_ns is text, not an integer", None),
    ("UPDATE records SET round = 1.5 WHERE seq = 7", "its round is a real number, not an integer or NULL", None),
    ("UPDATE records SET payload = 'not json' WHERE seq = 7", "its hash does not match its contents (the record was edited)",
     "its payload is not JSON (Expecting value: line 1 column 1 (char 0))"),
    ("UPDATE records SET payload = '[1,2]' WHERE seq = 7", "its hash does not match its contents (the record was edited)",
     "its payload is not a JSON object (a list)"),
])
def test_wrong_types_and_payloads_that_are_not_json_are_named(copy, sql, verify_says, export_says):
    tamper(copy, sql)
    report = verify(copy)
    assert (report.ok, report.broken_seq, report.reason) == (False, 7, verify_says)
    done = tablectl("journal", "export", "--journal", copy)
    assert done.returncode == 1 and len(done.stdout.splitlines()) == RECORDS - 1
    assert done.stderr.startswith(f"tablectl journal: record 7 not exported: {export_says or verify_says}\n")


def test_recall_says_which_record_it_cannot_read(copy):
    tamper(copy, f"UPDATE records SET payload = {NOT_UTF8[0][1]} WHERE seq = {RECORDS - 5}")
    done = tablectl("recall", "--journal", copy)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == (f"tablectl recall: {copy}: record {RECORDS - 5}: its payload is not UTF-8 text "
                           "(byte 0xff at offset 6); `tablectl journal verify` names the damage\n")
    tamper(copy, f"UPDATE records SET payload = 'not json' WHERE seq = {RECORDS - 5}")
    done = tablectl("recall", "--journal", copy)
    assert done.returncode == 1 and done.stderr.startswith(f"tablectl recall: {copy}: record {RECORDS - 5}: its payload is not JSON")


def reachable(path) -> list[int]:
    """The records SQLite can still find by their key in a damaged file, found one lookup at
    a time (independently of the walk under test)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.execute("PRAGMA writable_schema = ON")  # reads a file shorter than its header says
    found = []
    for seq in range(1, RECORDS + 1):
        try:
            row = conn.execute("SELECT seq, at FROM records WHERE seq = ?", (seq,)).fetchone()
        except sqlite3.DatabaseError:
            continue
        if row is not None and row[1] is not None:
            found.append(seq)
    conn.close()
    return found


@pytest.mark.parametrize("fraction", [0.9, 0.5, 0.1])
def test_a_truncated_file_says_what_is_readable_and_where_it_ends(copy, fraction):
    os.truncate(copy, int(os.path.getsize(copy) * fraction) // 4096 * 4096 + 100)
    readable = reachable(copy)
    last = len(readable)
    assert 0 < last < RECORDS and readable == list(range(1, last + 1))  # a cut loses the tail
    lost = f"the file is damaged after record {last}: no record after it can be read (database disk image is malformed)"
    done = tablectl("journal", "verify", "--journal", copy)
    assert done.returncode == 1 and done.stderr == ""
    assert done.stdout == f"{copy}: BROKEN at record {last + 1}: {lost} ({last} records checked; last good record {last})\n"
    export = tablectl("journal", "export", "--journal", copy)
    assert export.returncode == 1
    assert [json.loads(line)["seq"] for line in export.stdout.splitlines()] == readable
    assert export.stderr == (f"tablectl journal: {lost}\n"
                             f"tablectl journal: {last} records exported; not exported: everything from {last + 1} on\n")
    recall = tablectl("recall", "--journal", copy)
    assert recall.returncode == 1 and "Traceback" not in recall.stderr
    assert recall.stderr == (f"tablectl recall: {copy}: cannot read the journal: database disk image is malformed; "
                             "`tablectl journal verify` names the damage\n")


def test_a_page_overwritten_inside_the_file_loses_only_its_records(copy):
    with open(copy, "r+b") as file:
        file.seek(4096 * 40)
        file.write(b"\xff" * 4096)
    readable = reachable(copy)
    gone = sorted(set(range(1, RECORDS + 1)) - set(readable))
    assert gone and gone == list(range(gone[0], gone[-1] + 1)) and gone[-1] < RECORDS  # one run, inside
    run = f"records {gone[0]}-{gone[-1]} cannot be read: the file is damaged there (database disk image is malformed)"
    done = tablectl("journal", "verify", "--journal", copy)
    assert done.stdout == f"{copy}: BROKEN at record {gone[0]}: {run} ({gone[0] - 1} records checked; last good record {gone[0] - 1})\n"
    export = tablectl("journal", "export", "--journal", copy)
    assert export.returncode == 1
    assert [json.loads(line)["seq"] for line in export.stdout.splitlines()] == readable
    assert export.stderr == (f"tablectl journal: {run}\n"
                             f"tablectl journal: {len(readable)} records exported; not exported: {gone[0]}-{gone[-1]}\n")


def test_a_file_cut_inside_its_first_pages_has_nothing_readable(copy):
    os.truncate(copy, 4096 + 100)
    done = tablectl("journal", "verify", "--journal", copy)
    assert done.returncode == 1 and done.stderr == ""
    assert done.stdout == (f"{copy}: BROKEN at record 1: the file is damaged: no record can be read "
                           "(database disk image is malformed) (0 records checked; last good record 0)\n")
    export = tablectl("journal", "export", "--journal", copy)
    assert (export.returncode, export.stdout) == (1, "")
    assert export.stderr.endswith("tablectl journal: 0 records exported; not exported: everything from 1 on\n")


def test_a_file_cut_inside_its_header_is_not_a_journal(copy):
    os.truncate(copy, 50)
    done = tablectl("journal", "verify", "--journal", copy)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"tablectl journal: {copy}: cannot read the journal: ")


def test_the_functions_report_the_same_without_a_process(copy):
    tamper(copy, f"UPDATE records SET payload = {NOT_UTF8[0][1]} WHERE seq = 5")
    assert verify(copy).broken_seq == 5
    lines = []

    class Out:
        def write(self, text):
            lines.append(text)

    problems = []
    count = export_jsonl(copy, Out(), on_problem=problems.append)
    assert count == RECORDS - 1 and len(lines) == RECORDS - 1
    assert [(p.seq, p.reason) for p in problems] == [(5, NOT_UTF8[0][2])]
    with pytest.raises(JournalError, match="record 5: its payload is not UTF-8 text"):
        export_jsonl(copy, Out())  # without on_problem: the first problem is an error

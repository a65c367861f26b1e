"""A full disk: the append raises JournalFull ("the disk is full"), not SQLite's "cannot
rollback - no transaction is active"; nothing of it is written, the chain stays intact,
and the same append succeeds once space is freed.

Two ways to fill it: a real full filesystem (a 1 MiB tmpfs mounted for the test: tests run
as root; skipped, saying why, where mount is not allowed), and SQLite's own max_page_count
(no mount needed, runs everywhere: SQLite reports SQLITE_FULL exactly as for ENOSPC)."""
from __future__ import annotations

import os

import pytest

from controller.journal import Journal, JournalError, JournalFull, read_anchor, verify
from simulation.rig.full_disk import CannotMount, fill, small_tmpfs

PAD = "x" * 1500  # a record bigger than a card's, so the disk fills in a few appends


@pytest.fixture
def small_disk():
    """A real 1 MiB tmpfs: writes past it fail with ENOSPC."""
    try:
        with small_tmpfs("1m") as mount_point:
            yield mount_point
    except CannotMount as error:
        pytest.skip(f"{error}; the max_page_count test covers the logic")


def append_until_full(journal: Journal, batch: int) -> JournalFull:
    for n in range(10_000):
        try:
            if batch == 1:
                journal.append("card", {"n": n, "pad": PAD})
            else:
                journal.append_many([("card", {"n": n, "k": k, "pad": PAD}, None, False) for k in range(batch)])
        except JournalFull as full:
            return full
    raise AssertionError("the disk never filled")


def check_full_then_retry(journal: Journal, path, batch: int, free_space) -> None:
    before = (journal.head_seq, journal.head_hash)
    full = append_until_full(journal, batch)
    assert isinstance(full, JournalError)
    message = str(full)
    assert "the disk is full" in message and "rollback" not in message
    assert f"{path}: the disk is full: cannot append card record {journal.head_seq + 1}" in message
    assert "nothing of it was written" in message
    assert journal.head_seq >= before[0]  # the appends before the full one stand
    head = (journal.head_seq, journal.head_hash)
    with pytest.raises(JournalFull):  # still full: the same append fails the same way
        journal.append_many([("card", {"n": -1, "k": k, "pad": PAD}, None, False) for k in range(batch)])
    assert (journal.head_seq, journal.head_hash) == head
    free_space()
    again = journal.append_many([("card", {"n": -1, "k": k}, None, k == batch - 1) for k in range(batch)])
    assert again[0].seq == head[0] + 1 and again[0].prev_hash == head[1]
    report = verify(path)
    assert report.ok and report.head_seq == head[0] + batch


@pytest.mark.parametrize("batch", [1, 5], ids=["append", "append_many"])
def test_a_real_full_filesystem(small_disk, batch):
    path = os.path.join(small_disk, "journal.sqlite")
    with Journal(path) as journal:
        for n in range(5):
            journal.append("card", {"n": n})
        filler = fill(small_disk)
        check_full_then_retry(journal, path, batch, lambda: os.unlink(filler))
    with Journal(path) as reopened:  # and it opens again as usual
        assert verify(path).ok and reopened.head_seq == verify(path).head_seq


@pytest.mark.parametrize("batch", [1, 5], ids=["append", "append_many"])
def test_sqlite_max_page_count(tmp_path, batch):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        for n in range(5):
            journal.append("card", {"n": n})
        pages = journal.connection.execute("PRAGMA page_count").fetchone()[0]
        journal.connection.execute(f"PRAGMA max_page_count = {pages + 2}")
        check_full_then_retry(journal, path, batch,
                              lambda: journal.connection.execute("PRAGMA max_page_count = 1000000"))


def test_an_anchor_on_a_full_filesystem_keeps_the_previous_one(small_disk):
    path = os.path.join(small_disk, "journal.sqlite")
    with Journal(path) as journal:
        journal.append("daemon_started", {})
        before = journal.anchor()
        journal.append("card", {"n": 1})
        filler = fill(small_disk)
        with pytest.raises(JournalFull, match=r"journal.sqlite.anchor: the disk is full: cannot write the anchor of record 2 "
                                              r"\(the previous anchor stays; try again once space is freed\)"):
            journal.anchor()
        assert read_anchor(path) == before
        assert sorted(os.listdir(small_disk)) == ["filler", "journal.sqlite", "journal.sqlite-shm", "journal.sqlite-wal",
                                                 "journal.sqlite.anchor"]
        os.unlink(filler)
        assert journal.anchor().seq == 2 and read_anchor(path).seq == 2

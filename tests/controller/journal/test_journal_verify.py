"""verify(): the chain checked record by record on a real file; records tampered with through
SQLite itself (as anyone with the file could) are reported as the first broken record."""

import pytest
from journal_history import write_history
from tampering import rehash, tamper

from controller.journal import GENESIS, JournalError, canonical_json, verify


@pytest.fixture
def history(journal, journal_path):
    write_history(journal)
    journal.close()
    return journal_path
def test_an_intact_journal_verifies(history):
    report = verify(history)
    assert (report.ok, report.records, report.head_seq, report.broken_seq) == (True, 26, 26, None)
    assert str(report).startswith("ok: 26 records, chain intact; head 26 ")


def test_an_empty_journal_verifies(journal, journal_path):
    assert verify(journal_path).to_json() == {
        "ok": True, "records": 0, "head_seq": 0, "head_hash": GENESIS, "broken_seq": None, "reason": None}


def test_an_edited_payload_is_the_first_broken_record(history):
    tamper(history, "UPDATE records SET payload = replace(payload, '\"win\"', '\"lose\"') WHERE seq = 10")
    report = verify(history)
    assert (report.ok, report.broken_seq, report.head_seq, report.records) == (False, 10, 9, 10)
    assert report.reason == "its hash does not match its contents (the record was edited)"
    assert str(report) == ("BROKEN at record 10: its hash does not match its contents (the record was edited) "
                           "(10 records checked; last good record 9)")


@pytest.mark.parametrize("column, value", [("at", "2020-01-01T00:00:00.000000Z"), ("kind", "settled"),
                                           ("round", 9), ("mono_ns", 1)])
def test_every_hashed_column_is_covered(history, column, value):
    tamper(history, f"UPDATE records SET {column} = ? WHERE seq = 7", value)
    assert verify(history).broken_seq == 7


def test_an_edit_with_its_hash_recomputed_breaks_the_next_link(history):
    tamper(history, "UPDATE records SET payload = replace(payload, '\"win\"', '\"lose\"') WHERE seq = 10")
    rehash(history, 10)
    report = verify(history)
    assert report.broken_seq == 11
    assert report.reason == "its prev_hash does not match the hash of record 10 (a record before it was replaced)"


def test_deleted_records_are_named(history):
    tamper(history, "DELETE FROM records WHERE seq = 4")
    assert (verify(history).broken_seq, verify(history).reason) == (5, "record 4 is missing (deleted?)")


def test_deleted_first_records_are_named(history):
    tamper(history, "DELETE FROM records WHERE seq <= 2")
    assert (verify(history).broken_seq, verify(history).reason) == (3, "records 1-2 are missing (deleted?)")


def test_a_non_canonical_payload_is_caught_even_with_a_good_hash(history):
    tamper(history, "UPDATE records SET payload = ? WHERE seq = 1", '{ "version": "test" }')
    rehash(history, 1)
    report = verify(history)
    assert (report.broken_seq, report.reason) == (1, "its payload is not a canonical JSON object")


def test_a_cut_tail_still_verifies_but_moves_the_head_an_anchor_would_catch(history):
    """The chain alone cannot see records cut from the end: keep head_hash elsewhere."""
    before = verify(history)
    tamper(history, "DELETE FROM records WHERE seq > 20")
    after = verify(history)
    assert after.ok and (after.head_seq, before.head_seq) == (20, 26) and after.head_hash != before.head_hash


def test_verifying_a_file_that_is_no_journal_is_an_error(tmp_path):
    (tmp_path / "x").write_text("hello")
    with pytest.raises(JournalError, match="cannot read the journal"):
        verify(tmp_path / "x")


def test_canonical_json_is_sorted_and_compact():
    assert canonical_json({"b": 1, "a": [1, {"d": None, "c": "é"}]}) == '{"a":[1,{"c":"é","d":null}],"b":1}'

"""PitStore against records from a real journal (written by Journal, SQLite): idempotent by
(table, seq), each table's chain checked as records arrive in any order, alarms naming the
table and record, and what it keeps across a restart."""
from __future__ import annotations

import dataclasses

import pytest

from controller.journal import Journal, Record, record_hash
from services.pit import NotOurs, PitStore, record_from_message


@pytest.fixture
def records(tmp_path) -> list[Record]:
    with Journal(tmp_path / "journal.sqlite") as journal:
        return [journal.append("note", {"n": n}) for n in range(10)]


@pytest.fixture
def store(pit_db_url):
    made = PitStore(pit_db_url)
    yield made
    made.close()


def kinds(alarms):
    return [(a.table, a.seq, a.last_seq, a.kind) for a in alarms]


def test_in_order_once_each_and_redeliveries_dropped(store, records):
    for record in records + records[3:6]:
        store.add("s/a", record)
    store.commit()
    assert list(store.records("s/a")) == records
    assert store.duplicates == 3 and store.alarms() == []


def test_out_of_order_raises_a_gap_that_clears_when_it_fills(store, records):
    outcome = store.add("s/a", records[0])
    assert [r.seq for r in outcome.in_order] == [1]
    outcome = store.add("s/a", records[4])
    assert kinds(outcome.raised) == [("s/a", 2, 4, "gap")] and "records 2-4 missing" in outcome.raised[0].detail
    assert store.missing("s/a") == (2, 4)
    store.add("s/a", records[2])
    assert store.missing("s/a") == (2, 2)
    outcome = store.add("s/a", records[1])
    assert [r.seq for r in outcome.in_order] == [2, 3]
    outcome = store.add("s/a", records[3])
    assert [r.seq for r in outcome.in_order] == [4, 5]
    assert kinds(outcome.cleared) == [("s/a", 2, 4, "gap")] and outcome.cleared[0].cleared_at
    store.commit()
    assert store.conn.execute("SELECT DISTINCT checked FROM records").fetchall() == [("ok",)]


def test_an_edited_record_a_replaced_one_and_a_differing_copy_alarm_for_that_table_only(store, records):
    edited = dataclasses.replace(records[2], payload_text='{"n":99}')  # hash left as it was
    r = records[5]
    rehashed = dataclasses.replace(r, payload_text='{"n":77}')
    rehashed = dataclasses.replace(rehashed, hash=record_hash(r.prev_hash, r.seq, r.at, r.mono_ns, r.kind, r.round, '{"n":77}'))
    for record in records[:2] + [edited] + records[3:5] + [rehashed] + records[6:]:
        store.add("s/a", record)
    for record in records:
        store.add("s/b", record)
    outcome = store.add("s/b", edited)  # the same seq again, other contents
    store.commit()
    found = kinds(store.alarms())
    assert found == [("s/a", 3, 3, "bad_hash"), ("s/a", 7, 7, "bad_chain"), ("s/b", 3, 3, "differs")]
    assert "does not match its contents" in store.alarms()[0].detail
    assert "prev_hash does not match the hash of record 6" in store.alarms()[1].detail
    assert kinds(outcome.raised) == [("s/b", 3, 3, "differs")]
    assert list(store.records("s/b")) == records  # the first one stays


def test_the_chain_state_survives_a_restart(pit_db_url, records):
    store = PitStore(pit_db_url)
    for record in records[:3] + records[5:7]:
        store.add("s/a", record)
    store.close()
    again = PitStore(pit_db_url)
    assert again.missing("s/a") == (4, 5)
    assert kinds(again.alarms(open_only=True)) == [("s/a", 4, 5, "gap")]
    outcome = again.add("s/a", records[3])
    outcome = again.add("s/a", records[4])
    assert [r.seq for r in outcome.in_order] == [5, 6, 7]
    assert kinds(outcome.cleared) == [("s/a", 4, 5, "gap")]
    again.close()


def test_a_message_that_is_not_a_record_is_refused_naming_the_field(records):
    good = {**records[0].to_json()}
    assert record_from_message(good) == records[0]
    for broken, field in (({**good, "seq": "1"}, "seq"), ({k: v for k, v in good.items() if k != "hash"}, "hash"),
                          ({**good, "payload": []}, "payload"), ({**good, "round": "7"}, "round")):
        with pytest.raises(NotOurs, match=field):
            record_from_message(broken)

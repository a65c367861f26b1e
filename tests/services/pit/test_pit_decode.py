"""What the pit reads from a `record` message: one record or a batch, each proved by its hash;
the fast reading (orjson) is kept only when every hash matches, anything else is decided by
the standard library's reading (records with integers beyond 64 bits or lone surrogates in
their payloads, edited records), and what is not a record is named."""
from __future__ import annotations

import json

import pytest

from controller.journal import Journal, Record
from services.feed.messages import Topics, record_message, records_message
from services.pit.decode import Arrival, NotOurs, parse, records_of

TOPICS = Topics("tablectl", "s1", "t1")


@pytest.fixture
def records(tmp_path) -> list[Record]:
    with Journal(tmp_path / "journal.sqlite") as journal:
        return [journal.append("note", {"n": n, "text": "é ✓"}) for n in range(5)]


def arrived(record: Record) -> Arrival:
    return Arrival(record, True, dict(record.payload))


def read(raw: bytes) -> list[Arrival | NotOurs]:
    return records_of(parse(raw), raw)


def test_one_record_and_a_batch_read_back_as_the_journal_holds_them(records):
    assert read(record_message(TOPICS, records[0])) == [arrived(records[0])]
    assert read(records_message(TOPICS, records)) == [arrived(r) for r in records]
    body = json.loads(records_message(TOPICS, records))
    assert set(body) == {"site", "table", "records"}
    assert body["records"] == [r.to_json() for r in records]  # each as `tablectl journal export` writes it


def test_payloads_the_fast_reading_gets_wrong_are_read_exactly(tmp_path):
    """orjson reads 2**70 as a float: the hash says so, and the standard library's reading decides."""
    with Journal(tmp_path / "journal.sqlite") as journal:
        odd = [journal.append("note", {"big": 2**70}), journal.append("note", {"big": -(2**64)}),
               journal.append("note", {"x": 1e16, "y": -0.0, "z": 0.1})]
    for record in odd:
        assert read(record_message(TOPICS, record)) == [arrived(record)]
    assert read(records_message(TOPICS, odd)) == [arrived(r) for r in odd]


def test_an_edited_record_is_read_with_its_hash_found_wrong(records):
    body = json.loads(records_message(TOPICS, records))
    body["records"][2]["payload"]["n"] = 99
    arrivals = read(json.dumps(body).encode())
    assert [a.hash_ok for a in arrivals] == [True, True, False, True, True]
    assert arrivals[2].record.payload_text == '{"n":99,"text":"é ✓"}'


def test_what_is_not_a_record_is_named_and_the_rest_of_a_batch_still_counts(records):
    body = json.loads(records_message(TOPICS, records[:3]))
    body["records"][1] = {k: v for k, v in body["records"][1].items() if k != "hash"}
    body["records"].append([1, 2])
    arrivals = read(json.dumps(body).encode())
    assert arrivals[0] == arrived(records[0]) and arrivals[2] == arrived(records[2])
    assert [str(a) for a in arrivals if isinstance(a, NotOurs)] == [
        "records[1]: field 'hash' is missing or not str", "records[3]: not a JSON object"]
    for broken in ({"records": []}, {"records": {"seq": 1}}):
        with pytest.raises(NotOurs, match="'records' is not a list of records"):
            read(json.dumps({"site": "s1", "table": "t1", **broken}).encode())
    with pytest.raises(NotOurs, match="not JSON"):
        parse(b"\xff not json")
    nan = json.dumps({"site": "s1", "table": "t1", **records[0].to_json(), "payload": {"x": float("nan")}}).encode()
    with pytest.raises(NotOurs, match="cannot be canonical JSON"):
        read(nan)
    surrogate = json.dumps({"site": "s1", "table": "t1", **records[0].to_json(), "payload": {"x": "\ud800"}}).encode()
    with pytest.raises(NotOurs, match="lone surrogate"):
        read(surrogate)
    for field in ("seq", "mono_ns", "round"):  # integers SQLite cannot hold (orjson would read them as floats)
        big = json.dumps({"site": "s1", "table": "t1", "records": [{**records[0].to_json(), field: 2**70}]}).encode()
        assert str(read(big)[0]).startswith(f"records[0]: field {field!r} is not a")

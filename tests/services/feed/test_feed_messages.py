"""The `record` message's two forms as the feed writes them (the stored payload text spliced
in, not parsed and written again): the same JSON as `tablectl journal export` plus site and
table, and a record whose stored payload is not a JSON object refused, naming it."""
from __future__ import annotations

import dataclasses
import json

import pytest

from controller.journal import DamagedRecord, Journal
from services.feed.messages import Topics, encode, record_message, records_message

TOPICS = Topics("acme/floors", "casino-1", "t.07")


def test_both_forms_carry_each_record_as_the_export_writes_it(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        records = [journal.append("note", {"n": n, "text": 'quote " backslash \\ é ✓', "none": None}, round=n or None)
                   for n in range(3)]
    one = record_message(TOPICS, records[0])
    assert one == encode({"site": "casino-1", "table": "t.07", **records[0].to_json()})
    several = json.loads(records_message(TOPICS, records))
    assert several == {"site": "casino-1", "table": "t.07", "records": [r.to_json() for r in records]}


@pytest.mark.parametrize("stored", ["[1, 2]", "not json", '"text"'])
def test_a_stored_payload_that_is_not_a_json_object_is_refused(tmp_path, stored):
    with Journal(tmp_path / "journal.sqlite") as journal:
        record = dataclasses.replace(journal.append("note", {"n": 1}), payload_text=stored)
    with pytest.raises(DamagedRecord, match=f"record {record.seq}: its payload is not"):
        record_message(TOPICS, record)
    with pytest.raises(DamagedRecord):
        records_message(TOPICS, [record])

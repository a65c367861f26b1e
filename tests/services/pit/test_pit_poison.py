"""Poison on the pit's topics: a message nested thousands deep (json.loads would raise
RecursionError) or far too large is logged and dropped, acknowledged (a pit started again on
the same session does not get it again), and the pit keeps storing the records after it; a
message past the pit's MQTT Maximum Packet Size is not even
sent to it (its memory holds no such message); a record of the wrong shape inside (a result whose spots are a list) is stored and shown
without failing the view. A real Mosquitto and a real `tablectl pit` process."""
from __future__ import annotations

import json

import pytest

from controller.journal import Journal
from services.pit.decode import MESSAGE_BYTES
from services.pit.pit import PACKET_BYTES
from simulation.floor import PitProcess, pit_export, publish, wait_until
from simulation.mosquitto import mosquitto_path, needs_mosquitto_reason

needs_mosquitto = pytest.mark.skipif(mosquitto_path() is None, reason=needs_mosquitto_reason)
WAIT = 60


def ignored(pit) -> list[str]:
    return [line["reason"] for line in pit.log() if line.get("event") == "message_ignored"]


@needs_mosquitto
def test_deep_and_huge_messages_are_logged_dropped_acknowledged_and_the_pit_keeps_storing(tmp_path, broker, processes):
    mq = broker()
    db = tmp_path / "pit.sqlite"
    pit = processes(PitProcess(tmp_path, mq.url, db, name="pit-1"))
    wait_until(lambda: any(line.get("event") == "broker_connected" for line in pit.log()), WAIT, "the pit to connect")
    with Journal(tmp_path / "journal.sqlite") as journal:
        records = [journal.append("note", {"n": 0}), journal.append("result", {"round": 1, "spots": [1, 2]}),
                   journal.append("note", {"n": 2})]
    exported = [r.to_json() for r in records]

    def one(record: dict) -> bytes:
        return json.dumps({"site": "s1", "table": "t1", **record}).encode()

    deep_payload = {**exported[1], "payload": {"n": 1, "deep": json.loads("[" * 200 + "]" * 200)}}
    topic = "tablectl/s1/t1/record"
    publish(mq.port, [
        (topic, one(exported[0])),
        (topic, b"[" * 100_000 + b"]" * 100_000),  # orjson refuses it; json.loads would recurse 100,000 deep
        (topic, b'{"site":"s1","table":"t1","records":' + b"[" * 50_000 + b"]" * 50_000 + b"}"),
        ("tablectl/s1/t1/status", b'{"site":"s1","table":"t1","state":' + b"{\"a\":" * 30_000 + b"1" + b"}" * 30_000 + b"}"),
        ("tablectl/s1/t1/status", b'{"site":"s1","table":"t1","state":"offline","at":5,"game":["x"],"reason":{"a":1}}'),
        (topic, one(deep_payload)),
        (topic, b'{"site":"s1","table":"t1","pad":"' + b"x" * (MESSAGE_BYTES + 1) + b'"}'),
        (topic, b"[" * (PACKET_BYTES + 1)),  # past our Maximum Packet Size: the broker does not send it
        (topic, one(exported[1])),
        (topic, one(exported[2])),
    ])
    wait_until(lambda: pit_export(db, "s1/t1") == exported, WAIT, "the records after the poison stored")
    wait_until(lambda: len(ignored(pit)) == 5, WAIT, "five messages logged and dropped")
    reasons = ignored(pit)
    assert sum("nested deeper than the 32 levels allowed" in r for r in reasons) == 4, reasons
    assert sum(f"more than the {MESSAGE_BYTES} allowed" in r for r in reasons) == 1, reasons
    assert pit.child.running
    tables = [line for line in pit.lines() if line.get("type") == "table"]
    assert tables[-1]["last_result"] == "decided" and tables[-1]["game"] is None and tables[-1]["link"] == "offline"
    starts = [line for line in pit.log() if line.get("event") == "pit_started"]
    assert len(starts) == 1

    # acknowledged: the same session, started again, is not sent the poison again
    assert pit.child.stop() == 0
    again = processes(PitProcess(tmp_path, mq.url, db, name="pit-2"))
    wait_until(lambda: any(line.get("event") == "broker_connected" for line in again.log()), WAIT, "the pit to reconnect")
    with Journal(tmp_path / "journal.sqlite") as journal:
        later = journal.append("note", {"n": 3}).to_json()
    publish(mq.port, [(topic, one(later))])
    wait_until(lambda: pit_export(db, "s1/t1") == [*exported, later], WAIT, "a later record stored")
    assert ignored(again) == []
    assert again.child.running


def test_the_view_takes_records_and_status_lines_of_the_wrong_shape():
    """What the view shows comes from outside: fields of the wrong type are not shown, and
    neither the terminal view nor the text lines fail on them (they were kept in the view and
    the database, so the pit failed at every redraw and again after every restart)."""
    from controller.journal import Record
    from services.pit.floor import TableView
    from services.pit.view import change_text, render

    odd = [None, 7, ["x"], {"a": 1}, True, 2.5]
    for value in odd:
        view = TableView("s1/t1")
        for seq, (kind, payload) in enumerate([("round_opened", {"game": value, "shoe": value}), ("daemon_started", {"game": value}),
                                               ("result", {"spots": value, "winner": None}), ("void", {"kind": value})], 1):
            view.apply(Record(seq, "2026-11-26T00:00:00Z", seq, kind, 1, json.dumps(payload), "0" * 64, "0" * 64), payload)
        view.apply_status({"state": "offline", "at": value, "game": value, "daemon": value, "reason": value}, "2026-11-26T01:02:03Z")
        assert view.game is None and view.daemon is None and view.link_since == "2026-11-26T01:02:03Z"
        assert view.shoe is None or type(view.shoe) is int
        assert "s1/t1" in render([view], [], "the floor")
        assert change_text({"type": "table", **view.to_json()}).startswith("s1/t1")

"""`tablectl pit` as a process against a real Mosquitto: messages on its topics that are not
ours or not JSON are logged and dropped while it keeps running; `pit recall`, `pit export`
and `pit alarms` answer from its database."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from controller.journal import Journal
from services.pit import PitStore
from simulation.floor import PitProcess, pit_query, publish, wait_until
from simulation.mosquitto import mosquitto_path, needs_mosquitto_reason

needs_mosquitto = pytest.mark.skipif(mosquitto_path() is None, reason=needs_mosquitto_reason)
WAIT = 30


def pit_cli(*args):
    return subprocess.run([sys.executable, "-m", "cli", "pit", *args], capture_output=True, text=True, timeout=60)


@needs_mosquitto
def test_foreign_and_broken_messages_are_logged_and_the_pit_keeps_going(tmp_path, broker, processes, pit_db_url):
    mq = broker()
    db = pit_db_url
    pit = processes(PitProcess(tmp_path, mq.url, db))
    wait_until(lambda: any(line.get("event") == "broker_connected" for line in pit.log()), WAIT, "the pit to connect")
    with Journal(tmp_path / "journal.sqlite") as journal:
        record = journal.append("note", {"n": 1})
    good = json.dumps({"site": "s1", "table": "t1", **record.to_json()})
    publish(mq.port, [
        ("tablectl/s1/t1/record", b"\xff not json"),
        ("tablectl/s1/t1/record", json.dumps({"site": "s1", "table": "t1", "seq": 1}).encode()),
        ("tablectl/s1/t1/record", json.dumps({"site": "elsewhere", "table": "t1", **record.to_json()}).encode()),
        ("tablectl/s1/t1/status", b"[1, 2]"),
        ("tablectl/s1/t1/record", good.encode()),
    ])
    wait_until(lambda: len([x for x in pit.log() if x.get("event") == "message_ignored"]) == 4, WAIT, "four messages ignored")
    reasons = [x["reason"] for x in pit.log() if x.get("event") == "message_ignored"]
    assert reasons[0].startswith("not JSON") and "field 'at' is missing" in reasons[1]
    assert all("site and table of its topic" in r for r in reasons[2:])
    wait_until(lambda: pit_cli("export", "--table", "t1", "--db", str(db)).stdout.strip() ==
               json.dumps(record.to_json(), separators=(",", ":")), WAIT, "the good record stored")
    assert pit.child.running


@needs_mosquitto
def test_records_one_a_message_and_several_a_message_are_stored_once_each(tmp_path, broker, processes, pit_db_url):
    """The `record` topic's two forms (docs/floor.md): one record, or several in order
    (`records`); redeliveries dropped by seq, an item that is not a record named alone."""
    mq = broker()
    db = pit_db_url
    pit = processes(PitProcess(tmp_path, mq.url, db))
    wait_until(lambda: any(line.get("event") == "broker_connected" for line in pit.log()), WAIT, "the pit to connect")
    with Journal(tmp_path / "journal.sqlite") as journal:
        records = [journal.append("note", {"n": n}) for n in range(8)]
    exported = [r.to_json() for r in records]

    def batch(*items):
        return json.dumps({"site": "s1", "table": "t1", "records": list(items)}).encode()

    publish(mq.port, [
        ("tablectl/s1/t1/record", json.dumps({"site": "s1", "table": "t1", **exported[0]}).encode()),
        ("tablectl/s1/t1/record", batch(*exported[1:4])),
        ("tablectl/s1/t1/record", batch(*exported[2:5], {"seq": 6})),  # 3 and 4 again, 5, then not a record
        ("tablectl/s1/t1/record", batch(*exported[5:8])),
    ])
    wait_until(lambda: pit_cli("export", "--table", "t1", "--db", str(db)).stdout.splitlines() ==
               [json.dumps(r, separators=(",", ":")) for r in exported], WAIT, "all eight stored in order")
    ignored = [x["reason"] for x in pit.log() if x.get("event") == "message_ignored"]
    assert ignored == ["records[3]: field 'at' is missing or not str"]
    assert pit_query(db, "SELECT count(*) FROM alarms") == [(0,)]
    assert pit.child.running


def test_recall_export_and_alarms_answer_from_the_database(tmp_path, pit_db_url):
    with Journal(tmp_path / "journal.sqlite") as journal:
        records = [journal.append("round_opened", {"round": 1, "game": "fortune6", "decks": 8, "shoe": 1, "spots": []}),
                   journal.append("card", {"round": 1, "card": "9h", "hand": "player", "status": "dealt"}),
                   journal.append("command", {"name": "void", "args": {"kind": "order_altered"},
                                              "by": {"source": "socket", "user": "alice", "uid": 1000, "pid": 4242}}),
                   journal.append("void", {"round": 1, "kind": "door_open", "clause": "fortune6 §5.1", "reason": "door"})]
    store = PitStore(pit_db_url)
    for record in records:
        store.add("s1/t9", record)
    store.close()
    db = pit_db_url
    recall = pit_cli("recall", "--table", "t9", "--db", db)
    assert recall.returncode == 0 and "round 1  fortune6" in recall.stdout and "VOID     fortune6 §5.1" in recall.stdout
    assert "given    void (alice (uid 1000, pid 4242))" in recall.stdout  # who gave it, as the table's recall says
    rounds = json.loads(pit_cli("recall", "--table", "s1/t9", "--last", "1", "--json", "--db", db).stdout)
    assert [r["status"] for r in rounds] == ["void"]
    assert rounds[0]["voided_by"] == {"source": "socket", "user": "alice", "uid": 1000, "pid": 4242}
    export = pit_cli("export", "--table", "t9", "--db", db).stdout.splitlines()
    assert [json.loads(line) for line in export] == [r.to_json() for r in records]
    assert pit_cli("alarms", "--db", db).stdout == ""
    missing = pit_cli("recall", "--table", "t1", "--db", db)
    assert missing.returncode == 2 and "--table t1: not in" in missing.stderr and "s1/t9" in missing.stderr
    nothing = pit_cli("recall", "--table", "t1", "--db", str(tmp_path / "none.sqlite"))
    assert nothing.returncode == 2 and "no pit database there" in nothing.stderr


@pytest.mark.parametrize("args, message", [
    (["--broker", "mqtt://127.0.0.1:1883"], "mqtt:// sends everything in clear text"),
    (["--broker", "ftp://x"], "expected mqtts://host:port"),
    (["--broker", "mqtts://localhost:8883", "--cert", "/nonexistent.pem", "--key", "/nonexistent.key"],
     "cert /nonexistent.pem: cannot read"),
])
def test_a_pit_that_cannot_connect_as_asked_says_why(tmp_path, args, message):
    done = pit_cli(*args, "--json", "--db", str(tmp_path / "pit.sqlite"))
    assert done.returncode == 1 and message in done.stderr


def test_a_database_server_that_cannot_be_reached_is_named_without_its_password(tmp_path):
    url = f"postgresql://pit:s3cret@/pit?host={tmp_path}"  # no server's socket there
    done = pit_cli("alarms", "--db", url)
    assert done.returncode == 1, done.stderr
    assert f"--db postgresql://pit:***@/pit?host={tmp_path}: cannot connect to PostgreSQL" in done.stderr
    assert "s3cret" not in done.stderr

"""The floor end to end, with the table's signatures: the real daemon (its own table key, made
by the rig), `tablectl feed`, a real Mosquitto and `tablectl pit` with the table enrolled. A
publisher on the broker forges the table's next record (its hash recomputed) before the feed
sends the genuine one: once the table's next signed head arrives the pit holds exactly the
table's journal, the forged record is kept apart, and the alarm names a forgery."""
from __future__ import annotations

import dataclasses
import json

import pytest

from controller.journal import record_hash
from controller.journal.signing import public_key_path
from services.pit import PitStore
from simulation.floor import FeedProcess, PitProcess, feed_section, journal_export, pit_export, pit_query, publish, wait_until
from simulation.mosquitto import mosquitto_path, needs_mosquitto_reason

pytestmark = [pytest.mark.skipif(mosquitto_path() is None, reason=needs_mosquitto_reason), pytest.mark.hil]
WAIT = 60


def query(db, sql, *args):
    return pit_query(db, sql, *args)


def test_a_forged_record_on_the_broker_loses_to_the_tables_signed_journal(tmp_path, broker, rigs, processes, pit_db_url):
    mq = broker()
    cursor = tmp_path / "feed" / "cursor.json"
    cursor.parent.mkdir()
    rig = rigs("fortune6", seed=41, config={"feed": feed_section(mq.url, "t1", cursor)})
    db = pit_db_url
    enrolling = PitStore(db)
    enrolling.enrol("s1/t1", str(public_key_path(rig.dir / "table.key")))
    enrolling.close()
    pit = processes(PitProcess(tmp_path, mq.url, db))
    feed = processes(FeedProcess(tmp_path, rig.config_path))
    rig.new_shoe()
    rig.play_round()  # bets opened: the first checkpoint signs the head, mirrored as a signed_head record
    wait_until(lambda: pit_export(db, "s1/t1") == journal_export(rig.journal_path), WAIT, "the first round at the pit")
    signed = query(db, "SELECT through FROM verified WHERE table_id = 's1/t1'")
    assert signed and signed[0][0] > 0

    feed.child.stop()  # SIGTERM: the records after its cursor wait at the table
    rig.play_round()  # journaled at the table, not yet at the pit
    sent = len(pit_export(db, "s1/t1"))
    genuine = rig.records()[sent]  # the next record the pit will get
    text = json.dumps({**genuine.payload, "forged": True}, sort_keys=True, separators=(",", ":"))
    fake = dataclasses.replace(genuine, payload_text=text, hash=record_hash(
        genuine.prev_hash, genuine.seq, genuine.at, genuine.mono_ns, genuine.kind, genuine.round, text))
    publish(mq.port, [("tablectl/s1/t1/record", json.dumps({"site": "s1", "table": "t1", **fake.to_json()}).encode())])
    wait_until(lambda: len(pit_export(db, "s1/t1")) == sent + 1, WAIT, "the forged record at the pit")
    assert pit_export(db, "s1/t1")[-1]["hash"] == fake.hash  # it chains, its hash matches: shown, not verified

    rig.restart_daemon()  # its stop anchors the head, signed; bets opening next mirror it into the journal
    feed = processes(FeedProcess(tmp_path, rig.config_path, name="feed-again"))
    rig.play_round()
    wait_until(lambda: pit_export(db, "s1/t1") == journal_export(rig.journal_path), WAIT,
               "the table's own journal at the pit, the forgery replaced")
    last_signed = max(json.loads(payload)["seq"] for payload, in query(
        db, "SELECT payload FROM records WHERE table_id = 's1/t1' AND kind = 'signed_head'"))
    wait_until(lambda: query(db, "SELECT through FROM verified WHERE table_id = 's1/t1'")[0][0] == last_signed, WAIT,
               "every record up to the last signed head verified")
    assert query(db, "SELECT seq, hash, why FROM apart WHERE table_id = 's1/t1'") == [(fake.seq, fake.hash, "forgery")]
    forgeries = query(db, "SELECT seq, detail FROM alarms WHERE table_id = 's1/t1' AND kind = 'forgery'")
    assert [seq for seq, _ in forgeries] == [fake.seq]
    assert "a forgery by whoever published it" in forgeries[0][1]
    assert query(db, "SELECT kind FROM alarms WHERE cleared_at IS NULL AND kind != 'forgery'") == []
    assert not [line for line in pit.lines() if line.get("type") == "alarm" and "the journal at the table was changed"
                in line.get("detail", "")]
    tables = [line for line in pit.lines() if line.get("type") == "table"]
    assert tables[-1]["verified"] == last_signed and tables[-1]["enrolled"]

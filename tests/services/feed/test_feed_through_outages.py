"""A simulated table (the real daemon against simulated devices) plays a shoe while the
broker is SIGKILLed and restarted and the feed is SIGKILLed and restarted; everything over
TLS with client certificates made here. The pit's database ends with every record exactly
once, in order, every chain verified, equal to the table's `tablectl journal export`."""
from __future__ import annotations

import sqlite3

import pytest

from simulation.floor import FeedProcess, PitProcess, feed_section, journal_export, pit_export, wait_until
from simulation.mosquitto import mosquitto_path, needs_mosquitto_reason

pytestmark = [pytest.mark.skipif(mosquitto_path() is None, reason=needs_mosquitto_reason), pytest.mark.hil]
WAIT = 60


def play(rig, rounds):
    for _ in range(rounds):
        rig.play_round()


def test_a_shoe_reaches_the_pit_whole_through_a_broker_kill_and_a_feed_kill(tmp_path, broker, rigs, processes):
    mq = broker(tls=True)
    cursor = tmp_path / "feed" / "cursor.json"
    cursor.parent.mkdir()
    rig = rigs("fortune6", seed=11, cut_card=60, config={"feed": feed_section(mq.url, "t1", cursor, pki=mq.pki)})
    db = tmp_path / "pit.sqlite"
    pit = processes(PitProcess(tmp_path, mq.url, db, pki=mq.pki))
    feed = processes(FeedProcess(tmp_path, rig.config_path))
    rig.new_shoe()
    play(rig, 2)
    wait_until(lambda: len(pit_export(db, "s1/t1")) == len(rig.records()), WAIT, "the first rounds at the pit")

    mq.kill()                                   # the broker dies with what it held in memory
    play(rig, 3)                                # the table plays on
    wait_until(lambda: feed.logged("broker_lost"), WAIT, "the feed to log the outage")
    mq.start()                                  # same port, empty: nothing persisted
    play(rig, 2)
    wait_until(lambda: feed.logged("broker_back"), WAIT, "the feed to log the broker's return")

    feed.child.kill()                           # SIGKILL: the cursor file is all it keeps
    play(rig, 3)
    feed = processes(FeedProcess(tmp_path, rig.config_path, name="feed-again"))
    for _ in range(40):                         # to the end of the shoe (the cut card, then one more round)
        if any(r.kind == "shoe" and r.payload.get("event") == "finished" for r in rig.records()):
            break
        rig.play_round()
    expected: list = []

    def caught_up() -> bool:  # the export read again each time: the panel's button release comes after its press
        nonlocal expected
        expected = journal_export(rig.journal_path)
        return pit_export(db, "s1/t1") == expected

    wait_until(caught_up, WAIT, "every record at the pit, equal to the journal's export")
    head = expected[-1]["seq"]
    assert [r["seq"] for r in expected] == list(range(1, head + 1))
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT checked, count(*) FROM records GROUP BY checked").fetchall() == [("ok", head)]
        open_alarms = conn.execute("SELECT kind, detail FROM alarms WHERE cleared_at IS NULL").fetchall()
    assert open_alarms == []
    lost = feed.logged("broker_lost") or []
    assert all("held_back" in line for line in lost)
    assert pit.child.running and feed.child.running


"""A backlog far larger than a batch: the feed (run here, in-process, to look at its follower
and window) reads no further than its window while the broker is away, sends the backlog
several records to a `record` message and a record found alone on its own, and crosses a
broker killed mid-backlog (restarted empty) with nothing lost at the pit and nothing doubled.
A real Mosquitto and a real `tablectl pit` process."""
from __future__ import annotations

import json
import sqlite3
import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from controller.config import config_from_dict
from controller.journal import Journal
from services.feed import Feed
from services.feed.feed import FOLLOW_QUEUE
from services.follow import BATCH
from simulation.floor import PitProcess, feed_section, journal_export, pit_export, wait_until
from simulation.mosquitto import Mosquitto, mosquitto_path, needs_mosquitto_reason

pytestmark = [pytest.mark.skipif(mosquitto_path() is None, reason=needs_mosquitto_reason), pytest.mark.hil]
WAIT = 60
WINDOW = 1000


def write_journal(path, count: int, start: int = 0) -> None:
    with Journal(path) as journal:
        for first in range(start, start + count, 1000):
            journal.append_many([("note", {"n": n, "text": "a record of some size " * 4}, None, False)
                                 for n in range(first, min(first + 1000, start + count))])


class RunningFeed:
    """Feed(config).run(stop) on a thread of this process."""

    def __init__(self, config) -> None:
        self.feed = Feed(config, window=WINDOW)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.feed.run, args=(self.stop,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(30)
        assert not self.thread.is_alive()


@pytest.fixture
def running():
    made: list[RunningFeed] = []

    def start(config) -> RunningFeed:
        made.append(RunningFeed(config))
        return made[-1]

    yield start
    for feed in made:
        feed.close()


def table(tmp_path, mq: Mosquitto, **more):
    config = config_from_dict({"game": "fortune6", "journal": {"path": str(tmp_path / "journal.sqlite")},
                               "control": {"socket": str(tmp_path / "control.sock")},
                               "feed": feed_section(mq.url, "t1", tmp_path / "cursor.json", **more)})
    return config, tmp_path / "journal.sqlite"


def pit_count(db) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return conn.execute("SELECT count(*) FROM records").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def test_a_backlog_is_read_no_further_than_the_window_and_reaches_the_pit_whole_through_replays_and_a_broker_kill(
        tmp_path, processes, running):
    total = 8000
    mq = processes(Mosquitto(tmp_path / "broker"))  # its port chosen, nothing listening yet
    config, journal = table(tmp_path, mq)
    write_journal(journal, total)
    feed = running(config).feed
    wait_until(lambda: feed.window.in_flight() == WINDOW, WAIT, "the feed's window full")
    threading.Event().wait(1.0)
    bound = WINDOW + (FOLLOW_QUEUE + 2) * BATCH  # in flight, the batch being sent, the queue, the one in hand
    assert feed.follower.cursor <= bound < total  # the broker away: the backlog stays in the journal
    assert feed.window.in_flight() == WINDOW

    mq.start()  # nobody subscribed yet: the broker acknowledges the backlog and drops it
    wait_until(lambda: feed.window.acked.seq == total, WAIT, "the feed's cursor at the journal's end")
    db = tmp_path / "pit.sqlite"
    pit = processes(PitProcess(tmp_path, mq.url, db))  # learns from the retained status what it lacks
    wait_until(lambda: pit_count(db) >= 1000, 2 * WAIT, "replayed records at the pit")
    mq.kill()  # mid-replay: the broker dies with what it held
    at_kill = pit_count(db)
    mq.start()
    write_journal(journal, 10, start=total)  # the table journals on
    expected = journal_export(journal)
    wait_until(lambda: pit_export(db, "s1/t1") == expected, 3 * WAIT, "every record at the pit, as the journal exports it")
    assert at_kill < total
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM records WHERE checked != 'ok'").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM alarms WHERE cleared_at IS NULL").fetchone() == (0,)
    assert len([line for line in pit.log() if line.get("event") == "replay_asked"]) >= 2
    assert pit.child.running


def test_a_backlog_goes_several_records_a_message_and_a_record_found_alone_goes_alone(tmp_path, broker, running):
    mq = broker()
    config, journal = table(tmp_path, mq, records_per_message=40)
    write_journal(journal, 250)
    seen: list[dict] = []
    subscribed = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
    client.on_message = lambda c, u, message: seen.append(json.loads(message.payload))
    client.on_subscribe = lambda *_: subscribed.set()
    client.connect("127.0.0.1", mq.port)
    client.subscribe("tablectl/s1/t1/record", qos=1)
    client.loop_start()
    try:
        assert subscribed.wait(WAIT)  # before the feed publishes
        feed = running(config).feed
        wait_until(lambda: feed.window.acked.seq == 250, WAIT, "the backlog sent")
        write_journal(journal, 1, start=250)  # found alone by the feed's next look
        wait_until(lambda: any(m.get("seq") == 251 for m in seen), WAIT, "the record found alone")
    finally:
        client.loop_stop()
        client.disconnect()
    batches = [m for m in seen if "records" in m]
    assert [len(m["records"]) for m in batches] == [40] * 6 + [10]
    assert [r["seq"] for m in batches for r in m["records"]] == list(range(1, 251))
    assert all(m["site"] == "s1" and m["table"] == "t1" and set(m) == {"site", "table", "records"} for m in batches)
    assert batches[0]["records"][0] == journal_export(journal)[0]  # each as `tablectl journal export` writes it
    alone = [m for m in seen if "seq" in m]
    assert [m["seq"] for m in alone] == [251] and "records" not in alone[0]

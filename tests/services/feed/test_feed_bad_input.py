"""Bad input, each a clear error, logged, while the process keeps running and keeps its
cursor: a broker that refuses our certificate, a wrong password, a feed pointed at a missing
journal, a replay request that is not ours; and configurations that cannot work."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from controller.config import ConfigError, config_from_dict
from controller.config.schema import DEFAULT_CONFIG_PATH
from controller.journal import Journal
from services.feed import Cursor, CursorError, Feed, FeedError, load_cursor, save_cursor
from simulation.floor import FeedProcess, PitProcess, feed_section, journal_export, pit_export, publish, wait_until
from simulation.mosquitto import mosquitto_path, needs_mosquitto_reason
from simulation.rig.config_file import toml_text

needs_mosquitto = pytest.mark.skipif(mosquitto_path() is None, reason=needs_mosquitto_reason)
WAIT = 30


def table_config(tmp_path, feed: dict) -> tuple:
    config = {"game": "fortune6", "journal": {"path": str(tmp_path / "journal.sqlite")},
              "control": {"socket": str(tmp_path / "control.sock")}, "feed": feed}
    path = tmp_path / "tablectl.toml"
    path.write_text(toml_text(config))
    return path, tmp_path / "journal.sqlite"


def some_records(journal_path, count=5):
    with Journal(journal_path) as journal:
        for n in range(count):
            journal.append("note", {"n": n})


def reasons(feed, event):
    return [line.get("reason", "") for line in feed.logged(event)]


@needs_mosquitto
def test_a_broker_that_refuses_our_certificate_is_named_and_the_cursor_stays(tmp_path, broker, processes):
    mq = broker(tls=True)
    cert, key = mq.pki.stranger("t1")  # signed by a CA the broker does not trust
    state = tmp_path / "cursor.json"
    save_cursor(state, Cursor(0, None))
    path, journal = table_config(tmp_path, {**feed_section(mq.url, "t1", state, pki=mq.pki),
                                            "client_cert": str(cert), "client_key": str(key)})
    some_records(journal)
    feed = processes(FeedProcess(tmp_path, path))
    wait_until(lambda: any("refused our client certificate" in r for r in reasons(feed, "broker_lost")), WAIT,
               "the feed to say the broker refused its certificate")
    assert feed.child.running
    assert load_cursor(state) == Cursor(0, None)


@needs_mosquitto
def test_a_wrong_password_is_named_and_the_feed_keeps_trying(tmp_path, broker, processes):
    mq = broker(passwords={"t1": "right"})
    secret = tmp_path / "password"
    secret.write_text("wrong\n")
    path, journal = table_config(tmp_path, feed_section(mq.url, "t1", tmp_path / "cursor.json", username="t1",
                                                        password_file=str(secret)))
    some_records(journal)
    feed = processes(FeedProcess(tmp_path, path))
    wait_until(lambda: any("refused our login" in r for r in reasons(feed, "broker_lost")), WAIT, "the login refusal")
    assert feed.child.running
    assert load_cursor(tmp_path / "cursor.json") == Cursor()


@needs_mosquitto
def test_a_missing_journal_is_logged_and_followed_once_it_appears(tmp_path, broker, processes):
    mq = broker()
    path, journal = table_config(tmp_path, feed_section(mq.url, "t1", tmp_path / "cursor.json"))
    db = tmp_path / "pit.sqlite"
    processes(PitProcess(tmp_path, mq.url, db))
    feed = processes(FeedProcess(tmp_path, path))
    wait_until(lambda: feed.logged("journal_unreadable"), WAIT, "the feed to log the missing journal")
    assert f"no journal at {journal}" in feed.logged("journal_unreadable")[0]["reason"]
    some_records(journal, 7)
    wait_until(lambda: pit_export(db, "s1/t1") == journal_export(journal), WAIT, "the records once the journal appeared")
    wait_until(lambda: load_cursor(tmp_path / "cursor.json").seq == 7, WAIT, "the cursor at the last record")
    assert feed.child.running


@needs_mosquitto
def test_a_replay_request_that_is_not_ours_is_logged_and_ignored(tmp_path, broker, processes):
    mq = broker()
    path, journal = table_config(tmp_path, feed_section(mq.url, "t1", tmp_path / "cursor.json"))
    some_records(journal)
    feed = processes(FeedProcess(tmp_path, path))
    wait_until(lambda: load_cursor(tmp_path / "cursor.json").seq == 5, WAIT, "the feed to send the journal")
    publish(mq.port, [("tablectl/s1/t1/replay", payload) for payload in (b"not json", json.dumps({"from": 9, "to": 2}).encode())])
    wait_until(lambda: len(feed.logged("replay_request_ignored")) == 2, WAIT, "both requests refused in the log")
    assert feed.child.running


def test_configurations_that_cannot_work_are_refused_with_the_key_named(tmp_path):
    cases = [
        ({"broker": "mqtt://h:1883"}, "feed.broker: mqtt:// sends the table's records in clear text"),
        ({"broker": "http://h"}, "feed.broker: expected mqtts://host:port (TLS) or mqtt://host:port"),
        ({"table": "t/1"}, "feed.table: expected 1-64 letters"),
        ({"site": "#"}, "feed.site: expected 1-64 letters"),
        ({"prefix": "a/+/b"}, "feed.prefix: expected topic levels"),
        ({"insecure": "yes"}, "feed.insecure: expected true or false"),
        ({"brokr": "x"}, "feed.brokr: unknown key"),
        ({"records_per_message": 0}, "feed.records_per_message: expected an integer from 1 to 1000"),
    ]
    for section, message in cases:
        with pytest.raises(ConfigError) as error:
            config_from_dict({"feed": section})
        assert message in str(error.value), (section, str(error.value))
    config = config_from_dict({"feed": {"table": "t1", "state": str(tmp_path / "c.json")}})
    with pytest.raises(FeedError, match="feed.broker is not set"):
        Feed(config)
    config = config_from_dict({"feed": {"broker": "mqtts://localhost:8883", "state": str(tmp_path / "c.json")}})
    with pytest.raises(FeedError, match="feed.table is not set"):
        Feed(config)


def test_the_cursor_file_is_replaced_whole_and_a_damaged_one_is_named(tmp_path):
    path = tmp_path / "cursor.json"
    assert load_cursor(path) == Cursor()
    save_cursor(path, Cursor(12, "ab" * 32))
    assert load_cursor(path) == Cursor(12, "ab" * 32)
    assert [p.name for p in tmp_path.iterdir()] == ["cursor.json"]  # no temporary file left
    path.write_text("{\"seq\": -1}")
    with pytest.raises(CursorError, match="not a feed cursor"):
        load_cursor(path)


def test_a_cursor_directory_that_does_not_exist_stops_the_feed_naming_the_key(tmp_path):
    """Run by hand with the default feed.state, the unit's StateDirectory= is not there: the feed
    would send and fail to save its cursor at every acknowledgement. It says so at start."""
    config = config_from_dict({"feed": {"broker": "mqtt://127.0.0.1:1", "insecure": True, "table": "t1",
                                        "state": str(tmp_path / "absent" / "cursor.json")},
                               "journal": {"path": str(tmp_path / "journal.sqlite")}})
    with pytest.raises(CursorError, match=r"feed.state: .*absent.* does not exist"):
        Feed(config)


@pytest.mark.skipif(os.path.exists(DEFAULT_CONFIG_PATH), reason=f"this machine has {DEFAULT_CONFIG_PATH}: the feed would read it")
def test_without_any_config_the_feed_says_where_it_looked_and_how_to_give_one():
    done = subprocess.run([sys.executable, "-m", "cli", "feed"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"no config at {DEFAULT_CONFIG_PATH}: give --config FILE" in done.stderr

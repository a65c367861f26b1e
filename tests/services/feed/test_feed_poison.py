"""A poison `replay` request (nested thousands deep: json.loads would raise RecursionError on
the feed's MQTT thread) is logged and dropped, and records keep flowing; and any thread of the
feed or the pit that dies ends its process with an error (exit 70), so systemd restarts it.
A real Mosquitto and real `tablectl feed` / `tablectl pit` processes."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from controller.journal import Journal
from services.feed import load_cursor
from services.feed.feed import RECEIVE_PACKET_BYTES
from services.thread_deaths import EXIT_THREAD_DIED
from simulation.floor import FeedProcess, _json_lines, feed_section, publish, wait_until
from simulation.mosquitto import mosquitto_path, needs_mosquitto_reason
from simulation.rig.config_file import toml_text
from simulation.rig.processes import Child, child_env

needs_mosquitto = pytest.mark.skipif(mosquitto_path() is None, reason=needs_mosquitto_reason)
WAIT = 60


def table_config(tmp_path: Path, broker_url: str) -> tuple[Path, Path]:
    journal = tmp_path / "journal.sqlite"
    config = {"game": "fortune6", "journal": {"path": str(journal)}, "control": {"socket": str(tmp_path / "control.sock")},
              "feed": feed_section(broker_url, "t1", tmp_path / "cursor.json")}
    path = tmp_path / "tablectl.toml"
    path.write_text(toml_text(config))
    return path, journal


def append(journal_path: Path, count: int) -> None:
    with Journal(journal_path) as journal:
        for n in range(count):
            journal.append("note", {"n": n})


@needs_mosquitto
def test_a_poison_replay_request_is_dropped_and_records_keep_flowing(tmp_path, broker, processes):
    mq = broker()
    path, journal = table_config(tmp_path, mq.url)
    append(journal, 5)
    feed = processes(FeedProcess(tmp_path, path))
    wait_until(lambda: load_cursor(tmp_path / "cursor.json").seq == 5, WAIT, "the feed to send the journal")
    replay = "tablectl/s1/t1/replay"
    publish(mq.port, [
        (replay, b'{"from":' + b"[" * 5000 + b"]" * 5000 + b',"to":2}'),  # killed the MQTT thread
        (replay, b"[" * (RECEIVE_PACKET_BYTES + 1)),  # past the feed's Maximum Packet Size: not even sent to it
        (replay, b"[" * 1000),
        (replay, b'{"from":' + b"[" * 400 + b"]" * 400 + b',"to":2}'),
        (replay, b'{"from": 1, "to": '),
    ])
    wait_until(lambda: len(feed.logged("replay_request_ignored")) == 4, WAIT, "four requests logged and dropped")
    reasons = [line["reason"] for line in feed.logged("replay_request_ignored")]
    assert "more than the 1024 allowed" in reasons[0]
    assert "nested deeper than the 2 levels allowed" in reasons[1] and "nested deeper than the 2 levels allowed" in reasons[2]
    assert reasons[3].startswith("not JSON")
    append(journal, 5)  # acknowledged by the broker on the MQTT thread: it is alive
    wait_until(lambda: load_cursor(tmp_path / "cursor.json").seq == 10, WAIT, "the records after the poison sent")
    publish(mq.port, [(replay, b'{"from": 2, "to": 4}')])
    wait_until(lambda: feed.logged("replayed"), WAIT, "a good request served")
    assert feed.child.running


# Fault injection: nothing from outside kills a thread any more, so a thread is made to fail
# by replacing one of its functions in the real process before it starts.
FEED_FAULTS = {
    "the MQTT thread": ("from services.feed.feed import Feed\n"
                        "def broken(self, client, userdata, message):\n"
                        "    raise RuntimeError('injected: the replay handler failed')\n"
                        "Feed._replay_asked = broken\n", "mqtt-tablectl-feed-s1-t1"),
    "the follower thread": ("from services.follow import JournalFollower\n"
                            "def broken(self, stop):\n"
                            "    raise RuntimeError('injected: the follower failed')\n"
                            "    yield\n"
                            "JournalFollower.batches = broken\n", "follow"),
}


def with_fault(fault: str, *argv: str) -> list[str]:
    return [sys.executable, "-c", f"import sys\n{fault}from cli import main\nsys.exit(main(sys.argv[1:]))", *argv]


@needs_mosquitto
@pytest.mark.parametrize("where", sorted(FEED_FAULTS))
def test_a_feed_thread_that_dies_ends_the_feed_with_an_error(tmp_path, broker, processes, where):
    mq = broker()
    path, journal = table_config(tmp_path, mq.url)
    append(journal, 3)
    fault, thread = FEED_FAULTS[where]
    feed = processes(FeedProcess(tmp_path, path))
    feed.child.kill()  # replaced by the same command with the fault injected
    feed.child = Child("feed-faulty", with_fault(fault, "feed", "--config", str(path)), tmp_path,
                       env=child_env(PYTHONUNBUFFERED="1"))
    if where == "the MQTT thread":
        wait_until(lambda: load_cursor(tmp_path / "cursor.json").seq == 3, WAIT, "the feed to send the journal")
        publish(mq.port, [("tablectl/s1/t1/replay", b'{"from": 1, "to": 2}')])
    assert feed.child.wait(WAIT) == EXIT_THREAD_DIED
    died = [line for line in _json_lines(feed.child.stdout_path) if line.get("event") == "thread_died"]
    assert [line["thread"] for line in died] == [thread]
    assert "RuntimeError: injected" in died[0]["error"] and "Traceback" in died[0]["traceback"]
    assert "ended because a thread died" in feed.child.stderr_path.read_text()


@needs_mosquitto
def test_a_pit_thread_that_dies_ends_the_pit_with_an_error(tmp_path, broker):
    mq = broker()
    fault = ("from services.pit.pit import Pit\n"
             "def broken(self, client, userdata, message):\n"
             "    raise RuntimeError('injected: the inbox failed')\n"
             "Pit._arrived = broken\n")
    pit = Child("pit-faulty", with_fault(fault, "pit", "--json", "--insecure", "--broker", mq.url, "--db",
                                         str(tmp_path / "pit.sqlite"), "--client-id", "tablectl-pit-t"),
                tmp_path, env=child_env(PYTHONUNBUFFERED="1"))
    try:
        wait_until(lambda: any(line.get("event") == "broker_connected" for line in _json_lines(pit.stderr_path)), WAIT,
                   "the pit to connect")
        publish(mq.port, [("tablectl/s1/t1/status", b'{"site": "s1", "table": "t1", "state": "online"}')])
        assert pit.wait(WAIT) == EXIT_THREAD_DIED
    finally:
        pit.stop()
    died = [line for line in _json_lines(pit.stderr_path) if line.get("event") == "thread_died"]
    assert [line["thread"] for line in died] == ["mqtt-tablectl-pit-t"]

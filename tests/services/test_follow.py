"""JournalFollower against a real journal (SQLite, WAL, written by Journal in this process)
and a real ControlServer on a Unix socket: records arrive in order once each, from a cursor,
through the daemon's absence and return, and a replaced journal is reported, not read."""
import os
import queue
import threading

import pytest

from controller.control import ControlServer
from controller.journal import Journal, Record
from services.follow import JournalFollower, Link

WAIT = 30


class Following:
    """A follower running on a thread of its own, its items in a queue."""

    def __init__(self, follower: JournalFollower):
        self.follower = follower
        self.items: queue.Queue = queue.Queue()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        for item in self.follower.items(self.stop):
            self.items.put(item)

    def next(self, kind):
        while True:
            item = self.items.get(timeout=WAIT)
            if isinstance(item, kind):
                return item

    def records(self, count):
        return [self.next(Record) for _ in range(count)]

    def close(self):
        self.stop.set()
        self.thread.join(WAIT)
        assert not self.thread.is_alive()


def answer_nothing(request):
    request.fail("not a daemon")


@pytest.fixture
def paths(tmp_path):
    return str(tmp_path / "journal.sqlite"), str(tmp_path / "control.sock")


@pytest.fixture
def following(paths):
    made = []

    def start(**options):
        f = Following(JournalFollower(*paths, poll_s=0.05, **options))
        made.append(f)
        return f

    yield start
    for f in made:
        f.close()


def test_records_arrive_in_order_once_each_woken_by_the_event_stream(paths, following):
    journal_path, sock_path = paths
    with Journal(journal_path) as journal, ControlServer(sock_path, answer_nothing) as server:
        for n in range(3):
            journal.append("note", {"n": n})
        f = following()
        assert f.next(Link) == Link(online=True)
        assert [r.payload["n"] for r in f.records(3)] == [0, 1, 2]
        for n in range(3, 6):
            journal.append("note", {"n": n})
            server.publish({"event": "note", "n": n})
        got = f.records(3)
        assert [r.seq for r in got] == [4, 5, 6]
        assert [r.payload["n"] for r in got] == [3, 4, 5]
    assert f.items.empty() or not any(isinstance(i, Record) for i in list(f.items.queue))


def test_a_cursor_skips_what_was_already_taken(paths, following):
    journal_path, sock_path = paths
    with Journal(journal_path) as journal:
        records = [journal.append("note", {"n": n}) for n in range(5)]
    f = following(since=3, since_hash=records[2].hash)
    assert f.next(Link) == Link(online=False)
    assert [r.seq for r in f.records(2)] == [4, 5]


def test_without_the_daemon_the_journal_is_polled_and_the_link_is_reported(paths, following):
    journal_path, sock_path = paths
    with Journal(journal_path) as journal:
        journal.append("note", {"n": 0})
        f = following()
        assert f.next(Link) == Link(online=False)
        assert f.records(1)[0].seq == 1
        journal.append("note", {"n": 1})  # no event: found by polling
        assert f.records(1)[0].seq == 2
        with ControlServer(sock_path, answer_nothing) as server:
            assert f.next(Link) == Link(online=True)
            journal.append("note", {"n": 2})
            server.publish({"event": "note"})
            assert f.records(1)[0].seq == 3
        assert f.next(Link) == Link(online=False)  # the daemon went away


def test_a_missing_journal_is_reported_and_followed_once_it_appears(paths, following):
    journal_path, _ = paths
    f = following()
    link = f.next(Link)
    assert not link.online and link.journal_error == f"no journal at {journal_path}"
    with Journal(journal_path) as journal:
        journal.append("note", {"n": 0})
        assert f.next(Link) == Link(online=False)
        assert f.records(1)[0].seq == 1


def test_a_replaced_journal_is_reported_and_not_read(paths, following, tmp_path):
    journal_path, _ = paths
    with Journal(journal_path) as journal:
        journal.append("note", {"n": 0})
        journal.append("note", {"n": 1})
    f = following()
    assert len(f.records(2)) == 2
    other = str(tmp_path / "other.sqlite")
    with Journal(other) as journal:
        for n in range(4):
            journal.append("other", {"n": n})
    os.replace(other, journal_path)
    link = f.next(Link)
    assert "record 2 is no longer the one already read" in link.journal_error
    assert f.items.empty() or not any(isinstance(i, Record) for i in list(f.items.queue))


def test_a_backlog_comes_in_bounded_batches_read_only_as_the_caller_takes_them(paths):
    """Constant memory however long the backlog: the journal is read `batch` records at a time,
    the next batch only once the caller asks for it."""
    journal_path, sock_path = paths
    with Journal(journal_path) as journal:
        journal.append_many([("note", {"n": n}, None, False) for n in range(25)])
    follower = JournalFollower(journal_path, sock_path, poll_s=0.05, batch=10)
    stop = threading.Event()
    batches = follower.batches(stop)
    assert next(batches) == Link(online=False)
    first = next(batches)
    assert [r.seq for r in first] == list(range(1, 11))
    assert follower.cursor == 10  # nothing beyond the batch handed over was read
    assert [r.seq for r in next(batches)] == list(range(11, 21))
    assert follower.cursor == 20
    assert [r.seq for r in next(batches)] == list(range(21, 26))
    with Journal(journal_path) as journal:
        journal.append("note", {"n": 25})
    assert [r.seq for r in next(batches)] == [26]  # found by polling, alone
    stop.set()
    assert list(batches) == []


def test_items_deliver_a_backlog_larger_than_a_batch_once_each_in_order(paths, following):
    journal_path, _ = paths
    with Journal(journal_path) as journal:
        journal.append_many([("note", {"n": n}, None, False) for n in range(23)])
    f = following(batch=5)
    assert [r.seq for r in f.records(23)] == list(range(1, 24))
    assert f.items.empty() or not any(isinstance(i, Record) for i in list(f.items.queue))


def test_a_batch_of_no_record_is_refused(paths):
    with pytest.raises(ValueError, match="at least one record"):
        JournalFollower(*paths, batch=0)

"""BoardStream in-process (its real follower thread on a real journal, an asyncio loop as the web
server's): a display that falls too far behind is cut off and catches up from the log with
its last id; an id from before a trimmed log gets a snapshot; where the board starts reading."""
from __future__ import annotations

import asyncio
import json
import sqlite3

from journal_script import HANDS, TableScript

from controller.journal import Journal, iter_records, open_readonly
from services import fold_stream
from services.scoreboard import stream as stream_module
from services.scoreboard.start_point import start_point
from services.scoreboard.stream import BoardStream


def last_seq(journal) -> int:
    return journal.connection.execute("SELECT MAX(seq) FROM records").fetchone()[0]


async def wait_for_seq(stream: BoardStream, seq: int) -> None:
    for _ in range(3000):
        if stream.seq >= seq:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the stream did not reach record {seq} (at {stream.seq})")


def test_a_display_too_far_behind_is_cut_off_and_catches_up_from_the_log(tmp_path, monkeypatch):
    monkeypatch.setattr(fold_stream, "QUEUE", 5)  # the shared stream's bound, read as each display connects

    async def scenario():
        with Journal(tmp_path / "journal.sqlite") as journal:
            script = TableScript(journal)
            script.new_shoe(1)
            stream = BoardStream(str(journal.path), str(tmp_path / "none.sock"), game="fortune6", poll_s=0.05)
            await stream.start()
            first, slow = stream.connect(None)
            (snapshot_id,) = [int(e.id) for e in first if e.event == "update"]
            for token in ("B", "P", "T"):
                script.play(token, *HANDS[token])  # 3 rounds: 24 updates, far more than 5
            await wait_for_seq(stream, last_seq(journal))
            assert slow.dropped and slow not in stream.displays
            received = []
            while not slow.queue.empty():
                received.append(slow.queue.get_nowait())
            assert len(received) == 5  # the queue's bound (a `link` event may be among them)
            received = [e for e in received if e.event == "update"]
            replay, again = stream.connect(int(received[-1].id))
            replayed = [e for e in replay if e.event == "update"]
            ids = [int(e.id) for e in received + replayed]
            assert ids == [seq for seq, _ in stream.log if seq > snapshot_id]
            assert json.loads(replayed[-1].data)["round"]["state"] == "settled"
            stream.disconnect(again)
            await stream.stop()

    asyncio.run(scenario())


def test_an_id_older_than_the_trimmed_log_gets_a_snapshot(tmp_path):
    async def scenario():
        with Journal(tmp_path / "journal.sqlite") as journal:
            script = TableScript(journal)
            script.new_shoe(1)
            stream = BoardStream(str(journal.path), str(tmp_path / "none.sock"), game="fortune6", poll_s=0.05,
                                 log_bytes=20_000)
            await stream.start()
            start = stream.seq
            for token in ("B", "P", "B", "B", "P", "T") * 2:
                script.play(token, *HANDS[token])
            await wait_for_seq(stream, last_seq(journal))
            assert stream.log_base > start and stream.log_bytes <= 20_000
            first, display = stream.connect(start + 1)
            (update,) = [e for e in first if e.event == "update"]
            assert json.loads(update.data)["kind"] == "snapshot" and int(update.id) == stream.seq
            kept, display2 = stream.connect(stream.log_base)
            assert [int(e.id) for e in kept if e.event == "update"] == [seq for seq, _ in stream.log]
            await stream.stop()

    asyncio.run(scenario())


def test_the_start_point_of_a_baccarat_board_is_its_last_shoe(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        script = TableScript(journal)
        script.new_shoe(1)
        for token in ("B", "P"):
            script.play(token, *HANDS[token])
        second = script.new_shoe(2)[0]
        script.play("T", *HANDS["T"])
    start = start_point(str(tmp_path / "journal.sqlite"), "fortune6", history=20)
    assert start.since == second.seq - 1 and start.game == "fortune6"
    with open_readonly(tmp_path / "journal.sqlite") as conn:
        (anchor,) = iter_records(conn, start.since - 1, start.since)
    assert start.since_hash == anchor.hash


def test_the_start_point_of_a_spot_game_is_its_recent_rounds(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        script = TableScript(journal, game="paigow")
        script.new_shoe(1)
        opened = [script.open(spots=[1])[0] for _ in range(30)]
    start = start_point(str(tmp_path / "journal.sqlite"), "fortune6", history=20)  # the journal's game wins
    assert start.game == "paigow" and start.since == opened[-20].seq - 1


def test_the_start_point_skips_a_shoe_record_nested_too_deep(tmp_path):
    """A journal edited by hand: a payload nested thousands deep raised RecursionError here, and
    the scoreboard failed at the same record after every restart."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        script = TableScript(journal)
        first = script.new_shoe(1)[0]
        script.play("B", *HANDS["B"])
        edited = script.new_shoe(2)[0]
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE records SET payload = ? WHERE seq = ?", ('{"event":' + "[" * 100_000 + "]" * 100_000 + "}", edited.seq))
    conn.close()
    assert start_point(str(path), "fortune6", history=20).since == first.seq - 1


def test_the_start_point_without_a_journal_or_a_shoe_is_the_beginning(tmp_path):
    assert start_point(str(tmp_path / "none.sqlite"), "fortune6", history=20).since == 0
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.append("daemon_started", {"game": "fortune6"})
    assert start_point(str(tmp_path / "journal.sqlite"), "fortune6", history=20).since == 0


def test_a_board_that_cannot_be_built_is_a_failure_not_a_frozen_page(tmp_path, monkeypatch):
    """A bug in the fold (here: one forced) ends the service with the reason; systemd restarts it."""
    def broken(self, record):
        raise RuntimeError("a bug")

    monkeypatch.setattr(stream_module.Board, "apply", broken)
    failures = []

    async def scenario():
        with Journal(tmp_path / "journal.sqlite") as journal:
            TableScript(journal).new_shoe(1)
            stream = BoardStream(str(journal.path), str(tmp_path / "none.sock"), game="fortune6", poll_s=0.05,
                                 on_failure=failures.append)
            await stream.start()
            assert stream.failure == "RuntimeError: a bug"
            await stream.stop()

    asyncio.run(scenario())
    assert failures == ["RuntimeError: a bug"]

"""`tablectl edge`'s inputs read within bounds: a journal record whose payload is nested
thousands deep (a journal edited by hand: json.loads would raise RecursionError and end the
service at the same record after every restart) is logged as not followed and skipped, and the
lines for the rounds after it still come. A real journal file, followed by the real follower
while no daemon is there (it polls)."""
from __future__ import annotations

import sqlite3
import threading

import pytest
import structlog

from controller.journal import DamagedRecord, Journal
from services.edge.follow import follow_edge
from services.edge.tracker import EdgeTracker

WAIT = 30


def edit_payload(journal_path, seq: int, payload_text: str) -> None:
    with sqlite3.connect(journal_path) as conn:
        conn.execute("UPDATE records SET payload = ? WHERE seq = ?", (payload_text, seq))
    conn.close()


def test_a_record_nested_too_deep_is_refused_unread():
    from controller.journal import Record

    record = Record(5, "2026-11-26T00:00:00.000000Z", 1, "card", 1, "[" * 100_000 + "]" * 100_000, "0" * 64, "0" * 64)
    with pytest.raises(DamagedRecord, match="record 5.*its payload is refused unread .*nested deeper than the 32 levels"):
        record.payload  # noqa: B018 -- reading it is the test


def test_edge_skips_a_deep_record_and_follows_the_rounds_after_it(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal.append("daemon_started", {"game": "fortune7", "decks": 8})
        journal.append("shoe", {"event": "new", "shoe": 1})
        journal.append("round_opened", {"round": 1, "game": "fortune7", "decks": 8, "shoe": 1, "spots": []})
        poisoned = journal.append("card", {"round": 1, "card": "9s", "status": "dealt"})
        journal.append("card", {"round": 1, "card": "Kd", "status": "dealt"})
        journal.append("settled", {"round": 1})
        journal.append("round_opened", {"round": 2, "game": "fortune7", "decks": 8, "shoe": 1, "spots": []})
        journal.append("card", {"round": 2, "card": "2c", "status": "dealt"})
        journal.append("settled", {"round": 2})
    edit_payload(path, poisoned.seq, '{"card":' + "[" * 100_000 + "]" * 100_000 + "}")
    lines = []
    stop = threading.Event()
    timer = threading.Timer(WAIT, stop.set)  # a bound that fails a hung test
    timer.start()
    try:
        with structlog.testing.capture_logs() as logs:
            follow_edge(str(path), str(tmp_path / "no-daemon.sock"), EdgeTracker("fortune7", 8), lines.append, stop,
                        count=3, poll_s=0.05)
    finally:
        timer.cancel()
    assert [line.round for line in lines] == [None, 1, 2]
    assert [line.report.cards_left for line in lines] == [416, 415, 414]  # Kd, then 2c: the 9s unread
    skipped = [entry for entry in logs if entry["event"] == "record_not_followed"]
    assert [entry["seq"] for entry in skipped] == [poisoned.seq]
    assert "nested deeper than the 32 levels allowed" in skipped[0]["error"]

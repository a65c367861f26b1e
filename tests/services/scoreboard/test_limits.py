"""The scoreboard under abuse, as a real process: half-sent requests (slowloris) hold no more
than MAX_CONNECTIONS connections and each at most HEADER_TIMEOUT_S, the log says so a few
times rather than once per connection, and the board answers again afterwards; a
Last-Event-ID that is not a seq (a huge one reached int() and was a 500) is a 400."""
from __future__ import annotations

import http.client
import json
import os
import socket
import time

import pytest
from kiosk import WAIT, ScoreboardProcess

from services.http_limits import BACKLOG, HEADER_TIMEOUT_S, MAX_CONNECTIONS, RateLimitedLog


@pytest.fixture
def board(tmp_path):
    config = tmp_path / "tablectl.toml"
    config.write_text(f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n[control]\nsocket = "{tmp_path / "c.sock"}"\n')
    process = ScoreboardProcess(config, directory=tmp_path)
    yield process
    assert process.stop() == 0


def events_status(board, last_event_id: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(board.host, board.port, timeout=WAIT)
    try:
        conn.request("GET", "/events", headers={"Accept": "text/event-stream", "Last-Event-ID": last_event_id})
        response = conn.getresponse()
        return response.status, response.read() if response.status != 200 else b""
    finally:
        conn.close()


@pytest.mark.parametrize("header", ["9" * 5000, "9" * 20, "x" * 10_000])
def test_a_last_event_id_longer_than_a_seq_is_a_400(board, header):
    status, body = events_status(board, header)
    assert status == 400, (status, body[:300], board.output())
    assert body.startswith(b"Last-Event-ID: expected a record's seq (at most 19 digits), got ")
    assert events_status(board, "0")[0] == 200
    assert "Traceback" not in board.output()


@pytest.mark.parametrize("header", ["abc", "-1", "1e3", "[[[[1]]]]", "²", "9" * 19])
def test_a_last_event_id_that_names_no_seq_of_ours_gets_a_snapshot(board, header):
    assert events_status(board, header)[0] == 200  # "²" is a digit to str.isdigit, not to int(): it was a 500
    assert "Traceback" not in board.output()


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.mark.slow  # it waits out the real header time (HEADER_TIMEOUT_S) of 188 half-sent requests
def test_half_sent_requests_are_capped_cut_after_the_header_time_and_logged_a_few_times(board):
    idle = open_fds(board.child.pid)
    flood = MAX_CONNECTIONS + 60
    clients = []
    for _ in range(flood):
        client = socket.create_connection((board.host, board.port), timeout=WAIT)
        client.sendall(b"GET /roads.json HTTP/1.1\r\nHost: table\r\nX-Slow: ")  # and never the rest
        clients.append(client)
    most = idle
    ended: set[int] = set()
    deadline = time.monotonic() + HEADER_TIMEOUT_S + WAIT
    while len(ended) < flood:
        assert time.monotonic() < deadline, f"{flood - len(ended)} half-sent connections still open\n{board.output()}"
        most = max(most, open_fds(board.child.pid))
        for n, client in enumerate(clients):
            if n not in ended:
                client.settimeout(0.001)
                try:
                    if client.recv(4096) == b"":
                        ended.add(n)
                except TimeoutError:
                    pass
                except ConnectionResetError:
                    ended.add(n)
    for client in clients:
        client.close()
    # the cap, and at most one accept() round (BACKLOG) of connections being refused past it
    assert most <= idle + MAX_CONNECTIONS + BACKLOG, (most, idle)
    assert board.get_json()["seq"] == 0  # and it answers again
    closes = [line for line in board.output().splitlines() if "connection closed" in line]
    assert 1 <= len(closes) <= 6, closes  # two kinds, one line each per 10 s, not one per connection
    said = " ".join(json.loads(line)["event"] for line in closes)
    assert "(the cap)" in said and f"not complete within {HEADER_TIMEOUT_S:g} s" in said


def test_the_log_limit_lets_one_of_a_kind_through_then_counts_the_rest():
    import logging

    limit = RateLimitedLog(every_s=3600)
    records = [logging.LogRecord("asyncio", logging.ERROR, __file__, 1, "socket.accept() out of system resource\nsocket: %s",
                                 (n,), None) for n in range(1000)]
    assert [limit.filter(r) for r in records].count(True) == 1
    other = logging.LogRecord("uvicorn.error", logging.WARNING, __file__, 1, "Exceeded concurrency limit.", (), None)
    assert limit.filter(other)
    limit.every_s = 0
    again = logging.LogRecord("asyncio", logging.ERROR, __file__, 1, "socket.accept() out of system resource", (), None)
    assert limit.filter(again) and "(999 more like it" in again.getMessage()

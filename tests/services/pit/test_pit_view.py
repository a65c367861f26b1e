"""The pit's live view fitted to the terminal: each table on one line of 80 or 120 columns
(columns narrowed, then the least needed left out), no more lines than the terminal has, and why the pit is not connected said
under its title — from the rendering alone, and from `tablectl pit` on a real pty against a
port where no broker listens."""
from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import termios
import time

import pytest

from services.pit.floor import TableView
from services.pit.store import Alarm
from services.pit.view import COLUMNS, render

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
WAIT = 60.0  # a guard against a hang, not a measurement
TITLE = "tablectl pit  mqtts://pit-broker.floor.example:8883 (NOT CONNECTED)  tablectl/#  db /var/lib/pit/pit.sqlite  12:00:00"


def _views() -> list[TableView]:
    return [TableView("main-floor/baccarat-07", game="fortune6", round=1234, round_state="settled",
                      last_result="VOID (fortune6 §5.4)", holds=["round 1234: misread (local ruling L5)"], irregularities=3,
                      link="offline", link_since="2026-11-26T12:00:00Z", held_back=12, alarms=2),
            TableView("vip/t01", game="paigow", round=9, round_state="betting", last_result="spot 1 win, spot 3 lose",
                      link="online")]


@pytest.mark.parametrize("width", [200, 123, 119, 79, 59, 39])
def test_every_table_keeps_to_one_line_that_fits(width):
    alarm = Alarm(id=1, table="vip/t01", kind="chain_broken", detail="record 12: its hash does not follow from record 11 " * 3,
                  raised_at="2026-11-26T12:00:01Z", seq=12, last_seq=12)
    text = render(_views(), [alarm], TITLE, width, notice="not connected: cannot reach the broker at "
                  "pit-broker.floor.example:8883: Connection refused")
    lines = text.split("\n")
    assert all(len(line) <= width for line in lines), [line for line in lines if len(line) > width]
    header = next(i for i, line in enumerate(lines) if line.startswith("TABLE"))
    assert lines[header + 1].startswith("main-fl") and lines[header + 2].startswith("vip/t01")  # one line each
    assert lines[header + 3] == ""
    assert "Connection refused" in " ".join(lines[1:header])  # the reason, wrapped under the title
    if width >= sum(c.width for c in COLUMNS) + 2 * (len(COLUMNS) - 1):
        assert "VOID (fortune6 §5.4)" in lines[header + 1] and "offline since 12:00:00" in lines[header + 1]
    else:
        assert "…" in lines[header + 1]  # cut, and saying so


def test_at_80_columns_the_view_keeps_the_columns_a_pit_boss_reads_first():
    header = render(_views(), [], "tablectl pit", 79).split("\n")[2]
    assert header.split() == ["TABLE", "GAME", "ROUND", "STATE", "LAST", "RESULT", "HOLD", "LINK", "ALARMS"]


def test_more_tables_than_rows_end_in_a_line_saying_how_many_more():
    views = [TableView(f"s1/t{n:02}", game="fortune6", round=n) for n in range(30)]
    lines = render(views, [], "tablectl pit", 79, height=23).split("\n")
    assert len(lines) == 23 and lines[3].startswith("s1/t00")
    assert lines[-1] == f"… {3 + 30 - 22} more lines (a taller terminal shows them)"
    assert len(render(views, [], "tablectl pit", 79, height=40).split("\n")) == 33  # all of them when they fit


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_live_pit_says_why_it_is_not_connected(tmp_path):
    port = _free_port()  # nothing listens there: the connection is refused
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "cli", "pit", "--broker", f"mqtt://127.0.0.1:{port}", "--insecure",
                             "--db", str(tmp_path / "pit.sqlite")], cwd=ROOT, stdin=slave, stdout=slave,
                            stderr=subprocess.PIPE, start_new_session=True)
    os.close(slave)
    output = b""
    try:
        deadline = time.monotonic() + WAIT
        while b"Connection refused" not in output:
            assert time.monotonic() < deadline and proc.poll() is None, output.decode(errors="replace")
            if select.select([master], [], [], 0.2)[0]:
                output += os.read(master, 65536)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    screen = re.split(r"\x1b\[H\x1b\[2J", output.decode(errors="replace").replace("\r\n", "\n"))[-1]
    lines = screen.rstrip("\n").split("\n")
    assert "(NOT CONNECTED)" in lines[0]
    said = " ".join(line.strip() for line in lines[1:3])
    assert f"not connected: cannot reach the broker at 127.0.0.1:{port}: Connection refused" in said, screen
    assert all(len(line) < 80 for line in lines), screen

"""The journal at start-up, against the real daemon: it checks the chain from its anchor; on a
journal that fails (records cut off its end, or emptied to 0 bytes while the daemon was
stopped) it does not deal. It reports the first broken record in its log, in STATUS= and
`tablectl status`, and on the lamps; every command is refused. The documented recovery is
the supervisor's `new_chain` through the daemon (key on): the old files are archived, a new
chain starts whose first record names the old head and who gave the command, and the table
deals on it."""
from __future__ import annotations

import json
import os
import pwd
import sqlite3

import pytest

from controller.control import ControlClient
from controller.journal import read_anchor, verify

pytestmark = pytest.mark.hil
WAIT = 20.0  # guards against hanging, never a measure of speed


def cut_tail(path, records: int) -> int:
    """Delete the last `records` records (as a crude cut of the file's end would lose them);
    returns the last record left."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        last = conn.execute("SELECT MAX(seq) FROM records").fetchone()[0]
        conn.execute("DELETE FROM records WHERE seq > ?", (last - records,))
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return last - records


def empty(path, records: int) -> int:
    with open(path, "r+b") as file:
        file.truncate(0)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(f"{path}{suffix}"):
            os.unlink(f"{path}{suffix}")
    return 0


@pytest.mark.parametrize(("damage", "problem", "first_broken"), [
    (cut_tail, "truncated", lambda last: f"journal broken at record {last + 1} (truncated): the journal ends at record "
                                         f"{last}, but its anchor names record"),
    (empty, "empty", lambda last: "journal broken (empty): the journal is 0 bytes (emptied or truncated)"),
])
def test_a_broken_journal_is_not_dealt_on_until_the_supervisor_starts_a_new_chain(start_rig, damage, problem,
                                                                                  first_broken):
    rig = start_rig("fortune6", seed=14)
    rig.new_shoe()
    assert rig.play_round()["event"] == "result"
    assert rig.stop_daemon() == 0
    anchored = read_anchor(rig.journal_path)
    assert anchored.seq == rig.records()[-1].seq  # anchored after daemon_stopped
    last = damage(rig.journal_path, 3)

    rig.start_daemon()  # READY=1 comes: the unit stays up for the recovery
    line = first_broken(last)
    said = [m.fields["STATUS"] for m in rig.notify.messages if "READY" in m.fields and m.pid == rig.daemon.pid]
    assert said and said[-1].startswith(line) and "not dealing" in said[-1] and "new_chain" in said[-1]
    logged = [json.loads(text) for text in rig.daemon.output().splitlines() if '"journal_broken"' in text]
    assert logged and logged[-1]["problem"] == problem and logged[-1]["level"] == "critical"
    if problem == "truncated":
        assert logged[-1]["first_broken_record"] == last + 1
    status = rig.status()
    assert status["state"] == "journal_broken" and status["journal_check"]["problem"] == problem
    assert status["message"].startswith(line) and status["daemon"]["dealing"] is False
    lamps = rig.wait_lamps({"error": "fast", "supervisor": "fast", "bets_open": "off", "result": "off"})
    assert {name for name, pattern in lamps.items() if pattern != "off"} == {"error", "supervisor"}

    refused = rig.send("place_bets")
    assert not refused["ok"] and refused["error"].startswith(f"place_bets: {line}")
    assert not rig.press("place_bets")["ok"]  # the panel's buttons too
    assert rig.send("new_chain", reason="tail cut off")["error"] == "new_chain needs the supervisor key"
    rig.key(True)
    done = rig.send("new_chain", reason="the journal's tail was cut off; the old file is kept for the inspector")
    assert done["ok"], done
    archived = rig.journal_path.parent / done["archived"][0]
    assert archived.name.startswith("journal.sqlite.archived-") and archived.exists()

    rig.connect()  # the daemon restarted its socket on the new chain
    rig.wait_until(lambda: rig.status()["daemon"]["ready"], WAIT, "the daemon to deal on the new chain")
    first = rig.records()[0]
    assert (first.seq, first.kind) == (1, "chain_started")
    assert first.payload["by"] == {"source": "socket", "uid": os.getuid(), "user": pwd.getpwuid(os.getuid()).pw_name,
                                   "pid": first.payload["by"]["pid"]}
    assert first.payload["reason"].startswith("the journal's tail was cut off")
    previous = first.payload["previous"]
    assert previous["problem"] == problem and previous["archived_as"] == archived.name
    assert previous["anchor"]["seq"] == anchored.seq
    rig.key(False)
    rig.new_shoe()
    assert rig.play_round()["event"] == "result"
    assert rig.verify().ok
    if problem == "truncated":  # the archived file keeps what it had: its chain to the cut still reads
        assert verify(archived).head_seq == last
    with ControlClient(rig.socket_path) as client:
        assert client.request("status")["daemon"]["journal"]["records"] == rig.records()[-1].seq


def test_a_journal_that_passes_is_anchored_at_start_and_dealt_on(start_rig):
    rig = start_rig("fortune6", seed=15)
    anchor = read_anchor(rig.journal_path)
    assert anchor is not None and anchor.seq == 0  # a new journal: anchored at its empty head
    rig.new_shoe()
    rig.play_round()
    rig.kill_daemon()  # no daemon_stopped, no last anchor: the next start checks from the last one
    written = len(rig.records())
    assert read_anchor(rig.journal_path).seq < written
    rig.start_daemon()
    checked = [json.loads(text) for text in rig.daemon.output().splitlines() if '"journal_checked"' in text][-1]
    assert checked["records"] == written and checked["checked"] == written - checked["anchor"]
    assert read_anchor(rig.journal_path).seq == written  # anchored once checked, before daemon_started
    rig.key(True)
    refused = rig.send("new_chain", reason="just because")
    assert refused["error"].startswith("new_chain: the journal passed its start-up check: there is nothing to recover")
    rig.key(False)
    assert rig.play_round()["event"] == "result"


def test_stopped_while_its_journal_is_broken_it_touches_nothing(start_rig):
    rig = start_rig("fortune6", seed=16)
    assert rig.stop_daemon() == 0
    os.rename(rig.journal_path, f"{rig.journal_path}.moved")  # deleted or moved; its anchor stays
    rig.start_daemon()
    status = rig.status()
    assert status["journal_check"]["problem"] == "missing"
    assert status["message"].startswith("journal broken (missing): there is no journal, but its anchor")
    assert rig.stop_daemon() == 0
    assert not rig.journal_path.exists()  # no new chain was started over the anchor
    assert not os.path.exists(rig.socket_path)

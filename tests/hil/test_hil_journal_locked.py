"""The real daemon while another process holds its journal's SQLite write lock: nothing in the
reactor blocks, so the three device links keep answering (heartbeats, the lamp board's acks)
while the records wait, and the records land, in order, once the lock is released.

The lock is held for longer than either side's silence timeout (3.5 heartbeat intervals) and
than the shoe's whole retransmission budget: a daemon that stopped answering would show as a
silent host in the simulators, and as a LinkLost in the journal. The shoe's cards are not
acknowledged while they cannot be written (protocol 1.2, PROTOCOL.md §9): its retries run out,
it keeps them and starts a new session, and once the lock goes each card is journaled once."""
import sqlite3
import time

import pytest

pytestmark = pytest.mark.hil
WAIT = 20.0  # guards against hanging, never a measure of speed
LOCKED_S = 4.5  # > 3.5 s of silence (heartbeat 1 s) and > 5 retries x 0.25 s ack timeout


def link_stats(rig) -> dict:
    return {kind: sim.state() for kind, sim in (("shoe", rig.shoe), ("panel", rig.panel), ("lights", rig.lights))}


def test_a_locked_journal_keeps_the_links_answered_and_its_records_land_once_free(start_rig):
    rig = start_rig("fortune6", seed=4)
    rig.new_shoe()
    rig.open_round()
    head = rig.status()["daemon"]["journal"]["records"]
    before = link_stats(rig)
    other = sqlite3.connect(rig.journal_path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process's write lock: the daemon cannot commit
    try:
        drawn = rig.draw(2, wait=False)  # two cards leave the shoe while the journal is locked
        rig.notify.wait_for(lambda m: "journal locked by another process" in m.text, WAIT)
        time.sleep(LOCKED_S)
        during = link_stats(rig)
        assert len(rig.records()) == head  # nothing was written (a reader still sees the journal)
    finally:
        other.execute("ROLLBACK")
        other.close()
    for kind, state in during.items():
        if kind != "shoe":  # the shoe's session may be between its end and the next one now
            assert state["connected"], f"the {kind} lost its session while the journal was locked: {state['log']}"
        # the daemon's heartbeats kept arriving at every device
        assert state["link"]["frames_in"] >= before[kind]["link"]["frames_in"] + 3, (kind, before[kind], state)
    assert during["panel"]["link"]["delivered"] == before["panel"]["link"]["delivered"]  # no session restarted
    # the cards were not acknowledged: the shoe kept them through a failed session
    assert any("session failed" in line for line in during["shoe"]["log"]), during["shoe"]["log"]
    rig.wait_for_counter(drawn[-1]["counter"])
    rig.wait_until(lambda: rig.shoe.state()["queued"] == 0 and rig.shoe.state()["connected"], WAIT,
                   "the shoe to have its cards acknowledged")
    records = rig.records(since=head)
    cards = [r.payload["draw_counter"] for r in records if r.kind == "device" and r.payload["event"] == "CardDrawn"]
    assert cards == [d["counter"] for d in drawn]
    assert [r.payload["card"] for r in records if r.kind == "card"] == [d["card"] for d in drawn]
    assert not [r for r in records if r.kind == "device" and r.payload["event"] in ("LinkLost", "LinkRestored")]
    assert rig.verify().ok

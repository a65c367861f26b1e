"""sd_notify against the real daemon (issue #5): a real AF_UNIX datagram socket given as
NOTIFY_SOCKET (simulation.rig.NotifyListener), WATCHDOG_USEC set, systemd itself not involved.

READY=1 comes only once the devices are open (the lamp board's simulator is started late);
WATCHDOG=1 comes from the loop every half WATCHDOG_USEC; a loop stuck for real (another
process holds the journal's SQLite write lock, so the daemon blocks in its journal write)
sends no ping until it is free again, then pings again. Every message comes from the
daemon's own PID (NotifyAccess=main)."""
import sqlite3

import pytest

pytestmark = pytest.mark.hil
WAIT = 20.0  # guards against hanging, never a measure of speed
WATCHDOG_USEC = 400_000
INTERVAL = WATCHDOG_USEC / 2e6


def is_ping(message):
    return message.is_ping


def test_ready_only_after_the_devices_are_open(start_rig):
    rig = start_rig("fortune6", absent=("lights",))
    waiting = rig.notify.wait_for(lambda m: "waiting for the lights (cannot open" in m.text, WAIT)
    assert not any("READY" in m.fields for m in waiting)
    status = rig.status()
    assert status["daemon"]["ready"] is False and status["daemon"]["devices"]["lights"]["link"] == "absent"
    assert status["daemon"]["devices"]["shoe"]["link"] == "ok"  # the daemon answers while it waits
    rig.start_sim("lights")
    before_ready = rig.notify.wait_for(lambda m: "READY" in m.fields, WAIT)
    ready = before_ready[-1]
    assert ready.fields["STATUS"] == "fortune6 · no shoe · no round yet · shoe ok · panel ok · lights ok"
    assert all("READY" not in m.fields for m in rig.notify.messages[:rig.notify.messages.index(ready)])
    assert {m.pid for m in rig.notify.messages} == {rig.daemon.pid}
    assert rig.status()["daemon"]["ready"] is True


def test_watchdog_pings_at_half_the_interval_and_none_while_the_loop_is_stuck(start_rig):
    rig = start_rig("fortune6", watchdog_usec=WATCHDOG_USEC)
    rig.notify.mark()
    pings = [m for _ in range(4) for m in rig.notify.wait_for(is_ping, WAIT) if is_ping(m)]
    # A bound that holds however slow the machine: pings never come closer than the
    # interval (kernel arrival stamps; 2 ms for realtime-vs-monotonic slew).
    gaps = [later.arrived - earlier.arrived for earlier, later in zip(pings, pings[1:])]
    assert len(pings) == 4 and min(gaps) >= INTERVAL - 0.002, gaps

    other = sqlite3.connect(rig.journal_path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process's lock: the daemon's next journal write waits
    try:
        mark = rig.events.mark()
        rig.panel.command("click", button=rig.button_id("new_shoe"))
        rig.notify.wait_for(lambda m: "journal locked by another process" in m.text, WAIT)
        # From here the loop is stuck in its journal write; datagrams arrive in order, so a
        # ping in the next five watchdog periods would come from a stuck loop.
        silence = []
        while (message := rig.notify.receive(5 * INTERVAL)) is not None:
            silence.append(message)
            assert not is_ping(message), [m.text for m in silence]
        assert rig.events.find("command", after=mark) is None  # the press waits, not yet handled
    finally:
        other.execute("ROLLBACK")
        other.close()
    rig.notify.wait_for(is_ping, WAIT)  # free again: it pings again
    answer = rig.events.wait_for("command", after=mark, source="panel")
    assert answer["command"] == "new_shoe" and answer["ok"]
    assert {m.pid for m in rig.notify.messages} == {rig.daemon.pid}
    assert rig.verify().ok

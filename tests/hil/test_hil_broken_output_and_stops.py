"""A broken log output never stops the table; an unplanned stop exits non-zero after
journaling why; the socket file goes on every stop. Real daemon process, real pipes.

`tablectl run ... | head -2`: the daemon's stdout is a pipe whose reader leaves after two
lines. The daemon drops what it cannot write, counts it, says so once on stderr and in
`tablectl status`, and deals on; SIGTERM then stops it cleanly (exit 0, `daemon_stopped`)."""
from __future__ import annotations

import os
import signal

import pytest

pytestmark = pytest.mark.hil
WAIT = 20.0  # guards against hanging, never a measure of speed


def last_record(rig):
    return rig.records()[-1]


def test_a_broken_stdout_never_stops_the_table(start_rig):
    rig = start_rig("fortune6", seed=8, stdout_pipe=True)
    out = rig.daemon.child.proc.stdout
    assert out.readline() and out.readline()  # head -2
    out.close()
    rig.new_shoe()
    assert rig.play_round()["event"] == "result"
    assert rig.play_round()["event"] == "result"
    log = rig.status()["daemon"]["log"]
    assert log["dropped"] > 0 and log["broken"].startswith("BrokenPipeError")
    assert "log output broken" in rig.status()["daemon"]["status"]

    assert rig.stop_daemon(signal.SIGTERM) == 0
    stopped = last_record(rig)
    assert stopped.kind == "daemon_stopped" and stopped.payload["reason"] == "SIGTERM"
    assert not os.path.exists(rig.socket_path)
    stderr = rig.daemon.child.stderr_path.read_text()
    said = [line for line in stderr.splitlines() if "log output" in line]
    assert len(said) == 1 and said[0].startswith("tablectl: log output broken (BrokenPipeError"), stderr
    assert "Exception ignored" not in stderr and "Traceback" not in stderr
    assert rig.verify().ok


def test_an_unplanned_stop_exits_non_zero_after_journaling_why(start_rig):
    rig = start_rig("fortune6", seed=9, daemon_module="tests.hil.planted_fault_daemon")
    rig.new_shoe()
    rig.panel.command("click", button=63)  # the planted bug raises in the panel driver's callback
    code = rig.daemon.child.wait(WAIT)
    assert code == 1
    stopped = last_record(rig)
    assert stopped.kind == "daemon_stopped"
    assert stopped.payload["reason"] == "crashed: RuntimeError: a planted bug: button 63 raises in the panel driver"
    assert not os.path.exists(rig.socket_path)
    assert '"event":"crashed"' in rig.daemon.output()
    assert rig.verify().ok

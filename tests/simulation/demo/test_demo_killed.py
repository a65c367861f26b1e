"""A demo killed outright (SIGKILL: no handler of its own runs) still leaves nothing running:
the kernel sends each of its children SIGTERM when it dies (PR_SET_PDEATHSIG, set by the rig
in every child it starts), so no daemon or simulator is left with PPID 1 for the next demo
to replace the files of."""
import os
import signal
import subprocess
import time

from demo_process import DEMO, READY, ROOT, kill_leftovers, started_by, still_running

WAIT = 60.0  # a guard against a hang, not a measurement


def test_a_demo_killed_with_sigkill_leaves_no_child_running(tmp_path):
    proc = subprocess.Popen([*DEMO, "--rounds", "100000", "--seed", "6", "--dir", str(tmp_path / "demo")], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stderr = ""
    try:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()  # a round played: the daemon and the four simulators are running
        while not READY.search(stderr):
            stderr += proc.stderr.readline()
        pids = started_by(stderr)[0]
        assert len(still_running(pids)) == 5, stderr
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(WAIT) == -signal.SIGKILL
        deadline = time.monotonic() + WAIT
        while still_running(pids):
            assert time.monotonic() < deadline, f"left running after the demo was killed: {still_running(pids)}"
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if READY.search(stderr):
            kill_leftovers(started_by(stderr)[0])

"""The real `tablectl run` process (simulation.rig: simulators on ptys) has one thread: the
reactor carries the three serial devices, the control socket and the loop (/proc/PID/task,
read while a round is dealt and while the event stream is followed). What start-up built is
set apart from the garbage collector (gc.freeze: a full collection in the loop would otherwise
walk every module and class again, ~8 ms here). `tablectl status` shows both."""
from __future__ import annotations

import os

from simulation.rig import Rig


def threads_of(pid: int) -> list[str]:
    names = []
    for task in sorted(os.listdir(f"/proc/{pid}/task")):
        with open(f"/proc/{pid}/task/{task}/comm") as comm:
            names.append(comm.read().strip())
    return names


def test_the_daemon_runs_in_one_thread_with_startup_frozen():
    with Rig("fortune6", seed=2) as rig:
        assert len(threads_of(rig.daemon.pid)) == 1, threads_of(rig.daemon.pid)
        python = rig.status()["daemon"]["python"]
        assert python["threads"] == 1
        assert python["gc_frozen"] > 1000  # the modules, classes and tables of start-up
        rig.new_shoe()
        assert rig.play_round()["event"] in ("result", "void")
        assert len(threads_of(rig.daemon.pid)) == 1, threads_of(rig.daemon.pid)  # subscribed, cards dealt
        after = rig.status()["daemon"]["python"]
        assert after["threads"] == 1
        assert 1000 < after["gc_frozen"] <= python["gc_frozen"]  # frozen once, at start (a frozen object freed leaves it)

"""The real `tablectl run` process (simulation.rig: simulators on ptys) runs with its
interpreter tuned for the loop: a 0.5 ms GIL switch interval, and what start-up built set
apart from the garbage collector (gc.freeze: a full collection in the loop would otherwise
walk every module and class again, ~8 ms here). `tablectl status` shows both."""
from __future__ import annotations

from controller.daemon.app import SWITCH_INTERVAL_S
from simulation.rig import Rig


def test_the_daemon_runs_with_its_switch_interval_and_startup_frozen():
    with Rig("fortune6", seed=2) as rig:
        python = rig.status()["daemon"]["python"]
        assert python["switch_interval_s"] == SWITCH_INTERVAL_S
        assert python["gc_frozen"] > 1000  # the modules, classes and tables of start-up
        rig.new_shoe()
        assert rig.play_round()["event"] in ("result", "void")
        after = rig.status()["daemon"]["python"]["gc_frozen"]
        assert 1000 < after <= python["gc_frozen"]  # frozen once, at start (a frozen object freed leaves it)

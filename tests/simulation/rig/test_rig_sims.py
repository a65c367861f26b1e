"""The rig never leaves a simulator process behind, even when its start is interrupted."""
import pytest

from simulation.rig import sims
from simulation.rig.sims import Sim


def test_a_start_interrupted_while_waiting_stops_the_child(tmp_path, monkeypatch):
    started = []

    def interrupted(self):
        started.append(self.child)
        raise KeyboardInterrupt  # Ctrl-C while the rig waits for the simulator to be ready

    monkeypatch.setattr(Sim, "_wait_ready", interrupted)
    with pytest.raises(KeyboardInterrupt):
        Sim("lights", tmp_path)
    (child,) = started
    assert not child.running


def test_a_simulator_that_cannot_start_is_reported_and_gone(tmp_path, monkeypatch):
    monkeypatch.setattr(sims, "START_WAIT", 30.0)
    with pytest.raises(sims.RigError, match="lights simulator exited"):
        Sim("lights", tmp_path, "--no-such-option")

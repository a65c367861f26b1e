"""Fixtures for the loop's tests: an EventLoop on a real Table and a real SQLite journal
(loop_rig.py says what stands in for what), and a real notify datagram socket."""
import pytest
from loop_rig import LoopRig

from simulation.rig import NotifyListener


@pytest.fixture
def loop_rig(tmp_path):
    rig = LoopRig(tmp_path, burn=False)
    yield rig
    rig.close()


@pytest.fixture
def notify(tmp_path):
    listener = NotifyListener(str(tmp_path / "notify.sock"))
    yield listener
    listener.close()

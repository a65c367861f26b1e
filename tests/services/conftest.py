"""Fixtures of the floor's tests (tests/services/feed, tests/services/pit): a real Mosquitto (Debian's `mosquitto`), started here on an
ephemeral 127.0.0.1 port with a generated config, and real `tablectl feed`/`pit` processes;
each is stopped by its PID at teardown and must be gone."""
from __future__ import annotations

import pytest

from simulation.mosquitto import Mosquitto
from simulation.rig import Rig


@pytest.fixture
def processes():
    """processes(x) registers anything with .child (FeedProcess, PitProcess, Mosquitto) for teardown."""
    started: list = []

    def register(thing):
        started.append(thing)
        return thing

    yield register
    for thing in reversed(started):
        if thing.child is not None:
            thing.child.stop()
    alive = [t.child.name for t in started if t.child is not None and t.child.running]
    assert not alive, f"still running: {alive}"


@pytest.fixture
def broker(tmp_path, processes):
    """broker(tls=True, passwords=None) -> a started Mosquitto."""
    def start(**options) -> Mosquitto:
        return processes(Mosquitto(tmp_path / f"broker-{len(options)}", **options).start())

    return start


@pytest.fixture
def rigs():
    made: list[Rig] = []

    def start(game: str = "fortune6", **options) -> Rig:
        rig = Rig(game, **options)
        made.append(rig)
        return rig.start()

    yield start
    for rig in made:
        rig.stop()

"""Hardware-in-the-loop: the real `tablectl run` process against the simulators on real ptys,
through simulation.rig (the rig acts as the dealer). Every process is stopped by its PID at
teardown and must be gone; a test that leaves one running fails."""
from __future__ import annotations

import pytest

from simulation.rig import Rig


@pytest.fixture
def start_rig():
    """start_rig(game="fortune6", **Rig options) -> a started Rig, stopped at teardown."""
    rigs: list[Rig] = []

    def start(game: str = "fortune6", **options) -> Rig:
        rig = Rig(game, **options)
        rigs.append(rig)
        return rig.start(wait_ready=not options.get("absent"))

    yield start
    for rig in rigs:
        rig.stop()
    for rig in rigs:
        children = [sim.child for sim in rig.sims.values()] + ([rig.daemon.child] if rig.daemon else [])
        alive = [f"{child.name} (pid {child.pid})" for child in children if child.running]
        assert not alive, f"still running after the rig stopped: {alive}"


# ---------------------------------------------------------------- the matrix (tests/hil/test_hil_matrix_*.py)
@pytest.fixture(scope="module")
def rig_pool(request):
    """One rig per game for the whole module (hil_matrix.RigPool), options from the module's
    RIG_OPTIONS; everything it started must be gone at the end."""
    from hil_matrix import RigPool

    pool = RigPool(**getattr(request.module, "RIG_OPTIONS", {}))
    yield pool
    alive = pool.close()
    assert not alive, f"still running after the rig stopped: {alive}"


@pytest.fixture
def table(rig_pool, game):
    """The module's rig for `game` (parametrize `game` with scope="module"), with no round in
    progress: a rig left mid-round or dead by a failed test is replaced."""
    return rig_pool.ready(game)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Within each matrix module, run the tests grouped by game, in GAMES order (stable), so
    that each game's rig starts once per module; nothing else moves."""
    from hil_matrix import GAMES

    order = {game: n for n, game in enumerate(GAMES)}
    slots: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        callspec = getattr(item, "callspec", None)
        if item.path.name.startswith("test_hil_matrix_") and callspec is not None and "game" in callspec.params:
            slots.setdefault(str(item.path), []).append(index)
    for indexes in slots.values():
        grouped = sorted((items[i] for i in indexes), key=lambda item: order[item.callspec.params["game"]])
        for index, item in zip(indexes, grouped):
            items[index] = item

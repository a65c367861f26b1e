"""Hardware-in-the-loop: the real `tablectl run` process against the simulators on real ptys,
through simulation.rig (the rig acts as the dealer). Every process is stopped by its PID at
teardown and must be gone; a test that leaves one running fails."""
from __future__ import annotations

import pytest
from hil_matrix import RigPool

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
@pytest.fixture(scope="session")
def rig_pools():
    """The matrix's RigPools (hil_matrix.RigPool) by RIG_OPTIONS; whatever is left is stopped at
    the end, and everything they started must be gone."""
    pools: dict[str, RigPool] = {}
    yield pools
    alive = [name for pool in pools.values() for name in pool.close()]
    assert not alive, f"still running after the rig stopped: {alive}"


def _pool_key(module) -> str:
    return repr(sorted(getattr(module, "RIG_OPTIONS", {}).items()))


@pytest.fixture(scope="module")
def rig_pool(request, rig_pools):
    """One rig per game shared by every matrix module with this module's RIG_OPTIONS (a daemon
    and three simulators started once, not once per module); stopped after the last module
    that uses it, and everything it started must be gone."""
    key = _pool_key(request.module)
    pool = rig_pools.get(key) or rig_pools.setdefault(key, RigPool(**getattr(request.module, "RIG_OPTIONS", {})))
    yield pool
    if not any(_pool_key(item.module) == key for item in _items_after(request) if "rig_pool" in getattr(item, "fixturenames", ())):
        alive = rig_pools.pop(key).close()
        assert not alive, f"still running after the rig stopped: {alive}"


def _items_after(request) -> list[pytest.Item]:
    """The tests that run after this module's."""
    items = request.session.items
    mine = [n for n, item in enumerate(items) if getattr(item, "module", None) is request.module]
    return items[max(mine) + 1:] if mine else []


@pytest.fixture
def table(rig_pool, game):
    """The pool's rig for `game` (parametrize `game` with scope="module"), with no round in
    progress: a rig left mid-round or dead by a failed test is replaced."""
    return rig_pool.ready(game)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Within each matrix module, run the tests grouped by game, in GAMES order (stable): one
    game's rig serves its tests in a row; nothing else moves."""
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

"""The lamp view keeps its last view and the picture made of it (controller/table/lamps.py):
most inputs leave it as it was. Under random input sequences (test_table_properties' own),
the picture the table returns after every input is exactly the one a fresh lamp view, with
nothing kept, computes from the same state, and changing the returned picture changes
nothing kept."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_helpers import GAMES
from test_table_properties import _codes, _resolve, actions

from controller.table.effects import FollowUp, Lamps
from controller.table.lamps import LampBoard
from controller.table.table import Table


def fresh_picture(table: Table) -> dict:
    rnd = table.round
    kept, rnd.lamps = rnd.lamps, LampBoard(table.game.key, table.shoe, table.counter, table.panel, table.bank,
                                        table.integrity)
    try:
        return rnd.picture()
    finally:
        rnd.lamps = kept


@pytest.mark.parametrize("game_key", GAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_kept_picture_is_the_fresh_one(game_key, data):
    table = Table(game_key)
    codes, counter, owed = _codes(game_key), [0], []
    for action in data.draw(actions(game_key), label="script"):
        effects = table.handle(_resolve(action, table, counter, codes, owed))
        owed += [e.input for e in effects if isinstance(e, FollowUp)]
        picture = next(e.states for e in effects if isinstance(e, Lamps))
        assert picture == fresh_picture(table)
        picture["result"] = "fast"  # the caller's copy: what is kept stays as it was
        assert table.round.picture() == fresh_picture(table)

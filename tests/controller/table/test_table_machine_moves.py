"""The triggers the table does not fire: a transition from a state to itself with no guard
(`deal` while dealing, ...) changes nothing, so Table skips transitions' machinery for it.
Each skipped pair is checked against a real machine of the game: firing it is allowed and
leaves the state as it was; a guarded transition is never skipped."""
from __future__ import annotations

import pytest
from table_helpers import GAMES

from controller.table import machine as m
from controller.table.table import Table


@pytest.mark.parametrize("game", GAMES)
def test_skipped_triggers_really_change_nothing(game):
    states, transitions = m.round_spec(m.game_shape(game))
    stays = m.staying(transitions)
    assert ("deal", m.DEALING) in stays  # every card of the initial deal after the first
    guarded = {t["trigger"] for t in transitions if t.get("conditions") or t.get("unless")}
    for trigger, state in stays:
        assert trigger not in guarded
        table = Table(game)
        table.machine.set_state(state)
        assert table.flow.trigger(trigger) is True and table.state == state
    assert Table(game).round.stays == stays


def test_a_transition_to_another_state_or_with_a_guard_is_not_skipped():
    transitions = [
        dict(trigger="deal", source=["bets_closed", "dealing"], dest="dealing"),
        dict(trigger="resume", source="held", dest="held", conditions="hold_resolved"),
        dict(trigger="complete", source=["dealing"], dest="result"),
        dict(trigger="again", source="result", dest="result", unless="busy"),
    ]
    assert m.staying(transitions) == {("deal", "dealing")}

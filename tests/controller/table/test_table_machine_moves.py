"""The triggers the table does not fire through `transitions`: a transition without a guard
only sets the state (the machine has no callbacks), so Table sets it itself (machine.moves).
Each such move is checked against a real machine of the game: firing the trigger there is
allowed and lands in the same state; a guarded transition is never set directly, and the
machine has no callback that setting the state would skip."""
from __future__ import annotations

import pytest
from table_helpers import GAMES
from transitions import MachineError

from controller.table import machine as m
from controller.table.table import Table


@pytest.mark.parametrize("game", GAMES)
def test_moves_set_directly_are_what_the_machine_does(game):
    states, transitions = m.round_spec(m.game_shape(game))
    moves = m.moves(transitions)
    assert moves[("deal", m.DEALING)] == m.DEALING  # every card of the initial deal after the first
    assert moves[("complete", m.DEALING)] == m.RESULT
    guarded = {t["trigger"] for t in transitions if t.get("conditions") or t.get("unless")}
    for (trigger, source), dest in moves.items():
        assert trigger not in guarded
        table = Table(game)
        table.machine.set_state(source)
        assert table.flow.trigger(trigger) is True and table.state == dest
    assert Table(game).round.moves == moves


@pytest.mark.parametrize("game", GAMES)
def test_the_round_machine_has_no_callbacks_to_skip(game):
    machine = Table(game).machine
    for state in machine.states.values():
        assert not state.on_enter and not state.on_exit
    for event in machine.events.values():
        for transitions in event.transitions.values():
            for t in transitions:
                assert not (t.prepare or t.before or t.after)
    assert not (machine.before_state_change or machine.after_state_change or machine.prepare_event
                or machine.finalize_event or machine.on_exception or machine.on_final)


def test_fire_sets_a_move_and_leaves_the_rest_to_the_machine():
    table = Table("fortune6")
    rnd = table.round
    table.machine.set_state(m.DEALING)
    rnd.fire("complete")
    assert table.state == m.RESULT
    with pytest.raises(MachineError):
        rnd.fire("deal")  # not allowed while the result is shown: the machine refuses it
    assert table.state == m.RESULT


def test_a_transition_with_a_guard_is_never_a_move():
    transitions = [
        dict(trigger="deal", source=["bets_closed", "dealing"], dest="dealing"),
        dict(trigger="resume", source="held", dest="held", conditions="hold_resolved"),
        dict(trigger="complete", source=["dealing"], dest="result"),
        dict(trigger="again", source="result", dest="result", unless="busy"),
        dict(trigger="close", source="betting", dest="bets_closed", conditions="link_up"),
        dict(trigger="close", source="betting", dest="void"),  # after a guarded one: the machine decides
    ]
    assert m.moves(transitions) == {("deal", "bets_closed"): "dealing", ("deal", "dealing"): "dealing",
                                    ("complete", "dealing"): "result"}

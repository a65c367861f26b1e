"""The machines are data built per game; the diagrams in docs/diagrams are drawn from them."""
import pathlib
import re

import pytest
from table_helpers import GAMES
from transitions import MachineError

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.effects import Journal, Reply
from controller.table.settings import TableSettings
from controller.table.table import Table
from docgen import diagrams


@pytest.mark.parametrize("game, decisions, draws", [
    ("fortune6", False, True), ("fafa4", False, True), ("fortune7", False, True),
    ("fubacc", True, False), ("paigow", True, False),
])
def test_each_game_gets_the_states_its_own_deal_declares(game, decisions, draws):
    shape = m.game_shape(game)
    assert (shape.has_decisions, shape.draws_after_deal) == (decisions, draws)
    states, transitions = m.round_spec(shape)
    assert (m.AWAITING in states) == decisions and (m.DRAWING in states) == draws
    triggers = {t["trigger"] for t in transitions}
    assert ("ask" in triggers) == decisions and ("draw" in triggers) == draws
    table = Table(game)
    assert sorted(table.machine.states) == sorted(states) and table.state == m.IDLE


def test_guards_enforce_order_and_invalid_triggers_raise():
    table = Table("fortune6", settings=TableSettings(burn=False))
    assert table.flow.trigger("open_round") is False  # guard: no shoe yet
    assert table.state == m.IDLE
    with pytest.raises(MachineError):
        table.flow.trigger("settle")
    table.handle(i.Command("new_shoe"))
    table.handle(i.Command("place_bets"))
    table.handle(i.ShoeLinkLost("unplugged"))
    assert table.flow.trigger("close_bets") is False and table.state == m.BETTING
    assert table.flow.trigger("supervisor_void") is False  # guard: the key is off
    table.handle(i.SupervisorKey(True))
    assert table.flow.trigger("supervisor_void") is True and table.state == m.VOID


def test_a_machine_error_inside_handle_becomes_a_refusal_not_a_crash():
    table = Table("fortune6")
    table.commands.register("status", lambda args, out: table.flow.trigger("settle"))
    effects = table.handle(i.Command("status"))
    replies = [e for e in effects if isinstance(e, Reply)]
    assert len(replies) == 1 and not replies[0].ok and "not allowed while the round is idle" in replies[0].message
    assert [e.kind for e in effects if isinstance(e, Journal)] == ["error"] and table.state == m.IDLE


def test_the_committed_diagrams_match_the_machines():
    assert diagrams.stale() == [], "run: python3 -m docgen.diagrams"


@pytest.mark.parametrize("game", GAMES)
def test_the_svg_shows_every_state_of_the_dot(game):
    for name in (game, f"{game}-shoe"):
        dot = (diagrams.DIAGRAMS / f"{name}.dot").read_text()
        svg = (diagrams.DIAGRAMS / f"{name}.svg").read_text()
        states = set(re.findall(r"^\t(\w+) \[label=", dot, re.M))
        titles = set(re.findall(r"<title>(\w+)</title>", svg))
        assert states and states == titles, name


def test_check_mode_reports_a_stale_drawing(tmp_path: pathlib.Path, capsys):
    diagrams.write(tmp_path, svg=False)
    assert diagrams.main(["--check", "--out", str(tmp_path)]) == 0
    (tmp_path / "fubacc.dot").write_text("digraph {}")
    assert diagrams.main(["--check", "--out", str(tmp_path)]) == 1
    assert "fubacc.dot is out of date" in capsys.readouterr().err

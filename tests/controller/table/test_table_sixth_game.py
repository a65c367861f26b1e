"""Adding a game touches one place: its folder (game.py: GAME, the rules with their irregularity
rules, and TABLE, its table profile; clauses.py: BOOK) and its line in games.registry. The
folder highcard/ beside this file is such a game, High Card, registered here only; the table,
its lamp and button maps, its settings and the config's defaults take it with no other
change, and every rule and clause comes from there. (tests/cli/test_sixth_game.py adds one
through the command line.)"""
from __future__ import annotations

import pytest
from table_helpers import Run

from controller.config.load import config_from_dict
from controller.config.table_settings import table_settings
from controller.table import inputs as i
from controller.table import machine as m
from controller.table.buttons import UnknownButton, button_map, command_for_button
from controller.table.lamps import lamp_ids
from games import registry

KEY = "highcard"


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(registry.GAME_FOLDERS, KEY, "highcard")  # the registry line: highcard/ beside this file


def test_the_maps_and_the_defaults_come_from_its_profile():
    assert {name for name in lamp_ids(KEY) if name.startswith("bet_")} == {"bet_player", "bet_tie"}
    assert button_map(KEY)[40].command == "confirm" and 11 not in button_map(KEY)
    assert command_for_button(KEY, 40) == i.Command("confirm", {}, source="panel")
    with pytest.raises(UnknownButton):
        command_for_button(KEY, 41)
    config = config_from_dict({"game": KEY, "decks": 2}, source=None)
    settings = table_settings(config)
    assert (config.shoe.burn, config.shoe.deck_per_round) == (False, False)
    assert (settings.burn, settings.deck_per_round, settings.spots) == (False, False, ())


def test_a_round_is_dealt_decided_lit_and_settled_by_the_pedal():
    run = Run(KEY, decks=2)
    run.new_shoe()  # no burn: the profile says so
    run.open_round()
    run.cards("9h", "As")
    result = run.journal("result")[-1]
    assert result["winner"] == "dealer" and result["bets"]["player"]["result"] == "lose"
    assert run.lamps()["bet_player"] == "off" and run.lamps()["result"] == "on"
    run.send(command_for_button(KEY, 40))
    assert run.state == m.SETTLED
    run.open_round()
    run.cards("Kd", "Kc")
    assert run.journal("result")[-1]["winner"] == "tie"
    assert (run.lamps()["bet_player"], run.lamps()["bet_tie"]) == ("slow", "on")  # push, win


def test_its_irregularity_rules_and_clauses_are_its_own():
    run = Run(KEY)
    run.new_shoe()
    run.open_round()
    run.cards("2c")
    run.send(i.ShoeDoor(True))
    assert (run.irregularity()["clause"], run.state) == ("highcard §5.8", m.VOID)  # order altered: void
    run.send(i.ShoeDoor(False))
    run.open_round()
    run.card("??")  # a misread: held for the supervisor, the game's own clause
    assert run.irregularity()["clause"] == "highcard §5.4" and run.state == m.HELD

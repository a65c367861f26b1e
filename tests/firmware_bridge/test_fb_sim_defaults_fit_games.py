"""The simulated panel and lamp board as started without options hold every game's buttons
and lamps, so `tablectl sim panel` / `sim lights` fit whatever game the daemon plays."""
import pytest

from controller.table.buttons import button_list
from controller.table.lamps import lamp_list
from firmware_bridge.sim.lights import DEFAULT_LAMPS, MAX_LAMPS
from firmware_bridge.sim.lights import build_parser as lights_parser
from firmware_bridge.sim.panel import DEFAULT_BUTTONS
from firmware_bridge.sim.panel import build_parser as panel_parser
from games.registry import GAME_KEYS


@pytest.mark.parametrize("game", GAME_KEYS)
def test_every_lamp_and_button_of_the_game_is_on_the_default_board(game):
    assert max(lamp.id for lamp in lamp_list(game)) < DEFAULT_LAMPS <= MAX_LAMPS
    assert max(button.id for button in button_list(game)) < DEFAULT_BUTTONS


def test_the_command_lines_default_to_them():
    assert lights_parser().parse_args(["--link", "/tmp/x"]).lamps == DEFAULT_LAMPS
    assert panel_parser().parse_args(["--link", "/tmp/x"]).buttons == DEFAULT_BUTTONS

"""The dealer's button panel per game: button ids (uint8 on the wire) -> table commands.

Nine buttons are on every table; a game's own (spot, decision, player-dealer buttons) are in
its table profile (games.table_profile).

The daemon turns a ButtonPressed(id) into `command_for_button(game_key, id)` and hands the
Command to `Table.handle`. The supervisor key is a switch, not a button: it arrives as the
SupervisorKey input, and the commands marked `key` are refused while it is off.
"""
from __future__ import annotations

from controller.table.inputs import Command
from games.registry import get_table_profile
from games.table_profile import Button


class UnknownButton(KeyError):
    def __init__(self, game_key: str, button_id: int):
        super().__init__(button_id)
        self.game_key, self.button_id = game_key, button_id

    def __str__(self) -> str:
        return f"button {self.button_id} is not on the {self.game_key} panel (docs/table.md, button map)"


_COMMON = (
    Button(1, "place_bets", meaning="\"Place your bets\": open a round"),
    Button(2, "no_more_bets", meaning="\"No more bets\": close the bets; the deal may begin"),
    Button(3, "confirm", meaning="the result is announced and settled"),
    Button(4, "void", key=True, meaning="void the round (a held round, or the round's last irregularity)"),
    Button(5, "new_shoe", meaning="a new shoe is in (the burn follows when configured)"),
    Button(6, "reconstruct", key=True, meaning="resume a held round as reconstructed (order confirmed as read)"),
    Button(7, "misdeal", meaning="a hand got the wrong number of cards (hold for the supervisor)"),
    Button(8, "accept_shoe", key=True, meaning="play on with a shoe that failed an integrity check (local ruling L7)"),
    Button(9, "accept_payouts", key=True, meaning="accept the betting spaces as they stand after a mispay"),
)


def button_list(game_key: str) -> tuple[Button, ...]:
    """The nine buttons of every table, then the game's own (its table profile)."""
    return (*_COMMON, *get_table_profile(game_key).buttons)


def button_map(game_key: str) -> dict[int, Button]:
    return {button.id: button for button in button_list(game_key)}


def command_for_button(game_key: str, button_id: int) -> Command:
    """The Command a press of `button_id` sends; UnknownButton if the panel has no such button."""
    button = button_map(game_key).get(button_id)
    if button is None:
        raise UnknownButton(game_key, button_id)
    return Command(button.command, dict(button.args), source="panel")

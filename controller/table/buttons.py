"""The dealer's button panel per game: button ids (uint8 on the wire) -> table commands.

The daemon turns a ButtonPressed(id) into `command_for_button(game_key, id)` and hands the
Command to `Table.handle`. The supervisor key is a switch, not a button: it arrives as the
SupervisorKey input, and the commands marked `key` are refused while it is off.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from controller.table.inputs import Command


@dataclass(frozen=True)
class Button:
    id: int
    command: str
    args: Mapping = field(default_factory=dict)
    key: bool = False  # needs the supervisor key
    meaning: str = ""


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
)
_SPOT_BUTTON_BASE = 10
_FUBACC_DECISIONS = ("fold", "play", "hit", "stay", "bonus", "no_ante")


def _spot_buttons(count: int, what: str) -> tuple[Button, ...]:
    return tuple(Button(_SPOT_BUTTON_BASE + n, "select_spot", {"spot": n}, meaning=what.format(n=n))
                 for n in range(1, count + 1))


def button_list(game_key: str) -> tuple[Button, ...]:
    buttons = list(_COMMON)
    if game_key == "fubacc":
        buttons += _spot_buttons(7, "spot {n}: toggle live while betting; select for the next decision")
        buttons += [Button(21 + i, "decide", {"decision": d}, meaning=f"the selected spot: {d}")
                    for i, d in enumerate(_FUBACC_DECISIONS)]
    elif game_key == "paigow":
        buttons += _spot_buttons(6, "spot {n}: toggle live while betting; select for the next setting")
        buttons.append(Button(26, "decide", {"decision": "house"}, meaning="the selected spot is set by the House Way"))
    elif game_key == "fortune7":
        buttons += _spot_buttons(7, "seat {n}: select (for the player-dealer button)")
        buttons.append(Button(30, "player_dealer", meaning="the selected seat takes the player-dealer position"))
    return tuple(buttons)


def button_map(game_key: str) -> dict[int, Button]:
    return {button.id: button for button in button_list(game_key)}


def command_for_button(game_key: str, button_id: int) -> Command:
    """The Command a press of `button_id` sends; UnknownButton if the panel has no such button."""
    button = button_map(game_key).get(button_id)
    if button is None:
        raise UnknownButton(game_key, button_id)
    return Command(button.command, dict(button.args), source="panel")

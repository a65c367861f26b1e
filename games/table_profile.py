"""A game's table profile: how the table is laid out and dealt for that game, as data.

Each game module exposes one as TABLE, beside its GAME (the rules, including the
irregularity rules the table applies) and odds(); games.registry finds both by key. The
controller builds everything per game from these two: the lamp map (a result lamp per
betting area, per spot on a spot game, a lamp per player-dealer seat), the button panel,
the shoe's defaults and the player-dealer rotation. Adding a game is a module with GAME,
odds() and TABLE, and its line in games.registry.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Button:
    """A button of the dealer's panel: its wire id (uint8) and the table command it sends."""

    id: int
    command: str
    args: Mapping[str, object] = field(default_factory=dict)
    key: bool = False  # needs the supervisor key
    meaning: str = ""


@dataclass(frozen=True)
class PlayerDealer:
    """A seated player banks, and the position rotates among the seats (Fortune 7)."""

    seats: tuple[int, ...]  # every seat of the table, clockwise from the dealer's left
    table: str  # whose seats, for messages: "seat 9 is not a Fortune 7 seat (1-7)"

    @property
    def seat_range(self) -> str:
        return f"{self.seats[0]}-{self.seats[-1]}"


@dataclass(frozen=True)
class TableProfile:
    result_lamps: tuple[str, ...]  # the betting areas in layout order (the game's wager keys): a lamp each
    spots: int = 0  # a spot game: its spots, each with a lamp and its own result lamps (0: no spots)
    buttons: tuple[Button, ...] = ()  # the panel's buttons beyond the seven every table has
    burn: bool = True  # a new shoe burns (a shoe game)
    deck_per_round: bool = False  # a fresh deck every round, from a shuffler
    default_spots: tuple[int, ...] = ()  # the live spots until the dealer sets them
    player_dealer: PlayerDealer | None = None


# Spot buttons have ids 11, 12, ... (button 10 + the spot or seat number).
SPOT_BUTTON_BASE = 10


def spot_buttons(count: int, meaning: str) -> tuple[Button, ...]:
    """Buttons 1..count selecting a spot (or a seat); `meaning` with {n} for the number."""
    return tuple(Button(SPOT_BUTTON_BASE + n, "select_spot", {"spot": n}, meaning=meaning.format(n=n))
                 for n in range(1, count + 1))


def decision_buttons(first_id: int, decisions: tuple[str, ...]) -> tuple[Button, ...]:
    """One button a decision for the selected spot, ids from `first_id`."""
    return tuple(Button(first_id + i, "decide", {"decision": d}, meaning=f"the selected spot: {d}")
                 for i, d in enumerate(decisions))


"""A game's table profile: how the table is laid out and dealt for that game, as data.

Each game's game.py exposes one as TABLE, beside its GAME (the rules, including the
irregularity rules the table applies) and odds(); games.registry finds both by key. The
controller builds everything per game from these two: the lamp map (a result lamp per
betting area, per spot on a spot game, a lamp per player-dealer seat), the button panel,
the shoe's defaults and the player-dealer rotation; the scoreboard its game counts and their
labels; the demo its players' decisions. Adding a game is its folder (games.registry) and
its line in games.registry.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

# The languages the scoreboard speaks (services/scoreboard/static/labels.js): every label a
# game gives the board is given in each.
BOARD_LANGUAGES = ("en", "zh-Hant")
SPOT_LAMP_STRIDE = 8  # on a spot game, spot n's result lamps are spot 1's ids + 8 (n - 1)


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
class BoardCount:
    """A count the scoreboard keeps of the game's own event over the shoe (baccarat games): the
    rounds whose settlement pays `wager` on `line` (None: on any winning line), for any of `pays`."""

    name: str
    labels: Mapping[str, str]  # language (BOARD_LANGUAGES) -> what the board calls it
    pays: tuple[tuple[str, str | None], ...]  # (wager key, pay line or None)

    def __post_init__(self) -> None:
        lacking = [lang for lang in BOARD_LANGUAGES if not self.labels.get(lang)]
        if lacking:
            raise ValueError(f"board count {self.name!r}: no label in {', '.join(lacking)}")


class DemoPlayer(Protocol):
    """How the demo's players decide on this game (`tablectl demo`), beyond the plain decision."""

    def new_round(self) -> None: ...

    def decide(self, spot: int, options: Sequence[str], hands: Mapping[str, Sequence[str]]) -> str: ...


@dataclass(frozen=True)
class TableProfile:
    # each betting area (the game's wager keys) -> the wire id (uint8) of its result lamp; on a
    # spot game, spot 1's id (spot n's is SPOT_LAMP_STRIDE (n - 1) more). Stated, not counted, so that
    # reordering the areas never rewires a lamp.
    result_lamps: Mapping[str, int]
    spots: int = 0  # a spot game: its spots, each with a lamp and its own result lamps (0: no spots)
    buttons: tuple[Button, ...] = ()  # the panel's buttons beyond the seven every table has
    burn: bool = True  # a new shoe burns (a shoe game)
    deck_per_round: bool = False  # a fresh deck every round, from a shuffler
    default_spots: tuple[int, ...] = ()  # the live spots until the dealer sets them
    player_dealer: PlayerDealer | None = None
    board_counts: tuple[BoardCount, ...] = ()  # the scoreboard's counts of the game's own events
    demo_player: Callable[[int], DemoPlayer] | None = None  # decks -> the demo's players (None: plain)


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


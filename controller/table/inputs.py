"""What the table reacts to: device events and commands, as frozen dataclasses.

These are the table's own types, independent of drivers/: the daemon turns each driver event
(CardDrawn, ShoeStatusChanged, LinkLost ...) and each panel button or socket request
into one of these and passes it to `Table.handle`. Every input has already been journaled by
the daemon when `handle` sees it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

CommandSource = Literal["panel", "socket"]

# Command names the table understands (docs/table.md, "Commands").
COMMANDS = (
    "place_bets",       # "Place your bets": opens a round
    "spots",            # live spots for Fu Bacc / Pai Gow: {"spots": [1, 3]}
    "select_spot",      # panel spot button: toggles a live spot while betting, else selects it
    "no_more_bets",     # "No more bets": closes the bets, the deal may begin
    "decide",           # a spot's decision: {"decision": "play", "spot": 3 (default: selected)}
    "confirm",          # result announced and settled: result -> settled
    "void",             # supervisor: void the round {"reason": "...", "kind": "misread"?}
    "reconstruct",      # supervisor: key in a misread card / confirm an order / resume a hold
    "misdeal",          # dealer: a hand got the wrong number of cards {"hand": "banker"}
    "new_shoe",         # a new shoe is in (burn follows when configured)
    "accept_shoe",      # supervisor: play on with a shoe that failed an integrity check (local ruling L7)
    "player_dealer",    # Fortune 7: the seat holding the player-dealer position {"seat": 3}
    "status",           # a snapshot in the reply
)


@dataclass(frozen=True)
class Card:
    """A card left the shoe. `code` is the uint16 wire code (games.cards; 0 = no read).
    `double_draw`: the shoe saw this card leave together with another one (each card of the
    pair carries the flag). `misread`: the shoe saw a card leave but could not read it."""

    code: int
    draw_counter: int | None = None
    double_draw: bool = False
    misread: bool = False


@dataclass(frozen=True)
class ShoeCounter:
    """The shoe's status, heard while its link is up, says its draw counter stands at
    `draw_counter` (the last card it dealt)."""

    draw_counter: int


@dataclass(frozen=True)
class ShoeDoor:
    open: bool


@dataclass(frozen=True)
class ShoePresence:
    present: bool


@dataclass(frozen=True)
class CutCard:
    """The shoe saw the cut card come out."""


@dataclass(frozen=True)
class ShoeEmpty:
    """The shoe reports no cards left."""


@dataclass(frozen=True)
class ShoeRebooted:
    """The shoe rebooted (a new HELLO). `draw_counter`: its counter now, if it kept one."""

    draw_counter: int | None = None


@dataclass(frozen=True)
class ShoeLinkLost:
    reason: str = ""


@dataclass(frozen=True)
class CardDisputed:
    """The shoe's line carried two different frames with one SEQ, one of them a CARD: one was
    forged, and the card dealt may be it (local ruling L8). `frames`: both, as journaled."""

    detail: str
    frames: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class ShoeLinkRestored:
    """The shoe is heard again; `draw_counter` is its counter now (None if it cannot say)."""

    draw_counter: int | None = None


@dataclass(frozen=True)
class Command:
    name: str
    args: Mapping = field(default_factory=dict)
    source: CommandSource = "socket"


@dataclass(frozen=True)
class SupervisorKey:
    on: bool


@dataclass(frozen=True)
class Timer:
    """A timer the table asked for (StartTimer) has expired."""

    name: str


Input = (Card | ShoeCounter | ShoeDoor | ShoePresence | CutCard | ShoeEmpty | ShoeRebooted
         | ShoeLinkLost | ShoeLinkRestored | CardDisputed | Command | SupervisorKey | Timer)

"""What the table reacts to: device events and commands, as frozen dataclasses.

These are the table's own types but one: the daemon turns each driver event (ShoeStatusHeard,
LinkDown ..., through its device sessions) and each panel button or socket request into one of
these and passes it to `Table.handle`; a card is the shoe driver's CardDrawn itself (`Card`),
handed on unchanged. Every input has already been journaled by the daemon when `handle` sees it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from drivers.events import CardDrawn

CommandSource = Literal["panel", "socket"]



@dataclass(frozen=True)
class CommandSpec:
    """A command's one line of help and its fields (field -> type name: int, str, list[int],
    list[str]); the control socket checks a request's fields against it."""
    doc: str
    required: Mapping[str, str] = field(default_factory=dict)
    optional: Mapping[str, str] = field(default_factory=dict)

    def fields(self) -> dict[str, str]:
        return {**self.required, **self.optional}


# The commands the table understands, the one list of them (docs/table.md, "Commands"): the
# control socket offers these (controller/control/protocol.py adds only its own), and each is
# answered by the method of its name in controller/table/commands.py (`status` by the Table).
# Optional fields default as the panel's buttons do: the selected spot, the game's default
# decision, the hold's own clause.
COMMANDS: dict[str, CommandSpec] = {
    "status": CommandSpec("the table's state: round, shoe, hands so far, lamps, what it waits for"),
    "place_bets": CommandSpec("open betting for the next round"),
    "spots": CommandSpec("the live spots this round (fubacc, paigow)", {"spots": "list[int]"}),
    "select_spot": CommandSpec("a spot button: toggles a live spot while betting, else selects it", {"spot": "int"}),
    "no_more_bets": CommandSpec("close betting; the deal may begin"),
    "decide": CommandSpec("a spot's decision (fubacc: fold, play, hit, stay, bonus; paigow: house or a low hand)",
                          optional={"spot": "int", "decision": "str"}),
    "confirm": CommandSpec("confirm the result: the round is settled"),
    "void": CommandSpec("supervisor: void the round (the key must be on); kind names the irregularity",
                        optional={"reason": "str", "kind": "str"}),
    "reconstruct": CommandSpec("supervisor: key in a misread card, confirm an order, or resume a held round",
                               optional={"card": "str", "cards": "list[str]", "order": "list[str]"}),
    "misdeal": CommandSpec("dealer: a hand got the wrong number of cards", optional={"hand": "str"}),
    "new_shoe": CommandSpec("a new shoe is in (the burn follows when configured)"),
    "accept_shoe": CommandSpec("supervisor: play on with a shoe that failed an integrity check, local ruling L7 "
                               "(the key must be on)"),
    "player_dealer": CommandSpec("fortune7: the seat holding the player-dealer position", optional={"seat": "int"}),
    "wagers": CommandSpec("a seat's wagers while betting, each stake BET=AMOUNT (a table without a live bet sensor; "
                          "fortune7: bank=AMOUNT is the player-dealer's stake); an empty list clears them",
                          {"seat": "int", "stakes": "list[str]"}),
    "chips_import": CommandSpec("the cage's chips into the registry, each row UID,VALUE,SET", {"chips": "list[str]"}),
    "chips_retire": CommandSpec("take chips out of service in the registry", {"uids": "list[str]"}),
    "chips": CommandSpec("the chip registry (or one chip)", optional={"uid": "str"}),
    "accept_payouts": CommandSpec("supervisor: accept the spaces as they stand after a mispay (the key must be on)"),
    "shift": CommandSpec("open or close the table's shift (the meters' period)", {"action": "str"},
                         optional={"name": "str"}),
}


# A card left the shoe: the shoe driver's event itself, taken as it is (one form of a card
# between the shoe's message and the table's Arrival). Card(code, draw_counter, double_draw,
# misread): drivers.events.CardDrawn says what each field means.
Card = CardDrawn


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
    by: Mapping | None = None  # who gave it, as the daemon journals it (the socket's peer); None: the panel


@dataclass(frozen=True)
class SupervisorKey:
    on: bool


@dataclass(frozen=True)
class Timer:
    """A timer the table asked for (StartTimer) has expired."""

    name: str


@dataclass(frozen=True)
class SettleWagers:
    """Round `round`'s result is lit: settle its wagers now. The table asks for it (FollowUp)
    with the result, so that the settlement does not hold back the result's lamps; any input
    handled before it settles them first, so this one then changes nothing."""

    round: int


@dataclass(frozen=True)
class SpaceChips:
    """The chips on one betting space now, whole, as the bet sensor read them: (UID as hex,
    tag value in minor units) each, bottom first. `seat` is the seat (baccarat games) or the
    spot (fubacc, paigow); `bet` a key of the game's wagers. `overflow`: more chips lie there
    than the sensor reports."""

    space: int
    seat: int
    bet: str
    chips: tuple[tuple[str, int], ...]
    overflow: bool = False


@dataclass(frozen=True)
class BetLayoutHeard:
    """The bet sensor's betting spaces, as it reported them at its session: (space id, seat or
    spot, wager key) each."""

    spaces: tuple[tuple[int, int, str], ...]


@dataclass(frozen=True)
class BetSensorLink:
    """The bet sensor's readings are live (`up`) or not: its link was lost, or its layout does
    not fit the game (`reason` says which). Up again once a fitting layout is heard."""

    up: bool
    reason: str = ""


Input = (Card | ShoeCounter | ShoeDoor | ShoePresence | CutCard | ShoeEmpty | ShoeRebooted
         | ShoeLinkLost | ShoeLinkRestored | CardDisputed | Command | SupervisorKey | Timer | SettleWagers | SpaceChips
         | BetLayoutHeard | BetSensorLink)

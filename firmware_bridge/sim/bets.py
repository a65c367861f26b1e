"""`tablectl sim bets`: a bet sensor, RFID antennas under every betting space of every seat.

    tablectl sim bets --link /run/tablectl-sim/bets --control /run/tablectl-sim/bets.sock \
        --game fortune6 [--seats 7]

Its layout is the game's: one space per seat (or spot) and wager key of the game
(games/<game>/game.py), ids 0, 1, ... seat by seat. It answers STATUS_QUERY with its
LAYOUT and then a SPACE for every space, SPACE_QUERY with that space's SPACE (an unknown
space: ERROR BAD_SPACE), and sends a SPACE whenever the chips on a space change
(PROTOCOL.md §10). Chips are issued with 7-byte UIDs `04 7B` + a 5-byte serial; values are
whole minor units.

Commands (JSON {"cmd": ...} on the control socket, or text lines on stdin); a space is its id
or SEAT:NAME ("3:banker"), values a comma list of whole minor units ("500,500,100"):
    place SPACE VALUES          chips put on an empty space (a bet)
    add SPACE VALUES            chips put on top of what lies there
    remove SPACE [n=N] [uid=HEX]  chips taken off: the top N (default every chip), or the one chip
    swap SPACE VALUE [uid=HEX]  one chip (default the top one) exchanged for another of VALUE, in one change
    foreign SPACE [VALUE]       a chip the casino never issued (UID `08 ...`) put on top
    burst N [space=SPACE]       N chips put one at a time, each a change of its own (default:
                                round the spaces in turn), as fast as the sensor reads them
    report SPACE                send the space's SPACE now
    state, fault KIND [VALUE], sleep S, wait connected, quit   (as every simulator)

With `--chips FILE.csv` (the registry's CSV, header `uid,value,set`: `tablectl chips import`
reads the same file) chips come from that rack instead: a value names the rack's next chip of
that value (values in currency there, divided by `--minor-unit` for the tag), a chip taken off a
space goes back to the rack, and a value the rack has no chip of left is refused.

Chips are physical: a firmware reboot keeps them but restarts every space's change count.
A change that finds the link's queue too full for its frames (protocol 1.2+, 64 messages) is
sent once there is room: the space's latest state, never a stale one.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
from collections.abc import Sequence
from typing import BinaryIO, TextIO

from firmware_bridge.enums import DeviceKind, ErrorCode
from firmware_bridge.messages import (
    ALL_SPACES,
    BetSpace,
    Chip,
    Error,
    Message,
    SpaceQuery,
    StatusQuery,
    layout_messages,
    space_messages,
)
from firmware_bridge.sim.commands import Command, CommandError, Reply, arg_int
from firmware_bridge.sim.device import VirtualDevice, common_arguments, run_device
from games.baccarat.california.stakes import BANK
from games.money import BadAmount, parse_amount
from games.registry import DEFAULT_GAME, GAME_KEYS, get_game, get_table_profile

DEFAULT_SEATS = 7  # a shoe game's table; a spot game has its own count of spots
ISSUER = b"\x04\x7b"  # the house's chips: NXP's manufacturer byte and the house's series
FOREIGN = b"\x08"  # a UID from another maker: a chip the house never issued
RETRY_S = 0.05  # how soon a change held back by a full queue is tried again


def game_layout(game: str, seats: int | None = None) -> tuple[BetSpace, ...]:
    """Every seat's spaces for `game`, ids 0, 1, ... seat by seat, in the game's wager order;
    at a player-dealer game (Fortune 7) then each seat's `bank` space (PROTOCOL.md §10)."""
    profile = get_table_profile(game)
    count = seats or profile.spots or DEFAULT_SEATS
    wagers = tuple(get_game(game).wagers)
    spaces = [BetSpace(seat_index * len(wagers) + i, seat_index + 1, name)
              for seat_index in range(count) for i, name in enumerate(wagers)]
    if profile.player_dealer is not None:
        spaces += [BetSpace(len(spaces) + seat_index, seat_index + 1, BANK) for seat_index in range(count)]
    return tuple(spaces)


class BetSensor(VirtualDevice):
    KIND = DeviceKind.BETS
    NAME = "bets"
    TEXT_ARGS = {"place": ("space", "values"), "add": ("space", "values"), "remove": ("space",),
                 "swap": ("space", "value"), "foreign": ("space", "value"), "burst": ("n",),
                 "report": ("space",)}

    def __init__(self, options: argparse.Namespace, stdin: BinaryIO | None = None,
                 stdout: TextIO | None = None):
        if options.game not in GAME_KEYS:
            raise CommandError(f"--game {options.game!r}: one of {', '.join(GAME_KEYS)}")
        if options.seats is not None and not 1 <= options.seats <= 32:
            raise CommandError(f"--seats {options.seats}: 1..32")
        self.game = options.game
        self.layout = game_layout(options.game, options.seats)
        if len(self.layout) >= ALL_SPACES:
            raise CommandError(f"{len(self.layout)} spaces: at most {ALL_SPACES - 1}")
        self.by_name = {f"{s.seat}:{s.name}": s.space for s in self.layout}
        self.chips: dict[int, list[Chip]] = {s.space: [] for s in self.layout}
        self.changes: dict[int, int] = dict.fromkeys(self.chips, 0)
        self.read_ms: dict[int, int] = dict.fromkeys(self.chips, 0)  # the sensor's clock at each list's read
        self.held: set[int] = set()  # spaces whose latest SPACE waits for room in the queue
        self.retry_at: float | None = None  # when to try the held spaces again
        self.layout_due = False  # the LAYOUT of a STATUS_QUERY answer waits for room in the queue
        self.issued = 0
        self.rack = read_rack(options.chips, options.minor_unit) if options.chips else None  # value -> UIDs off the table
        self.rack_uids = {uid for uids in (self.rack or {}).values() for uid in uids}  # every chip of the rack
        self.foreign_issued = 0
        self.burst_next = 0
        super().__init__(options, stdin, stdout)

    def ready_details(self) -> Reply:
        return {"game": self.game, "spaces": len(self.layout)}

    # ------------------------------------------------------------ the wire

    def on_message(self, msg: Message, now: float) -> None:
        if isinstance(msg, StatusQuery):
            self.layout_due = True
            self.held.update(self.chips)
            self._send_held(now)
        elif isinstance(msg, SpaceQuery):
            if msg.space == ALL_SPACES:
                self.held.update(self.chips)
            elif msg.space in self.chips:
                self.held.add(msg.space)
            else:
                self.send(Error(ErrorCode.BAD_SPACE, f"space {msg.space} does not exist "
                                                     f"(0-{len(self.layout) - 1})"), now)
                return
            self._send_held(now)
        else:
            super().on_message(msg, now)

    def _send_held(self, now: float) -> None:
        """Send the layout if due, then each held space's whole state, in space order, each
        only when all its frames fit in the queue (no list is ever cut short by a full queue)."""
        if self.layout_due:
            if not self._fits(layout_messages(self.layout), now):
                return
            self.layout_due = False
        for space in sorted(self.held):
            if not self._fits(space_messages(space, self.changes[space], self.read_ms[space],
                                             tuple(self.chips[space])), now):
                return
            self.held.discard(space)

    def _fits(self, frames: Sequence[Message], now: float) -> bool:
        """Queue `frames` if they all fit; else try again in RETRY_S."""
        limit = self.link.queue_limit
        if limit is not None and self.link.queued() + len(frames) > limit:
            self.retry_at = now + RETRY_S
            return False
        for frame in frames:
            self.send(frame, now)
        return True

    def next_device_timer(self) -> float | None:
        return self.retry_at if self.held or self.layout_due else None  # the loop calls on_device_timer only while connected

    def on_device_timer(self, now: float) -> None:
        self.retry_at = None
        self._send_held(now)

    def _changed(self, space: int, now: float) -> Reply:
        self.changes[space] = (self.changes[space] + 1) % (1 << 32)
        self.read_ms[space] = self.device_ms(now)
        self.held.add(space)
        self._send_held(now)
        chips = self.chips[space]
        return {"space": space, "change": self.changes[space], "chips": [_chip_json(c) for c in chips],
                "total": sum(c.value for c in chips), "sent": space not in self.held}

    # ------------------------------------------------------------ commands

    def _space(self, command: Command) -> int:
        value = command.get("space")
        if isinstance(value, str) and ":" in value:
            if value not in self.by_name:
                raise CommandError(f"{command['cmd']}: no space {value!r} (SEAT:NAME, e.g. "
                                   f"{next(iter(self.by_name))})")
            return self.by_name[value]
        return arg_int(command, "space", None, 0, len(self.layout) - 1)

    def _values(self, command: Command, name: str = "values") -> list[int]:
        raw = command.get(name)
        items = raw if isinstance(raw, list) else str(raw if raw is not None else "").split(",")
        values = [arg_int({"cmd": command["cmd"], name: item}, name, None, 0, (1 << 32) - 1)
                  for item in items if str(item).strip()]
        if not values:
            raise CommandError(f"{command['cmd']}: {name} names no chip (whole minor units, e.g. 500,100)")
        return values

    def _issue(self, value: int) -> Chip:
        if self.rack is not None:
            uids = self.rack.get(value)
            if not uids:
                have = sorted(v for v, left in self.rack.items() if left)
                raise CommandError(f"no chip of {value} left in the rack (it has chips of {have})")
            self.issued += 1
            return Chip(uids.pop(0), value)
        self.issued += 1
        return Chip(ISSUER + self.issued.to_bytes(5, "big"), value)

    def _issue_all(self, values: list[int]) -> list[Chip]:
        """Chips of `values`, all or none (a rack short of one gives none)."""
        if self.rack is not None:
            for value in set(values):
                if values.count(value) > len(self.rack.get(value, ())):
                    have = sorted(v for v, left in self.rack.items() if left)
                    raise CommandError(f"no chip of {value} left in the rack for {values.count(value)} "
                                       f"(it has {len(self.rack.get(value, ()))}; values it has: {have})")
        return [self._issue(value) for value in values]

    def _back_to_rack(self, chips: Sequence[Chip]) -> None:
        """Chips taken off a space: the rack's own go back to it (a foreign one does not)."""
        if self.rack is None:
            return
        for chip in chips:
            if chip.uid in self.rack_uids:
                self.rack.setdefault(chip.value, []).insert(0, chip.uid)


    def cmd_place(self, command: Command, now: float) -> Reply:
        space = self._space(command)
        if self.chips[space]:
            raise CommandError(f"place: space {space} holds {len(self.chips[space])} chip(s): add or remove")
        self.chips[space] = self._issue_all(self._values(command))
        return self._changed(space, now)

    def cmd_add(self, command: Command, now: float) -> Reply:
        space = self._space(command)
        self.chips[space] += self._issue_all(self._values(command))
        return self._changed(space, now)

    def _chip_index(self, command: Command, space: int) -> int:
        chips = self.chips[space]
        if not chips:
            raise CommandError(f"{command['cmd']}: space {space} holds no chip")
        uid = command.get("uid")
        if uid is None:
            return len(chips) - 1
        for i, chip in enumerate(chips):
            if chip.uid.hex() == str(uid).replace(" ", "").lower():
                return i
        raise CommandError(f"{command['cmd']}: no chip {uid} on space {space}")

    def cmd_remove(self, command: Command, now: float) -> Reply:
        space = self._space(command)
        chips = self.chips[space]
        if "uid" in command:
            self._back_to_rack([chips.pop(self._chip_index(command, space))])
        else:
            if not chips:
                raise CommandError(f"remove: space {space} holds no chip")
            count = arg_int(command, "n", len(chips), 1, len(chips))
            self._back_to_rack(chips[len(chips) - count:])
            del chips[len(chips) - count:]
        return self._changed(space, now)

    def cmd_swap(self, command: Command, now: float) -> Reply:
        space = self._space(command)
        index = self._chip_index(command, space)
        old = self.chips[space][index]
        value = arg_int(command, "value", old.value, 0, (1 << 32) - 1)
        self.chips[space][index] = self._issue(value)
        self._back_to_rack([old])
        return {**self._changed(space, now), "taken": _chip_json(old)}

    def cmd_foreign(self, command: Command, now: float) -> Reply:
        space = self._space(command)
        value = arg_int(command, "value", 500, 0, (1 << 32) - 1)
        uid = FOREIGN + os.urandom(6)
        self.foreign_issued += 1
        self.chips[space].append(Chip(uid, value))
        return {**self._changed(space, now), "foreign": uid.hex()}

    def cmd_burst(self, command: Command, now: float) -> Reply:
        count = arg_int(command, "n", 20, 1, 10_000)
        fixed = self._space(command) if "space" in command else None
        value = arg_int(command, "value", 100, 0, (1 << 32) - 1)
        touched: dict[int, int] = {}
        for _ in range(count):
            space = fixed if fixed is not None else self.layout[self.burst_next % len(self.layout)].space
            self.burst_next += 1
            self.chips[space].append(self._issue(value))
            self._changed(space, now)
            touched[space] = len(self.chips[space])
        return {"changes": count, "spaces": {str(s): n for s, n in sorted(touched.items())},
                "held": sorted(self.held)}

    def cmd_report(self, command: Command, now: float) -> Reply:
        space = self._space(command)
        self.held.add(space)
        self._send_held(now)
        return {"space": space, "sent": space not in self.held}

    def on_reboot(self, command: Command) -> None:
        self.changes = dict.fromkeys(self.chips, 0)  # RAM; the chips stay where they lie
        self.read_ms = dict.fromkeys(self.chips, 0)  # read again at boot
        self.held.clear()
        self.layout_due = False
        self.retry_at = None

    def device_state(self) -> Reply:
        return {"game": self.game, "layout": [[s.space, s.seat, s.name] for s in self.layout],
                "spaces": {str(s): [_chip_json(c) for c in chips] for s, chips in self.chips.items() if chips},
                "changes": {str(s): n for s, n in self.changes.items() if n},
                "held": sorted(self.held), "layout_due": self.layout_due, "issued": self.issued, "foreign": self.foreign_issued}


def _chip_json(chip: Chip) -> dict[str, object]:
    return {"uid": chip.uid.hex(), "value": chip.value}


def build_parser(prog: str = "tablectl sim bets") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    common_arguments(parser, default_protocol="1.3")
    parser.add_argument("--game", default=DEFAULT_GAME, help=f"the layout's game (default {DEFAULT_GAME})")
    parser.add_argument("--seats", type=int, default=None,
                        help=f"seats (spots) with spaces (default: the game's spots, else {DEFAULT_SEATS})")
    parser.add_argument("--chips", metavar="FILE.csv", help="a rack of the house's chips (uid,value,set): "
                                                             "chips come from it and go back to it")
    parser.add_argument("--minor-unit", default="1", help="the currency's minor unit, for --chips' values (default 1)")
    return parser


def read_rack(path: str, minor_unit: str = "1") -> dict[int, list[bytes]]:
    """The rack of --chips: tag value (minor units) -> the UIDs of that value, in file order."""
    try:
        unit = parse_amount(minor_unit)
        with open(path, newline="", encoding="utf-8-sig") as file:
            rows = list(csv.reader(file))
    except (OSError, BadAmount) as error:
        raise CommandError(f"--chips {path}: {error}") from None
    rack: dict[int, list[bytes]] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        try:
            uid, value = bytes.fromhex(row[0]), parse_amount(row[1].strip()) / unit
        except (ValueError, IndexError) as error:
            raise CommandError(f"--chips {path}:{line}: {error}") from None
        if value.denominator != 1 or not 0 < value < (1 << 32) or not 4 <= len(uid) <= 10:
            raise CommandError(f"--chips {path}:{line}: not a chip (UID of 4-10 bytes, a whole number of minor units)")
        rack.setdefault(int(value), []).append(uid)
    return rack


def main(argv: Sequence[str] | None = None) -> int:
    return run_device(BetSensor, build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())

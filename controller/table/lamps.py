"""The lamp map per game: lamp names, their wire ids (uint8), and what lights them.

Which lamps a game has comes from its table profile (games.table_profile: its betting areas,
spots, player-dealer seats); this module gives them ids and decides what they show. The
table speaks lamp NAMES (effects.Lamps: the whole picture after every input); the daemon maps
names to ids with `lamp_ids` and the lights driver writes only the lamps that changed. docs/table.md prints these maps as tables
(docgen.mapdocs renders them, and a test keeps the page in step with this data).

Result lamps, one per betting area (the bet keys of `tablectl play`): on = the wager wins,
slow blink = it pushes, off = it loses. They show from the result until the next
"Place your bets"; a void round lights none of them.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import NamedTuple

from controller.table import machine as m
from controller.table.draw_counter import DrawCounter
from controller.table.effects import Pattern
from controller.table.integrity import ShoeIntegrity
from controller.table.panel import Panel
from controller.table.player_dealer import PlayerDealer
from controller.table.shoe import Shoe
from games.registry import get_table_profile
from games.table_profile import SPOT_LAMP_STRIDE, TableProfile

OFF, ON, SLOW, FAST = Pattern.OFF.value, Pattern.ON.value, Pattern.SLOW.value, Pattern.FAST.value

# Status lamps, the same on every table: name -> (id, meaning)
STATUS_LAMPS = {
    "bets_open": (1, "on while bets are open (\"Place your bets\")"),
    "no_more_bets": (2, "on from \"No more bets\" until the result; slow blink while the round is held"),
    "void": (3, "on when the round is void, until the next \"Place your bets\""),
    "error": (4, "fast blink: an irregularity outside a round or a refused card is waiting, or the shoe is not heard; "
                 "slow blink: the shoe failed an integrity check and waits for the supervisor (local ruling L7)"),
    "last_round": (5, "on when the round in progress (or the next one) is the last of the shoe"),
    "supervisor": (6, "fast blink: the round is held for the supervisor, or, between rounds, the shoe waits for the "
                      "supervisor to accept it or call a new one (local ruling L7)"),
    "new_shoe": (7, "slow blink: no shoe or shoe finished, a new shoe is needed; on while burning"),
    "key": (8, "on while the supervisor key is turned"),
    "result": (9, "on while a result is shown (result and settled)"),
}

# Lamp ids by kind: a game's result lamps as its profile states them (16 on by custom; from 80
# on, 8 a spot, on a spot game), spot lamps from 65, player-dealer seat lamps from 201
# (games.table_profile says which exist).
SPOT_BASE, SEAT_BASE = 64, 200


@dataclass(frozen=True)
class Lamp:
    name: str
    id: int
    meaning: str


@cache
def lamp_list(game_key: str) -> tuple[Lamp, ...]:
    """Every lamp of `game_key`'s table, in id order."""
    return lamps_of(get_table_profile(game_key))


class LampClash(ValueError):
    """A table profile whose lamps would share a wire id, or leave uint8."""


def lamps_of(profile: TableProfile) -> tuple[Lamp, ...]:
    lamps = [Lamp(name, lamp_id, meaning) for name, (lamp_id, meaning) in STATUS_LAMPS.items()]
    areas, spots = profile.result_lamps, profile.spots
    if not spots:
        lamps += [Lamp(f"bet_{key}", lamp_id, f"{key} wager: on win, slow blink push, off lose")
                  for key, lamp_id in areas.items()]
    for spot in range(1, spots + 1):
        lamps.append(Lamp(f"spot{spot}", SPOT_BASE + spot,
                          f"spot {spot}: on when live; fast blink while its decision is awaited"))
    for spot in range(1, spots + 1):
        lamps += [Lamp(f"spot{spot}_{key}", lamp_id + (spot - 1) * SPOT_LAMP_STRIDE,
                       f"spot {spot} {key}: on win, slow blink push, off lose")
                  for key, lamp_id in areas.items()]
    if profile.player_dealer is not None:
        lamps += [Lamp(f"player_dealer_{seat}", SEAT_BASE + seat, f"on: seat {seat} holds the player-dealer position")
                  for seat in profile.player_dealer.seats]
    _check_ids(lamps, profile)
    return tuple(sorted(lamps, key=lambda lamp: lamp.id))


def _check_ids(lamps: list[Lamp], profile: TableProfile) -> None:
    by_id: dict[int, str] = {}
    for lamp in lamps:
        if not 0 < lamp.id < 256:
            raise LampClash(f"lamp {lamp.name} has id {lamp.id}: a lamp id is 1-255")
        if lamp.id in by_id:
            raise LampClash(f"lamps {by_id[lamp.id]} and {lamp.name} both have id {lamp.id}")
        by_id[lamp.id] = lamp.name
    if profile.spots and max(profile.result_lamps.values()) - min(profile.result_lamps.values()) >= SPOT_LAMP_STRIDE:
        raise LampClash(f"a spot's result lamps must lie within {SPOT_LAMP_STRIDE} ids, got {dict(profile.result_lamps)}")


def lamp_ids(game_key: str) -> dict[str, int]:
    """Lamp name -> wire id (uint8) for the daemon."""
    return {lamp.name: lamp.id for lamp in lamp_list(game_key)}


class LampView(NamedTuple):
    """What the lamps show, taken from the table's state. A tuple: built and compared after
    every input without a Python-level __init__ or __eq__."""

    round_state: str
    shoe_state: str
    last_round: bool = False
    attention: bool = False  # an irregularity outside a round / a refused card, or the shoe unheard
    shoe_held: bool = False  # an integrity alarm waits for the supervisor (local ruling L7)
    key_on: bool = False
    live_spots: tuple[int, ...] = ()
    awaited_spot: int | None = None
    bets: Mapping[str, str] = MappingProxyType({})  # bet key -> win/lose/push
    spot_bets: Mapping[int, Mapping[str, str]] = MappingProxyType({})
    player_dealer_seat: int | None = None
    mispaid: tuple[tuple[int, str], ...] = ()  # (seat, bet) of each space found mispaid at confirm


_RESULT_PATTERN = {"win": ON, "push": SLOW, "lose": OFF}


@cache
def _all_off(game_key: str) -> tuple[tuple[str, str], ...]:
    return tuple((lamp.name, OFF) for lamp in lamp_list(game_key))


def lamp_picture(game_key: str, view: LampView) -> dict[str, str]:
    """The whole lamp picture (every lamp by name) for `view`."""
    rs = view.round_state
    shown = rs in (m.RESULT, m.SETTLED)
    picture = dict(_all_off(game_key))
    picture["bets_open"] = ON if rs == m.BETTING else OFF
    picture["no_more_bets"] = SLOW if rs == m.HELD else ON if rs in (m.BETS_CLOSED, m.DEALING, m.DRAWING, m.AWAITING) else OFF
    picture["void"] = ON if rs == m.VOID else OFF
    picture["error"] = FAST if view.attention else SLOW if view.shoe_held else OFF
    picture["last_round"] = ON if view.last_round else OFF
    picture["supervisor"] = FAST if rs == m.HELD or (view.shoe_held and rs in m.ROUND_CLOSED) else OFF
    picture["new_shoe"] = SLOW if view.shoe_state in (m.NO_SHOE, m.FINISHED) else ON if view.shoe_state == m.BURNING else OFF
    picture["key"] = ON if view.key_on else OFF
    picture["result"] = ON if shown else OFF
    if shown:
        for key, outcome in view.bets.items():
            if f"bet_{key}" in picture:
                picture[f"bet_{key}"] = _RESULT_PATTERN.get(outcome, OFF)
        for spot, bets in view.spot_bets.items():
            for key, outcome in bets.items():
                if f"spot{spot}_{key}" in picture:
                    picture[f"spot{spot}_{key}"] = _RESULT_PATTERN.get(outcome, OFF)
    if rs != m.IDLE:
        for spot in view.live_spots:
            picture[f"spot{spot}"] = FAST if spot == view.awaited_spot else ON
    if view.player_dealer_seat is not None:
        picture[f"player_dealer_{view.player_dealer_seat}"] = ON
    for seat, bet in view.mispaid:  # the space's own lamp where the table has one, else the error lamp
        picture[f"spot{seat}_{bet}" if f"spot{seat}_{bet}" in picture else "error"] = FAST
    return picture


class LampBoard:
    """The lamp view: the picture the table's state calls for, from the shoe, its link, the
    panel, the player-dealer, the integrity checks, and what the round in play passes in. The table returns it
    whole after every input; which lamps differ from the board is the lights driver's to
    find (drivers/lights.py, the one diff)."""

    def __init__(self, game_key: str, shoe: Shoe, counter: DrawCounter, panel: Panel, bank: PlayerDealer | None,
                 integrity: ShoeIntegrity):
        self.game_key = game_key
        self.shoe, self.counter, self.panel, self.bank, self.integrity = shoe, counter, panel, bank, integrity
        # The last view and its picture: most inputs (every card of a deal) leave the view as
        # it was, and the picture is asked for after every input.
        self._view: LampView | None = None
        self._picture: dict[str, str] = {}

    def picture(self, round_state: str, live_spots: tuple[int, ...], awaited_spot: int | None,
                bets: Mapping[str, str], spot_bets: Mapping[int, Mapping[str, str]], noted: bool,
                mispaid: tuple[tuple[int, str], ...] = ()) -> dict[str, str]:
        """`noted`: an irregularity outside a round, or a refused card, waits for attention;
        `mispaid`: the spaces a confirm found mispaid, still standing (their lamps blink fast)."""
        shoe = self.shoe
        unread_burn = shoe.burning and shoe.burned > 0 and shoe.burn_remaining is None
        view = LampView(
            round_state=round_state, shoe_state=shoe.state, last_round=shoe.last_round,
            attention=noted or not self.counter.heard or unread_burn, shoe_held=self.integrity.blocked, key_on=self.panel.key_on,
            live_spots=live_spots, awaited_spot=awaited_spot, bets=bets, spot_bets=spot_bets,
            player_dealer_seat=self.bank.holder if self.bank is not None else None, mispaid=mispaid,
        )
        if view != self._view:
            # the bets copied: the view compared next time must not change with the round's dicts
            self._view = view._replace(bets=dict(bets), spot_bets={spot: dict(b) for spot, b in spot_bets.items()})
            self._picture = lamp_picture(self.game_key, view)
        return dict(self._picture)

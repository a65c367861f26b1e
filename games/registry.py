"""The games by key, each a folder (a package). Modules are imported on first use.

A game's folder holds:
  game.py     GAME (its rules, with the irregularity rules the table applies), TABLE (its table
              profile: games.table_profile), odds(decks) and edge_bets(left, decks)
  clauses.py  BOOK: its clauses and how its rules text is cited (games.clause_book)

A sixth game is its folder and one line: in GAME_FOLDERS below, or, for a game that lives
outside this repository (or a test's copy of one), in the environment variable TABLECTL_GAMES,
`key=package` pairs separated by commas (e.g. TABLECTL_GAMES=lucky6=mygames.lucky6), read
once when this module is first imported. An unknown key is an error (UnknownGame), never
another game."""
from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from types import ModuleType

from games.analysis import BetOdds, OddsReport
from games.cards import Card
from games.clause_book import ClauseBook
from games.round import Game
from games.table_profile import TableProfile

DEFAULT_GAME = "fortune6"  # the game a table, the demo or the rig deals when none is named
GAME_FOLDERS = {
    "fafa4": "games.fafa4",
    "fortune7": "games.fortune7",
    "fortune6": "games.fortune6",
    "fubacc": "games.fubacc",
    "paigow": "games.paigow",
}
ENVIRONMENT = "TABLECTL_GAMES"
_KEY_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789_")


class BadGameLine(ValueError):
    """A TABLECTL_GAMES entry that is not `key=package`."""


def registered_lines(text: str) -> dict[str, str]:
    """TABLECTL_GAMES's `key=package[,key=package]` as key -> package."""
    lines: dict[str, str] = {}
    for entry in filter(None, (part.strip() for part in text.split(","))):
        key, equals, package = (side.strip() for side in entry.partition("="))
        if not equals or not key or not package or not set(key) <= _KEY_CHARS:
            raise BadGameLine(f"{ENVIRONMENT}: {entry!r} is not key=package (a key of a-z, 0-9, _)")
        if key in GAME_FOLDERS or key in lines:
            raise BadGameLine(f"{ENVIRONMENT}: {key!r} is a game already")
        lines[key] = package
    return lines


GAME_FOLDERS.update(registered_lines(os.environ.get(ENVIRONMENT, "")))
GAME_KEYS = tuple(GAME_FOLDERS)


class UnknownGame(KeyError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key

    def __str__(self) -> str:
        return f"unknown game {self.key!r} (one of {', '.join(GAME_FOLDERS)})"


def _part(key: str, name: str) -> ModuleType:
    if key not in GAME_FOLDERS:
        raise UnknownGame(key)
    return importlib.import_module(f"{GAME_FOLDERS[key]}.{name}")


def game_module(key: str) -> ModuleType:
    """The game's game.py: GAME, TABLE, odds(), edge_bets()."""
    return _part(key, "game")


def get_clause_book(key: str) -> ClauseBook:
    """The game's clauses and how they are cited (its clauses.py, BOOK)."""
    book: ClauseBook = _part(key, "clauses").BOOK
    return book


def get_game(key: str) -> Game:
    """The Game object for `key`; each game module exposes it as GAME."""
    game: Game = game_module(key).GAME
    return game


def get_table_profile(key: str) -> TableProfile:
    """How the table is laid out and dealt for `key` (lamps, buttons, shoe, player-dealer, board, demo)."""
    profile: TableProfile = game_module(key).TABLE
    return profile


def get_odds(key: str, decks: int | None = None) -> OddsReport:
    """The exact OddsReport for `key`; each game module exposes odds(decks)."""
    module = game_module(key)
    report: OddsReport = module.odds(module.GAME.default_decks if decks is None else decks)
    return report


def get_edge_bets(key: str, left: Mapping[Card, int], decks: int) -> tuple[dict[str, BetOdds], tuple[str, ...]]:
    """Every wager's exact odds for a round dealt from `left` (card -> copies); each game module
    exposes edge_bets(left, decks) -> (bets, notes)."""
    bets: tuple[dict[str, BetOdds], tuple[str, ...]] = game_module(key).edge_bets(left, decks)
    return bets

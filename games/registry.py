"""The games by key, each a folder (a package). Modules are imported on first use.

A game's folder holds:
  game.py     GAME (its rules, with the irregularity rules the table applies), TABLE (its table
              profile: games.table_profile), odds(decks) and edge_bets(left, decks)
  clauses.py  BOOK: its clauses and how its rules text is cited (games.clause_book)

A sixth game is its folder and one line: in GAME_FOLDERS below, or, for a game installed as
a package of its own (or a test's copy of one), an entry point of the group `tablectl.games`
naming its folder (`lucky6 = mygames.lucky6` in its entry_points.txt, or in pyproject.toml
under [project.entry-points."tablectl.games"]), read once when this module is first imported.
An unknown key is an error (UnknownGame), never another game."""
from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from importlib.metadata import EntryPoint, entry_points
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
ENTRY_POINTS = "tablectl.games"  # the entry point group of games installed beside tablectl
_KEY_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789_")


class BadGameLine(ValueError):
    """An entry point of tablectl.games that cannot be a game's line."""


def installed_lines(points: Iterable[EntryPoint]) -> dict[str, str]:
    """The `tablectl.games` entry points as key -> the game's folder (a package)."""
    lines: dict[str, str] = {}
    for point in points:
        key, package = point.name, point.value
        if not key or not set(key) <= _KEY_CHARS or ":" in package:
            raise BadGameLine(f"{ENTRY_POINTS}: {key} = {package}: expected key = package (a key of a-z, 0-9, _)")
        if key in GAME_FOLDERS or lines.get(key, package) != package:
            raise BadGameLine(f"{ENTRY_POINTS}: {key} = {package}: {key!r} is a game already")
        lines[key] = package
    return lines


GAME_FOLDERS.update(installed_lines(entry_points(group=ENTRY_POINTS)))
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

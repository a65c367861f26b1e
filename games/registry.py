"""The five games by key. Modules are imported on first use.

Each game module exposes GAME (its rules), odds(decks), edge_bets(left, decks) and TABLE (its table profile:
games.table_profile). A sixth game is its module and one line here."""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType

from games.analysis import BetOdds, OddsReport
from games.cards import Card
from games.round import Game
from games.table_profile import TableProfile

GAME_MODULES = {
    "fafa4": "games.baccarat.fafa4",
    "fortune7": "games.baccarat.fortune7",
    "fortune6": "games.baccarat.fortune6",
    "fubacc": "games.fubacc.game",
    "paigow": "games.paigow.game",
}
GAME_KEYS = tuple(GAME_MODULES)


class UnknownGame(KeyError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key

    def __str__(self) -> str:
        return f"unknown game {self.key!r} (one of {', '.join(GAME_KEYS)})"


def game_module(key: str) -> ModuleType:
    if key not in GAME_MODULES:
        raise UnknownGame(key)
    return importlib.import_module(GAME_MODULES[key])


def get_game(key: str) -> Game:
    """The Game object for `key`; each game module exposes it as GAME."""
    game: Game = game_module(key).GAME
    return game


def get_table_profile(key: str) -> TableProfile:
    """How the table is laid out and dealt for `key` (lamps, buttons, shoe, player-dealer)."""
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

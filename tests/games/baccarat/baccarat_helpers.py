"""Shared by the baccarat tests: the three games and cards of a given point value."""
from __future__ import annotations

from games.cards import Card
from games.fafa4 import game as fafa4
from games.fortune6 import game as fortune6
from games.fortune7 import game as fortune7

GAMES = {"fafa4": fafa4.GAME, "fortune7": fortune7.GAME, "fortune6": fortune6.GAME}
GAME_LIST = list(GAMES.values())


def card_of(game, point: int, n: int = 0) -> Card:
    """A card of `point` from the game's deck; `n` picks a different suit/element/rank so a
    hand does not run out of copies of one card."""
    pool = [c for c in game.deck_kind.cards if c.point == point]
    return pool[n % len(pool)]

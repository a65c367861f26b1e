"""Point totals, naturals and the Table of Play shared by the three games.

The three rule texts state the same table (fafa §3.8, fortune6 §3.9, fortune7 "Dealing
Procedures and Round of Play" and its H/S chart); it lives here once, on point values 0..9,
so the exact odds can run it on point classes and the engine on real cards.
"""
from __future__ import annotations

from collections.abc import Iterable

from games.cards import Card

NATURALS = frozenset({8, 9})  # a two-card 8 or 9 (fafa §1.1.5, fortune6 §1.1.4)
PLAYER_STANDS_ON = 6  # the player draws on 0-5 and stands on 6-7
BANKER_STANDS_ON = 6  # when the player stands, the banker draws on 0-5 (fafa §3.8, fortune6 §3.9.3)

# banker total -> the player third-card points on which the banker draws (fortune6 §3.9.4)
BANKER_DRAWS_AGAINST = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}


def points_total(points: Iterable[int]) -> int:
    """The right digit of the sum (fafa §3.4, fortune6 §3.4)."""
    return sum(points) % 10


def cards_total(cards: Iterable[Card]) -> int:
    return points_total([c.point for c in cards])  # a list: a hand is 2-3 cards, a generator costs more


def is_natural(player_total: int, banker_total: int) -> bool:
    """Either two-card hand is an 8 or 9: no more cards to either hand."""
    return player_total in NATURALS or banker_total in NATURALS


def player_draws(player_total: int, banker_total: int) -> bool:
    """After the initial deal: does the player take a third card?"""
    return not is_natural(player_total, banker_total) and player_total < PLAYER_STANDS_ON


def banker_draws(player_total: int, banker_total: int, player_third: int | None) -> bool:
    """After the player's turn: does the banker take a third card? `player_third` is the
    point value of the player's third card, None when the player stood."""
    if is_natural(player_total, banker_total):
        return False
    if player_third is None:
        return banker_total < BANKER_STANDS_ON
    return player_third in BANKER_DRAWS_AGAINST.get(banker_total, frozenset())

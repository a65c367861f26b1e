"""Fu Bacc hands: baccarat points, the dealer's third-card rule, naturals and monkeys.

Everything here works on point values (0..9) so the exact odds can reuse it on rank
classes; the `*_cards` helpers adapt real cards.
"""
from __future__ import annotations

from collections.abc import Iterable

from games.cards import Card

MONKEY_RANKS = frozenset({10, 11, 12, 13})  # ruling 12: 10, J, Q, K (the seed's "(10-K)")
DEALER_STANDS_ON = 6  # ruling 16: the dealer stands on a two-card 6-9, draws on 0-5


def is_monkey(card: Card) -> bool:
    return card.rank in MONKEY_RANKS


def two_monkeys(cards: Iterable[Card]) -> bool:
    cards = tuple(cards)
    return len(cards) == 2 and all(is_monkey(c) for c in cards)


def points_total(points: Iterable[int]) -> int:
    """The hand's value: the last digit of the sum of its card points (fubacc "Ranking of Hands")."""
    return sum(points) % 10


def cards_total(cards: Iterable[Card]) -> int:
    return points_total(c.point for c in cards)


def dealer_draws(two_card_total: int) -> bool:
    """Ruling 16 (fubacc "Dealer's hit rules", procedure 9)."""
    return two_card_total < DEALER_STANDS_ON


def dealer_final_total(up: int, hole: int, hit: int) -> int:
    two = points_total((up, hole))
    return points_total((two, hit)) if dealer_draws(two) else two


def bonus_line(two_card_total: int, monkeys: bool, up: int) -> str | None:
    """The Ante bonus a player may take instead of playing (procedures 12-15), or None.

    A natural 9 or 8 is any two-card 9 or 8; the monkey rescue needs two monkeys against a
    dealer up card 9. Two monkeys total 0, so at most one of the three applies."""
    if two_card_total == 9:
        return "natural 9"
    if two_card_total == 8:
        return "natural 8"
    if monkeys and up == 9:
        return "monkey rescue"
    return None


def lucky_monkey_line(monkeys: bool, up: int) -> str | None:
    """The Lucky Monkey pay line (fubacc way 2; ruling 13: first two cards vs the up card only)."""
    if not monkeys:
        return None
    if up >= 6:
        return f"monkey monkey vs {up}"
    return "monkey monkey vs 0-5"


def compare(player_total: int, dealer_total: int) -> str:
    """"win", "lose" or "tie" for the player: closest to 9 wins (fubacc way 1)."""
    if player_total > dealer_total:
        return "win"
    if player_total < dealer_total:
        return "lose"
    return "tie"

"""`Coup`: what a finished round looks like to the main wagers.

Every main wager of the three games is decided by the two final totals, how many cards
each hand holds and (Fa Fa's Tie on Element Eights) whether both hands are two 4s. The
engine builds a Coup from real cards and the exact odds count Coups directly, so both
settle through the same per-game function.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.baccarat.table_of_play import cards_total
from games.cards import Card

PLAYER, BANKER, TIE = "player", "banker", "tie"


@dataclass(frozen=True, slots=True)
class Coup:
    player: int  # final point total 0..9
    banker: int
    player_cards: int  # 2 or 3
    banker_cards: int
    fours: bool = False  # both hands are exactly two cards of point 4 (ruling 4)

    @property
    def winner(self) -> str:
        if self.player == self.banker:
            return TIE
        return PLAYER if self.player > self.banker else BANKER

    @property
    def margin(self) -> int:
        """The winner's lead in points (0 on a tie)."""
        return abs(self.player - self.banker)

    def winner_total(self) -> int | None:
        return None if self.winner == TIE else max(self.player, self.banker)


def coup_of(player: Sequence[Card], banker: Sequence[Card]) -> Coup:
    fours = len(player) == 2 and len(banker) == 2 and all(c.point == 4 for c in (*player, *banker))
    return Coup(cards_total(player), cards_total(banker), len(player), len(banker), fours)

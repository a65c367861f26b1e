"""What a scoreboard notes of a decided baccarat round: its outcome for the roads (winner and
pairs), whether a natural was dealt, and the game's own counted events.

The game's own events are its table profile's board counts (TABLE.board_counts: Fortune
Six wins, three-card 7s, Element Eights ...), read off the game's own settlement
(`settle_coup`), so the board counts exactly what the pay tables pay.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.baccarat.coup import BANKER, PLAYER, TIE, coup_of
from games.baccarat.engine import BaccaratGame
from games.baccarat.roads import Outcome
from games.baccarat.table_of_play import cards_total, is_natural
from games.cards import Card
from games.registry import get_table_profile

WINNER_TOKENS = {BANKER: "B", PLAYER: "P", TIE: "T"}

def game_event_names(game_key: str) -> list[str]:
    """The game's own counts, in the order a board shows them (its profile's board counts)."""
    return [count.name for count in get_table_profile(game_key).board_counts]


@dataclass(frozen=True)
class RoundMarks:
    outcome: Outcome
    natural: bool  # either hand's first two cards total 8 or 9
    events: tuple[str, ...]  # the game's own counts this round adds to (TABLE.board_counts)


def is_pair(cards: Sequence[Card]) -> bool:
    """The hand's first two cards are of one rank (rulings 2 and 11: rank, not point value)."""
    return len(cards) >= 2 and cards[0].rank == cards[1].rank


def round_marks(game: BaccaratGame, winner: str, player: Sequence[Card], banker: Sequence[Card]) -> RoundMarks:
    """`winner` is the table's decision (player, banker or tie); the cards are each hand's, as dealt."""
    outcome = Outcome(WINNER_TOKENS[winner], banker_pair=is_pair(banker), player_pair=is_pair(player))
    natural = is_natural(cards_total(player[:2]), cards_total(banker[:2]))
    settled = game.settle_coup(coup_of(player, banker))
    events = tuple(count.name for count in get_table_profile(game.key).board_counts
                   if any(settled.get(wager) is not None and (line is None or settled[wager] == line)
                          for wager, line in count.pays))
    return RoundMarks(outcome, natural, events)

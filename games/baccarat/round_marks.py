"""What a scoreboard notes of a decided baccarat round: its outcome for the roads (winner and
pairs), whether a natural was dealt, and the game's own counted events.

The game's own events are read off the game's own settlement (`settle_coup`), so the board
counts exactly what the pay tables pay:
  fortune6  Fortune Six wins: the banker wins with 6 (fortune6 §3.11, ruling 11)
  fortune7  three-card 7s: the banker wins with a three-card 7 (ruling 6)
  fafa4     Element Eights: a tie of two 4s against two 4s (ruling 4); Fabulous 4s: a side
            wins with 4 (fafa §3.11, §3.12)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.baccarat.coup import BANKER, PLAYER, TIE, coup_of
from games.baccarat.engine import BaccaratGame
from games.baccarat.fafa4 import ELEMENT_EIGHTS
from games.baccarat.roads import Outcome
from games.baccarat.table_of_play import cards_total, is_natural
from games.cards import Card

WINNER_TOKENS = {BANKER: "B", PLAYER: "P", TIE: "T"}

# game -> (count name, wager key, the pay line that counts it or None for any winning line)
GAME_EVENTS: dict[str, tuple[tuple[str, str, str | None], ...]] = {
    "fortune6": (("fortune_six", "fortune6", None),),
    "fortune7": (("three_card_7", "fortune7", None),),
    "fafa4": (("element_eights", "tie", ELEMENT_EIGHTS), ("fabulous4", "player_fabulous4", None),
              ("fabulous4", "banker_fabulous4", None)),
}


def game_event_names(game_key: str) -> list[str]:
    """The game's own counts, in the order a board shows them (none for other games)."""
    return list(dict.fromkeys(name for name, _, _ in GAME_EVENTS.get(game_key, ())))


@dataclass(frozen=True)
class RoundMarks:
    outcome: Outcome
    natural: bool  # either hand's first two cards total 8 or 9
    events: tuple[str, ...]  # the game's own counts this round adds to (GAME_EVENTS)


def is_pair(cards: Sequence[Card]) -> bool:
    """The hand's first two cards are of one rank (rulings 2 and 11: rank, not point value)."""
    return len(cards) >= 2 and cards[0].rank == cards[1].rank


def round_marks(game: BaccaratGame, winner: str, player: Sequence[Card], banker: Sequence[Card]) -> RoundMarks:
    """`winner` is the table's decision (player, banker or tie); the cards are each hand's, as dealt."""
    outcome = Outcome(WINNER_TOKENS[winner], banker_pair=is_pair(banker), player_pair=is_pair(player))
    natural = is_natural(cards_total(player[:2]), cards_total(banker[:2]))
    settled = game.settle_coup(coup_of(player, banker))
    events = tuple(dict.fromkeys(
        name for name, wager, line in GAME_EVENTS.get(game.key, ())
        if settled.get(wager) is not None and (line is None or settled[wager] == line)))
    return RoundMarks(outcome, natural, events)

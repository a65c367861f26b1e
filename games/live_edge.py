"""The house edge of every wager of a game's layout for the next round, dealt from the cards
still in the shoe: exact, from each game's own odds engine.

    remaining = cards_left(game, decks, cards_out)        # Counter card -> copies; ValueError
    report = live_edge(game, decks, cards_out)            # EdgeReport: every wager's BetOdds
    report.in_players_favour(Fraction(1, 100))            # wagers whose edge is below -1%

Every card the shoe read counts as out, the burn included (surveillance knows them all, a
player counting cards does not). A card that left unread is not: by exchangeability the next
round is a fair draw from the unseen cards whether it is still in the shoe or not.

  baccarat (fafa4, fortune7, fortune6): main wagers over every Coup of the remaining point
    counts (games/baccarat/counting.py), pair wagers over every ordered pair of the remaining
    cards; both sides' pair wagers are listed.
  fubacc: one spot played with the optimal strategy for the remaining deck (Ante with its Play,
    Tie, Lucky Monkey), games/fubacc/odds.py.
  paigow: the Fortune Bonus over every seven-card hand of the remaining deck
    (games/paigow/bonus_count.py).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.analysis import BetOdds
from games.cards import Card
from games.registry import get_edge_bets, get_game

MIN_CARDS = 6  # every game's count needs a round's worth: baccarat's six-card prefix, a Fu Bacc spot


@dataclass(frozen=True)
class EdgeReport:
    game: str
    decks: int
    cards_out: int  # cards counted out of the shoe
    cards_left: int
    bets: Mapping[str, BetOdds]  # wager key -> exact odds for the next round
    notes: tuple[str, ...] = ()

    def edges(self) -> dict[str, Fraction]:
        """Wager key -> house edge per unit (positive: the house's advantage)."""
        return {key: bet.house_edge for key, bet in self.bets.items()}

    def in_players_favour(self, margin: Fraction = Fraction(0)) -> dict[str, Fraction]:
        """The wagers whose expectation for the player is above `margin` per unit (house edge
        below -margin), with their house edge."""
        return {key: edge for key, edge in self.edges().items() if edge < -margin}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game, "decks": self.decks, "cards_out": self.cards_out, "cards_left": self.cards_left,
            "edges": {key: float(edge) for key, edge in self.edges().items()},
            "bets": {key: bet.to_json() for key, bet in self.bets.items()},
        }
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def cards_left(game_key: str, decks: int, cards_out: Iterable[Card]) -> Counter[Card]:
    """The shoe's composition once `cards_out` are out; ValueError naming a card that is not of
    the game's deck or comes out more often than the decks hold it."""
    game = get_game(game_key)
    if decks not in game.deck_counts:
        counts = game.deck_counts
        allowed = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        raise ValueError(f"{game_key} is played with {allowed} decks, not {decks}")
    left: Counter[Card] = game.deck_kind.shoe(decks)
    for n, card in enumerate(cards_out, 1):
        if not game.deck_kind.contains(card):
            raise ValueError(f"card {n}, {card}, is not a card of the {game.deck_kind.value} deck")
        if left[card] <= 0:
            raise ValueError(f"card {n}, {card}, is one more {card} than {decks} deck(s) hold")
        left[card] -= 1
    return +left


def live_edge(game_key: str, decks: int, cards_out: Iterable[Card] = ()) -> EdgeReport:
    """Every wager's exact odds for the next round once `cards_out` have left the shoe."""
    out = list(cards_out)
    left = cards_left(game_key, decks, out)
    size = sum(left.values())
    if size < MIN_CARDS:
        raise ValueError(f"{size} card(s) left: a round needs at least {MIN_CARDS}")
    bets, notes = get_edge_bets(game_key, left, decks)
    return EdgeReport(game_key, decks, len(out), size, bets, notes)

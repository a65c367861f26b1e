"""The demo's Fu Bacc players: decisions from the exact optimal Ante strategy (strategy.py).

The strategy is a table over what the player sees: the points of the spot's two cards and the
dealer's up card. A strategy action such as "play,hit" is two panel decisions: "play" when the
first decision is asked for, then "hit" when the table asks hit-or-stay."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from games.cards import parse_card
from games.fubacc.strategy import optimal_strategy


@lru_cache(maxsize=4)
def strategy_table(decks: int = 1) -> dict[tuple[int, int, int], str]:
    """(low point, high point, up card point) -> the optimal action ("bonus", "play,stay", ...)."""
    return {(*choice.situation.hand, choice.situation.up): choice.action for choice in optimal_strategy(decks)}


def optimal_action(hand: Sequence[str], up: str, decks: int = 1) -> str:
    """The optimal action for a spot holding `hand` (its first two cards) against `up`."""
    low, high = sorted(parse_card(card).point for card in hand[:2])
    return strategy_table(decks)[(low, high, parse_card(up).point)]


class OptimalFuBacc:
    """decide(spot, options, hands) -> the panel decision the optimal strategy makes now.

    `hands` are the daemon's hands ({"spot3": [cards], "dealer": [cards]}): the decision is
    taken from the cards the table itself dealt to the spot, not from the demo's own notes."""

    def __init__(self, decks: int = 1) -> None:
        self.decks = decks
        self._then: dict[int, str] = {}  # spot -> the second half of "play,hit" / "play,stay"

    def new_round(self) -> None:
        self._then.clear()  # a round voided between "play" and "hit" leaves nothing behind

    def decide(self, spot: int, options: Sequence[str], hands: Mapping[str, Sequence[str]]) -> str:
        if spot in self._then and self._then[spot] in options:
            return self._then.pop(spot)
        action = optimal_action(hands[f"spot{spot}"], hands["dealer"][0], self.decks)
        first, _, then = action.partition(",")
        if then:
            self._then[spot] = then
        if first not in options:
            raise ValueError(f"spot {spot}: the optimal {action!r} is not among the options {list(options)}")
        return first

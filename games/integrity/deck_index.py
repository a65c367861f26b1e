"""Cards as small integers for the integrity checks, and the factory successor of each card.

A deck kind's cards are numbered by their place in `DeckKind.cards` (suit-major, ranks
ascending, the pai gow joker last), so an identity fits in a byte and a shoe's composition is
a list of copies by number. The factory successor relation is what a new deck shows in every
manufacturer's order: within one suit (element), the rank one higher (ascending) or one lower
(descending). The joker has none.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from games.cards import Card, DeckKind


@dataclass(frozen=True)
class DeckIndex:
    kind: DeckKind
    cards: tuple[Card, ...]  # number -> card
    number: Mapping[Card, int]  # card -> number
    up: tuple[int | None, ...]  # number -> the same suit's next rank up (None: a King/Fuk, the joker)
    down: tuple[int | None, ...]  # number -> the same suit's next rank down (None: an Ace, the joker)

    def __len__(self) -> int:
        return len(self.cards)

    def numbers(self, cards: Iterable[Card | None]) -> list[int | None]:
        """Each card's number; None (an unread card) stays None. KeyError: not of this kind."""
        return [None if card is None else self.number[card] for card in cards]

    def composition(self, decks: int) -> list[int]:
        """Copies of each card in a full shoe of `decks` decks."""
        if decks < 1:
            raise ValueError(f"deck count must be at least 1, got {decks}")
        return [decks] * len(self.cards)


@cache
def deck_index(kind: DeckKind) -> DeckIndex:
    cards = kind.cards
    number = {card: n for n, card in enumerate(cards)}

    def neighbour(card: Card, step: int) -> int | None:
        if card.is_joker:
            return None
        return number.get(Card(card.rank + step, card.suit)) if 1 <= card.rank + step <= 13 else None

    return DeckIndex(kind, cards, number,
                     tuple(neighbour(c, 1) for c in cards), tuple(neighbour(c, -1) for c in cards))


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): ordered draws of k of n distinct cards."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def sequence_ways(sequence: Sequence[int], composition: Sequence[int]) -> int:
    """How many ordered draws of physical cards from `composition` show the identities
    `sequence`: the product of the copies still there of each card as it comes. Divided by
    falling(N, len(sequence)) it is the probability that a fair shuffle puts `sequence` at
    any given run of positions (every position is alike under a uniform shuffle)."""
    taken: dict[int, int] = {}
    ways = 1
    for x in sequence:
        before = taken.get(x, 0)
        ways *= composition[x] - before
        if not ways:
            return 0
        taken[x] = before + 1
    return ways

"""Shoes for the integrity tests: factory orders of every deck kind, fair shuffles, a tiny deck."""
from __future__ import annotations

import random

from games.cards import ELEMENTS, JOKER, Card, DeckKind
from games.integrity.deck_index import DeckIndex

# (deck kind, decks, cards a shoe/deck deals): the 8-deck shoes of the baccarat games, and the
# deck-per-round games' decks with one spot (fubacc: 2 packets of 3; paigow: 2 packets of 7)
SHOES = {
    "standard52x8": (DeckKind.STANDARD52, 8, None),
    "element65x8": (DeckKind.ELEMENT65, 8, None),
    "fubacc52": (DeckKind.STANDARD52, 1, 6),
    "paigow53": (DeckKind.PAIGOW53, 1, 14),
}


def suit_run(suit: str, descending: bool) -> list[Card]:
    ranks = range(13, 0, -1) if descending else range(1, 14)
    return [Card(rank, suit) for rank in ranks]


def factory_decks(kind: DeckKind) -> dict[str, list[Card]]:
    """New-deck orders of one deck of `kind`, as manufacturers pack them."""
    if kind is DeckKind.ELEMENT65:
        return {
            "elements ascending": [c for e in ELEMENTS for c in suit_run(e, False)],
            "elements descending": [c for e in ELEMENTS for c in suit_run(e, True)],
            "alternating": [c for n, e in enumerate(ELEMENTS) for c in suit_run(e, n % 2 == 1)],
        }
    orders = {
        "all ascending": [c for s in "shdc" for c in suit_run(s, False)],
        "all descending": [c for s in "cdhs" for c in suit_run(s, True)],
        # the common US new-deck order: A-K spades, A-K diamonds, K-A clubs, K-A hearts
        "new deck order": suit_run("s", False) + suit_run("d", False) + suit_run("c", True) + suit_run("h", True),
    }
    if kind is DeckKind.PAIGOW53:
        orders = {name: cards + [JOKER] for name, cards in orders.items()}
        orders["joker on top"] = [JOKER] + [c for s in "shdc" for c in suit_run(s, False)]
    return orders


def fair_shoe(kind: DeckKind, decks: int, rng: random.Random) -> list[Card]:
    cards = list(kind.cards) * decks
    rng.shuffle(cards)
    return cards


def tiny_index(suits: str = "sh", ranks: int = 4) -> DeckIndex:
    """A made-up deck small enough to enumerate every order: `suits` x ranks 1..`ranks`."""
    cards = tuple(Card(r, s) for s in suits for r in range(1, ranks + 1))
    number = {c: n for n, c in enumerate(cards)}
    up = tuple(number.get(Card(c.rank + 1, c.suit)) if c.rank < ranks else None for c in cards)
    down = tuple(number.get(Card(c.rank - 1, c.suit)) if c.rank > 1 else None for c in cards)
    return DeckIndex(DeckKind.STANDARD52, cards, number, up, down)

"""Cards, deck kinds, the text notation and the numeric wire codes.

Pure data: no I/O. Every other layer names cards through this module.

Ranks are integers 1..13 in every deck kind (1 = Ace). In the standard deck
11, 12, 13 are J, Q, K; in the five-element deck 10 is the Ten and 11, 12, 13
are Sau (S), Luk (L) and Fuk (F). The joker has rank 0.

Text notation (case-insensitive on input; `str(card)` gives the canonical form):
  standard   rank A 2..9 T J Q K (``10`` accepted for T) + suit s h d c:  As, Td, 10d
  joker      JK
  element    rank A 2..9 10 S L F (``T`` accepted for 10) + ``-`` + element,
             in full or by its first two letters: 4-gold, S-fire, 10-water, 4-go, F-wa

Wire codes (uint16, what a shoe sends; see firmware_bridge/PROTOCOL.md):
  0x0000                      no read (misread)
  0x01SR  standard card       S = suit index (s=0 h=1 d=2 c=3), R = rank 1..13 (hex)
  0x0140  joker
  0x02ER  five-element card   E = element (fire=0 gold=1 earth=2 wood=3 water=4), R = rank
Any other value is not a card of any kind we know.
"""
from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

STANDARD_SUITS = ("s", "h", "d", "c")
ELEMENTS = ("fire", "gold", "earth", "wood", "water")
JOKER_SUIT = "joker"

STANDARD_RANK_LETTERS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
ELEMENT_RANK_LETTERS = {1: "A", 10: "10", 11: "S", 12: "L", 13: "F"}

NO_READ_CODE = 0x0000
STANDARD_CODE_BASE = 0x0100
JOKER_CODE = 0x0140
ELEMENT_CODE_BASE = 0x0200


class CardError(ValueError):
    """A card token or wire code that names no card. ``token`` is the bad input."""

    def __init__(self, token: object, reason: str):
        self.token = token
        self.reason = reason
        super().__init__(f"{token!r}: {reason}")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    rank: int  # 0 (joker), 1 (Ace) .. 13
    suit: str  # one of STANDARD_SUITS, ELEMENTS or JOKER_SUIT

    def __post_init__(self) -> None:
        if self.suit == JOKER_SUIT:
            if self.rank != 0:
                raise CardError(self, "the joker has rank 0")
        elif self.suit in STANDARD_SUITS or self.suit in ELEMENTS:
            if not 1 <= self.rank <= 13:
                raise CardError(self, "rank must be 1..13")
        else:
            raise CardError(self, f"unknown suit {self.suit!r}")

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER_SUIT

    @property
    def is_element(self) -> bool:
        return self.suit in ELEMENTS

    @property
    def point(self) -> int:
        """Baccarat point value: A=1, 2..9 face, tens and pictures 0."""
        return self.rank if self.rank < 10 else 0

    @property
    def code(self) -> int:
        """The uint16 wire code of this card."""
        return _CODE_OF[self.rank, self.suit]  # every valid card is in the table (__post_init__)

    def __str__(self) -> str:
        return _TEXT_OF[self.rank, self.suit]  # looked up: a card is named several times per deal

    def __repr__(self) -> str:
        return f"Card({self})"


JOKER = Card(0, JOKER_SUIT)


class DeckKind(enum.Enum):
    STANDARD52 = "standard52"
    PAIGOW53 = "paigow53"
    ELEMENT65 = "element65"

    @property
    def cards(self) -> tuple[Card, ...]:
        """One deck of this kind, in a fixed order (suit-major)."""
        return _DECKS[self]

    def contains(self, card: Card) -> bool:
        return card in _DECK_SETS[self]

    def shoe(self, decks: int) -> Counter[Card]:
        """The full composition of a shoe of ``decks`` decks: card -> copies."""
        if decks < 1:
            raise ValueError(f"deck count must be at least 1, got {decks}")
        return Counter({card: decks for card in self.cards})


_STANDARD = tuple(Card(r, s) for s in STANDARD_SUITS for r in range(1, 14))
_DECKS = {
    DeckKind.STANDARD52: _STANDARD,
    DeckKind.PAIGOW53: _STANDARD + (JOKER,),
    DeckKind.ELEMENT65: tuple(Card(r, e) for e in ELEMENTS for r in range(1, 14)),
}
_DECK_SETS = {kind: frozenset(cards) for kind, cards in _DECKS.items()}


def _code(card: Card) -> int:
    if card.is_joker:
        return JOKER_CODE
    if card.is_element:
        return ELEMENT_CODE_BASE | (ELEMENTS.index(card.suit) << 4) | card.rank
    return STANDARD_CODE_BASE | (STANDARD_SUITS.index(card.suit) << 4) | card.rank


def _text(card: Card) -> str:
    if card.is_joker:
        return "JK"
    if card.is_element:
        return f"{ELEMENT_RANK_LETTERS.get(card.rank, str(card.rank))}-{card.suit}"
    return f"{STANDARD_RANK_LETTERS.get(card.rank, str(card.rank))}{card.suit}"


# Every card there is, once: a card decoded from the wire is one of these instances (no
# construction per card, and a lookup keyed by it in a shoe's counts finds it by identity).
_EVERY_CARD = (*_STANDARD, JOKER, *_DECKS[DeckKind.ELEMENT65])
_CODE_OF = {(card.rank, card.suit): _code(card) for card in _EVERY_CARD}
_TEXT_OF = {(card.rank, card.suit): _text(card) for card in _EVERY_CARD}
_CARD_OF_CODE = {_code(card): card for card in _EVERY_CARD}

_SUIT_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_STANDARD_RE = re.compile(r"^(10|[2-9]|[atjqk])([shdc])$", re.IGNORECASE)
_ELEMENT_RE = re.compile(r"^(10|[2-9]|[atslf])-([a-z]+)$", re.IGNORECASE)
_RANK_BY_LETTER = {"a": 1, "t": 10, "10": 10, "j": 11, "q": 12, "k": 13}
_ELEMENT_RANK_BY_LETTER = {"a": 1, "t": 10, "10": 10, "s": 11, "l": 12, "f": 13}


def _element_named(word: str) -> str | None:
    word = word.lower()
    for element in ELEMENTS:
        if word == element or word == element[:2]:
            return element
    return None


def parse_card(token: str) -> Card:
    """Parse one card in the text notation; raises CardError naming the token."""
    if not isinstance(token, str) or not token.strip():
        raise CardError(token, "empty card token")
    text = token.strip()
    if text.lower() in ("jk", "joker"):
        return JOKER
    if text[-1:] in _SUIT_SYMBOLS:
        text = text[:-1] + _SUIT_SYMBOLS[text[-1]]
    match = _STANDARD_RE.match(text)
    if match:
        rank_text, suit = match.group(1).lower(), match.group(2).lower()
        rank = _RANK_BY_LETTER.get(rank_text) or int(rank_text)
        return Card(rank, suit)
    match = _ELEMENT_RE.match(text)
    if match:
        element = _element_named(match.group(2))
        if element is None:
            raise CardError(token, f"unknown element {match.group(2)!r} (fire, gold, earth, wood, water)")
        rank_text = match.group(1).lower()
        rank = _ELEMENT_RANK_BY_LETTER.get(rank_text) or int(rank_text)
        return Card(rank, element)
    raise CardError(token, "not a card (e.g. As, Td, 10h, JK, 4-gold, S-fire)")


def parse_cards(tokens: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in tokens]


def card_from_code(code: int) -> Card:
    """Decode a wire code; raises CardError for the no-read code and for unknown codes."""
    if isinstance(code, int) and (card := _CARD_OF_CODE.get(code)) is not None:
        return card
    if not isinstance(code, int) or not 0 <= code <= 0xFFFF:
        raise CardError(code, "card code must be a uint16")
    if code == NO_READ_CODE:
        raise CardError(code, "no read (the shoe could not read the card)")
    if code == JOKER_CODE:
        return JOKER
    base, high, rank = code & 0xFF00, (code >> 4) & 0xF, code & 0xF
    if base == STANDARD_CODE_BASE and high < len(STANDARD_SUITS) and 1 <= rank <= 13:
        return Card(rank, STANDARD_SUITS[high])
    if base == ELEMENT_CODE_BASE and high < len(ELEMENTS) and 1 <= rank <= 13:
        return Card(rank, ELEMENTS[high])
    raise CardError(f"0x{code:04x}", "unknown card code")


def deck_kind_of(card: Card) -> DeckKind:
    """The narrowest deck kind the card belongs to."""
    if card.is_joker:
        return DeckKind.PAIGOW53
    return DeckKind.ELEMENT65 if card.is_element else DeckKind.STANDARD52

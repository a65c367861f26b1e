"""Pai gow hand values: the five-card high hand (§3.9) and the two-card low hand (§3.10).

A hand's value is one int, so hands compare with `<` / `==` (a copy hand is `==`, and
the dealer wins copies, §3.15). Layout of a high value: category << 20, then up to five
rank nibbles in the order they are compared (pairs before kickers, a straight by its top).

The joker (rulings 18-20, §1.1.7) is wild only to complete a straight or a flush
(straight flush, royal flush); otherwise it is an Ace. In a flush it takes the highest rank
of that suit not already held (the usual casino rule; docs/paigow.md). Four aces and the
joker are Five Aces. A-2-3-4-5 is the lowest straight (ruling 18).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from games.cards import JOKER, STANDARD_SUITS, Card

# high-hand categories, lowest first (§3.9)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL_FLUSH, FIVE_ACES = range(11)
CATEGORY_NAMES = (
    "High Card", "Pair", "Two Pair", "Three of a Kind", "Straight", "Flush", "Full House",
    "Four of a Kind", "Straight Flush", "Royal Flush", "Five Aces",
)
STRAIGHT_OR_BETTER_DRAWS = frozenset({STRAIGHT, FLUSH, STRAIGHT_FLUSH, ROYAL_FLUSH})

ACE = 14
JOKER_SUIT = -1  # the joker belongs to no suit


def _value(card: Card) -> int:
    return ACE if card.rank in (0, 1) else card.rank


# card -> (value 2..14, suit index 0..3 or JOKER_SUIT); the joker's value is the Ace's
CARD_INFO: dict[Card, tuple[int, int]] = {
    Card(rank, suit): (_value(Card(rank, suit)), index)
    for index, suit in enumerate(STANDARD_SUITS) for rank in range(1, 14)
}
CARD_INFO[JOKER] = (ACE, JOKER_SUIT)


def rank_bits(value: int) -> int:
    """The bit(s) a rank sets in a straight mask: the Ace also plays low (bit 1)."""
    return (1 << value) | 2 if value == ACE else 1 << value


# (top, mask) for every five-rank run, highest first; the wheel A-2-3-4-5 has top 5
WINDOWS = tuple((top, 0b11111 << (top - 4)) for top in range(ACE, 4, -1))


def straight_top(mask: int, wild: bool) -> int:
    """The top of the best straight the rank mask makes (the joker filling one gap); 0 if none."""
    need = 4 if wild else 5
    for top, window in WINDOWS:
        if (mask & window).bit_count() >= need:
            return top
    return 0


def _pack(ranks: Sequence[int]) -> int:
    packed = 0
    for rank in ranks:
        packed = (packed << 4) | rank
    return packed << 4 * (5 - len(ranks))


def _grouped_value(values: Iterable[int]) -> int:
    """Value of five cards with no straight or flush: pairs, trips, quads, kickers."""
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    order = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    shape = [counts[v] for v in order]
    if shape[0] == 4:
        category = QUADS
    elif shape[0] == 3:
        category = FULL_HOUSE if shape[1] == 2 else TRIPS
    elif shape[0] == 2:
        category = TWO_PAIR if shape[1] == 2 else PAIR
    else:
        category = HIGH_CARD
    return category << 20 | _pack(order)


def _made_value(values: list[int], suited: bool, wild: bool) -> int:
    """The best straight / flush / straight flush of four or five natural cards (+ joker); 0 if none."""
    mask = 0
    for v in values:
        mask |= rank_bits(v)
    distinct = len(set(values)) == len(values)
    top = straight_top(mask, wild) if distinct else 0
    if suited and top:
        return (ROYAL_FLUSH if top == ACE else STRAIGHT_FLUSH) << 20 | top << 16
    if suited:
        ranks = sorted(values, reverse=True)
        if wild:  # the joker is the highest rank of the suit not held
            missing = max(v for v in range(ACE, 1, -1) if v not in values)
            ranks = sorted(ranks + [missing], reverse=True)
        return FLUSH << 20 | _pack(ranks)
    if top:
        return STRAIGHT << 20 | top << 16
    return 0


def high_value(cards: Iterable[Card]) -> int:
    """The value of a five-card high hand (§3.9); compare values with < and ==."""
    return info_high_value([CARD_INFO[card] for card in cards])


def info_high_value(infos: Iterable[tuple[int, int]]) -> int:
    """high_value over CARD_INFO tuples (the House Way's hot path: no Card hashing)."""
    values: list[int] = []
    suits: set[int] = set()
    wild = False
    for value, suit in infos:
        if suit == JOKER_SUIT:
            wild = True
        else:
            values.append(value)
            suits.add(suit)
    if len(values) + wild != 5:
        raise ValueError(f"a high hand has five cards, not {len(values) + wild}")
    if wild:
        if values.count(ACE) == 4:
            return FIVE_ACES << 20 | ACE << 16
        as_ace = _grouped_value(values + [ACE])
        return max(as_ace, _made_value(values, len(suits) == 1, True))
    made = _made_value(values, len(suits) == 1, False)
    return made or _grouped_value(values)


def low_value(cards: Iterable[Card]) -> int:
    """The value of a two-card low hand (§3.10): a pair, else the two ranks high first.
    The joker is an Ace here (it cannot complete anything in two cards)."""
    first, second = (CARD_INFO[c][0] for c in cards)
    return info_low_value(first, second)


def info_low_value(first: int, second: int) -> int:
    if first == second:
        return 1 << 8 | first << 4 | first
    return max(first, second) << 4 | min(first, second)


def category(high: int) -> int:
    return high >> 20


def is_foul(high: int, low: int) -> bool:
    """§1.1.4 / §3.7.2: the two-card hand ranks higher than the five-card hand.
    A low pair needs a high pair at least as high; a low of two singles needs a high hand
    whose top two cards are at least as high. Equal is not a foul ("equal or higher")."""
    kind = high >> 20
    if kind >= TWO_PAIR:
        return False
    low_pair = low >> 8
    if kind == PAIR:
        return bool(low_pair) and (low >> 4 & 15) > (high >> 16 & 15)
    return bool(low_pair) or (low & 0xFF) > (high >> 12 & 0xFF)


# ---------------------------------------------------------------- names


RANK_NAMES = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"}


def rank_name(value: int) -> str:
    return RANK_NAMES.get(value, str(value))


def _ranks_of(high: int, count: int) -> list[int]:
    return [high >> (16 - 4 * i) & 15 for i in range(count)]


def describe_high(high: int) -> str:
    """A dealer-readable name: "Full House, Ks over 2s", "Straight, 5 high"."""
    kind = high >> 20
    ranks = [rank_name(r) for r in _ranks_of(high, 5)]
    name = CATEGORY_NAMES[kind]
    if kind in (STRAIGHT, STRAIGHT_FLUSH):
        return f"{name}, {ranks[0]} high"
    if kind in (FIVE_ACES, ROYAL_FLUSH):
        return name
    if kind in (QUADS, TRIPS):
        return f"{name}, {ranks[0]}s"
    if kind == FULL_HOUSE:
        return f"{name}, {ranks[0]}s over {ranks[1]}s"
    if kind == TWO_PAIR:
        return f"{name}, {ranks[0]}s and {ranks[1]}s"
    if kind == PAIR:
        return f"Pair of {ranks[0]}s"
    return f"{name}, {'-'.join(ranks)}"


def describe_low(low: int) -> str:
    first, second = rank_name(low >> 4 & 15), rank_name(low & 15)
    return f"Pair of {first}s" if low >> 8 else f"{first}-{second}"


def best_high_value(cards: Iterable[Card]) -> int:
    """The best five-card hand among any number of cards (used by tests and the bonus reference)."""
    return max(high_value(five) for five in combinations(cards, 5))

"""Fortune Bonus (§4.1.2) and Envy Bonus (§3.18): what seven cards make, whatever the setting.

Ruling 19: the Fortune Bonus is judged on the best use of all seven cards, whatever the
player's setting, fouled hands included; the highest-paying line wins (so three of a kind,
3 to 1, beats a straight, 2 to 1, as the pay table orders them).

The seven cards are read as flags (what they can make) by two pure functions that the exact
count (games/paigow/bonus_count.py) shares: `rank_flags` (from rank counts alone) and
`suit_flags` (from the one suit holding five, or four with the joker: in seven cards at most
one suit can).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.cards import Card
from games.paigow.hands import ACE, CARD_INFO, JOKER_SUIT, WINDOWS, rank_bits

# flags: one bit per thing seven cards can make
(PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL_FLUSH, FIVE_ACES,
 SEVEN_SF_JOKER, ROYAL_MATCH, SEVEN_SF) = (1 << i for i in range(13))

# §4.1.2, highest pay first: (outcome key, flag, pays N to 1, envy $ for the other players)
FORTUNE_TABLE = (
    ("seven_card_straight_flush", SEVEN_SF, 2500, 250),
    ("royal_match", ROYAL_MATCH, 1000, 50),
    ("seven_card_straight_flush_with_joker", SEVEN_SF_JOKER, 500, 0),
    ("five_aces", FIVE_ACES, 250, 0),
    ("royal_flush", ROYAL_FLUSH, 100, 0),
    ("straight_flush", STRAIGHT_FLUSH, 50, 0),
    ("four_of_a_kind", QUADS, 20, 0),
    ("full_house", FULL_HOUSE, 5, 0),
    ("flush", FLUSH, 4, 0),
    ("three_of_a_kind", TRIPS, 3, 0),
    ("straight", STRAIGHT, 2, 0),
)
ENVY = {outcome: envy for outcome, _, _, envy in FORTUNE_TABLE if envy}
SEVEN_CARD_SF = "seven_card_straight_flush"
ROYAL_MATCH_OUTCOME = "royal_match"

# the best five-card hand, poker order (§3.9), for checking counts against published tables
POKER_ORDER = (
    ("five_aces", FIVE_ACES), ("straight_flush", STRAIGHT_FLUSH | ROYAL_FLUSH), ("four_of_a_kind", QUADS),
    ("full_house", FULL_HOUSE), ("flush", FLUSH), ("straight", STRAIGHT), ("three_of_a_kind", TRIPS),
    ("two_pair", TWO_PAIR), ("pair", PAIR),
)

ROYAL_BITS = rank_bits(ACE) & ~2 | 0b1111 << 10  # T J Q K A
KING_QUEEN = 1 << 13 | 1 << 12
SEVEN_WINDOWS = tuple(0b1111111 << low for low in range(1, 9))  # A-7 .. 8-A


def rank_flags(counts: Mapping[int, int], wild: bool) -> int:
    """What the ranks make: `counts` is value (2..14) -> natural cards held; `wild` = the joker.
    The joker counts as an Ace for pairs and better, and fills one gap of a straight."""
    aces = counts.get(ACE, 0) + wild
    shape = sorted((n for v, n in counts.items() if v != ACE and n), reverse=True)
    shape = sorted(shape + [aces], reverse=True) if aces else shape
    flags = 0
    if wild and counts.get(ACE, 0) == 4:
        flags |= FIVE_ACES
    if shape[0] >= 4:
        flags |= QUADS
    if shape[0] >= 3:
        flags |= TRIPS
        if len(shape) > 1 and shape[1] >= 2:
            flags |= FULL_HOUSE
    if shape[0] >= 2:
        flags |= PAIR
        if len(shape) > 1 and shape[1] >= 2:
            flags |= TWO_PAIR
    mask = 0
    for value, n in counts.items():
        if n:
            mask |= rank_bits(value)
    need = 4 if wild else 5
    if any((mask & window).bit_count() >= need for _, window in WINDOWS):
        flags |= STRAIGHT
    return flags


def suit_flags(suited: int, size: int, wild: bool, king_queen_elsewhere: bool) -> int:
    """What the flush suit makes: `suited` is its rank mask (rank_bits), `size` its natural cards;
    `king_queen_elsewhere`: another suit's natural King and Queen are held (Royal Match's low)."""
    if size + wild < 5:
        return 0
    flags = FLUSH
    need = 4 if wild else 5
    if any((suited & window).bit_count() >= need for _, window in WINDOWS):
        flags |= STRAIGHT_FLUSH
    royal = (suited & ROYAL_BITS).bit_count()
    if royal + wild >= 5:
        flags |= ROYAL_FLUSH
        if king_queen_elsewhere:
            flags |= ROYAL_MATCH
    if size + wild >= 7:
        best = max((suited & w).bit_count() for w in SEVEN_WINDOWS)
        if not wild and best == 7:
            flags |= SEVEN_SF
        elif wild and best >= 6:
            flags |= SEVEN_SF_JOKER
    return flags


def seven_card_flags(cards: Iterable[Card]) -> int:
    """Everything seven cards can make (the best use of all seven, ruling 19)."""
    counts: dict[int, int] = {}
    suited = [0, 0, 0, 0]
    sizes = [0, 0, 0, 0]
    wild = False
    for card in cards:
        value, suit = CARD_INFO[card]
        if suit == JOKER_SUIT:
            wild = True
            continue
        counts[value] = counts.get(value, 0) + 1
        suited[suit] |= rank_bits(value)
        sizes[suit] += 1
    flags = rank_flags(counts, wild)
    for suit in range(4):
        if sizes[suit] + wild >= 5:
            kq = any(suited[other] & KING_QUEEN == KING_QUEEN for other in range(4) if other != suit)
            flags |= suit_flags(suited[suit], sizes[suit], wild, kq)
    return flags


def fortune_outcome_of(flags: int) -> str | None:
    """The highest-paying §4.1.2 line these flags make; None = the Fortune Bonus loses (§3.16)."""
    for outcome, flag, _, _ in FORTUNE_TABLE:
        if flags & flag:
            return outcome
    return None


def fortune_outcome(cards: Iterable[Card]) -> str | None:
    return fortune_outcome_of(seven_card_flags(cards))


def poker_category_of(flags: int) -> str:
    for name, flag in POKER_ORDER:
        if flags & flag:
            return name
    return "high_card"


def envy_for_spots(outcomes: Mapping[int, str | None], dealer_outcome: str | None) -> dict[int, tuple[int, str | None]]:
    """§3.18: the Envy Bonus each spot receives if it has a Fortune Bonus wager, in fixed money
    (ruling 21), with the §3.18.1 clause that excluded it (None when eligible).

    One payment for each other spot whose hand qualifies (a seven-card straight flush without
    joker $250, a Royal Match $50); the dealer's hand never pays Envy and, when it qualifies,
    no spot is eligible (§3.18.1.1)."""
    qualifying = {spot: ENVY[o] for spot, o in outcomes.items() if o in ENVY}
    out: dict[int, tuple[int, str | None]] = {}
    for spot, own in outcomes.items():
        others = [amount for other, amount in qualifying.items() if other != spot]
        other_seven = any(outcomes[o] == SEVEN_CARD_SF for o in qualifying if o != spot)
        if dealer_outcome in ENVY:
            out[spot] = (0, "paigow §3.18.1.1")
        elif own == SEVEN_CARD_SF:
            out[spot] = (0, "paigow §3.18.1.2")
        elif own == ROYAL_MATCH_OUTCOME and not other_seven:
            out[spot] = (0, "paigow §3.18.1.3")
        else:
            out[spot] = (sum(others), None)
    return out

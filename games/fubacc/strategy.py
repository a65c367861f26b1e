"""The Ante's optimal strategy, exact: what to do with each two-card hand against each up card.

The player sees two cards and the dealer's up card; unseen are three cards: the player's own
hit card, the dealer's hole card and the dealer's hit card, an ordered draw from the rest of
the single deck (ruling 17's packets). Every card that matters counts only by its point, and
ruling 12 makes the monkeys exactly the 0-point cards, so ten point classes replace the 52
cards: a situation is (the hand's two points, the up card's point), weighted by how many
ordered card draws give it. Each action's expectation per unit Ante (the Play is 2x) is an
exact Fraction; the strategy takes the largest, ties going to the first of ACTIONS.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from games.cards import Card, DeckKind
from games.fubacc.hands import bonus_line, dealer_draws, points_total
from games.fubacc.wagers import BONUS, FOLD, HIT, PLAY_ON, STAY, bonus_net, showdown_net

PLAY_STAY, PLAY_HIT = f"{PLAY_ON},{STAY}", f"{PLAY_ON},{HIT}"
ACTIONS = (BONUS, PLAY_STAY, PLAY_HIT, FOLD)  # also the tie-break order
POINTS = range(10)
_NET = [[showdown_net(p, d) for d in POINTS] for p in POINTS]


def point_counts(decks: int) -> tuple[int, ...]:
    """How many cards of each point 0..9 the shoe holds (0-point cards are the monkeys)."""
    counts = Counter(card.point for card in DeckKind.STANDARD52.cards)
    return tuple(counts[p] * decks for p in POINTS)


def point_counts_of(composition: Mapping[Card, int]) -> tuple[int, ...]:
    """How many cards of each point 0..9 a deck holding `composition` (card -> copies) has."""
    counts = [0] * 10
    for card, copies in composition.items():
        counts[card.point] += copies
    return tuple(counts)


@dataclass(frozen=True)
class Situation:
    """What the player sees, and every way the three unseen cards can fall.

    `weight`: ordered (first card, second card, up card) draws giving this hand and up card.
    `unseen`: ordered (player hit, dealer hole, dealer hit) draws from the rest of the deck.
    `stay[d]`: of those, how many leave the dealer on d. `hit[p][d]`: how many give the
    player a three-card p and the dealer d."""

    hand: tuple[int, int]  # the two points, low first
    up: int
    weight: int
    unseen: int
    stay: tuple[int, ...]
    hit: tuple[tuple[int, ...], ...]

    @property
    def total(self) -> int:
        return points_total(self.hand)

    @property
    def monkeys(self) -> bool:
        return self.hand == (0, 0)  # ruling 12: every 0-point card is a monkey

    @property
    def bonus(self) -> str | None:
        return bonus_line(self.total, self.monkeys, self.up)


@dataclass(frozen=True)
class Choice:
    situation: Situation
    action: str  # one of ACTIONS
    values: Mapping[str, Fraction]  # expectation per unit Ante of every action allowed here


def _ordered(counts: Sequence[int], a: int, b: int, u: int) -> int:
    left = list(counts)
    ways = 1
    for p in (a, b, u):
        ways *= left[p]
        left[p] -= 1
    return ways


def situation(counts: tuple[int, ...], a: int, b: int, u: int) -> Situation:
    left = list(counts)
    for p in (a, b, u):
        left[p] -= 1
    rest = sum(left)
    t = points_total((a, b))
    stay = [0] * 10
    hit = [[0] * 10 for _ in POINTS]
    for h in POINTS:
        ways_h = left[h]
        if not ways_h:
            continue
        left[h] -= 1
        mine = (t + h) % 10
        for x in POINTS:
            ways_x = ways_h * left[x]
            if not ways_x:
                continue
            left[x] -= 1
            two = (u + x) % 10
            if dealer_draws(two):
                for y in POINTS:
                    if left[y]:
                        d = (two + y) % 10
                        stay[d] += ways_x * left[y]
                        hit[mine][d] += ways_x * left[y]
            else:
                stay[two] += ways_x * (rest - 2)
                hit[mine][two] += ways_x * (rest - 2)
            left[x] += 1
        left[h] += 1
    weight = _ordered(counts, a, b, u) * (1 if a == b else 2)
    return Situation((a, b), u, weight, rest * (rest - 1) * (rest - 2), tuple(stay), tuple(map(tuple, hit)))


def action_values(s: Situation) -> dict[str, Fraction]:
    """Expectation per unit Ante of each action the rules allow in `s`."""
    values = {}
    if s.bonus:
        values[BONUS] = bonus_net(s.bonus)
    values[PLAY_STAY] = Fraction(sum(n * _NET[s.total][d] for d, n in enumerate(s.stay)), s.unseen)
    values[PLAY_HIT] = Fraction(
        sum(n * _NET[p][d] for p, row in enumerate(s.hit) for d, n in enumerate(row)), s.unseen)
    values[FOLD] = Fraction(-1)
    return values


def choose(s: Situation) -> Choice:
    values = action_values(s)
    best = max(values.values())
    return Choice(s, next(a for a in ACTIONS if values.get(a) == best), values)


def optimal_strategy(decks: int = 1) -> tuple[Choice, ...]:
    """The optimal choice in every situation (two-card hand, low point first; up card)."""
    return optimal_strategy_for(point_counts(decks))


@lru_cache(maxsize=8)
def optimal_strategy_for(counts: tuple[int, ...]) -> tuple[Choice, ...]:
    """The same for a deck holding `counts` cards of each point 0..9 (a deck with cards
    already out: the strategy of a player who knows which); at least 6 cards."""
    if len(counts) != 10 or min(counts) < 0 or sum(counts) < 6:
        raise ValueError(f"a Fu Bacc spot needs 6 cards (hand, up card, three unseen); counts {counts!r}")
    return tuple(
        choose(situation(counts, a, b, u))
        for a in POINTS for b in POINTS if a <= b for u in POINTS
        if _ordered(counts, a, b, u)
    )

"""The exact theory of a round's wagers: what the house expects to win on them and the variance
of its net, for the shoe's composition when the round was dealt (docs/meters.md).

    theory = round_theory("fortune7", 8, composition)        # cached by composition
    theory.bets["banker"].edge                                # house's expected net per unit staked
    expected, variance, unknown = theory.of_stakes([("banker", Fraction(25)), ("player", Fraction(10))])

Per unit staked, the house's net on a wager is X = -(the bettor's net); `edge` is E[X] (the
game's house edge) and `variance` Var[X], both Fractions from the same enumeration as
`tablectl odds` and `tablectl edge` (games/live_edge.py):

  baccarat (fafa4, fortune7, fortune6): every wager is counted jointly with every other, so
    the covariance of any two is exact. The wagers settled on the finished hands over every
    Coup of the composition (games/baccarat/counting.py): Banker and Player on one round move
    against each other. A pair wager (decided by its hand's first two cards: cards 1 and 3 for
    the Player, 2 and 4 for the Banker) against them over every two cards it wins on, times
    every Coup that follows once those two are dealt (`coup_counts_given_hand`); the two
    sides' pair wagers against each other over every four initial cards.
  fubacc: one spot's Ante (its Play included, per unit of Ante, played with the optimal
    strategy for the deck), Tie and Lucky Monkey (games/fubacc/odds.py), each independent.
  paigow: the Fortune Bonus over every seven-card hand; the Standard wager is not analysed (its
    edge depends on how the player sets the hand), so it has no theory (`unknown`).

Wagers of one bet by several seats of a baccarat round are one random variable times their
total stake; wagers on different spots of a spot game are taken as independent.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache

from games.analysis import BetOdds
from games.baccarat.counting import (
    COUP_TABLE,
    composition_points,
    coup_counts,
    coup_table_given_hand,
    falling,
    total_prefixes,
)
from games.baccarat.coup import PLAYER, Coup
from games.baccarat.engine import BaccaratGame
from games.cards import Card
from games.live_edge import MIN_CARDS
from games.registry import get_edge_bets, get_game

SCALE = 10 ** 12  # `scaled`: per-unit figures kept to 12 decimal places, for sums over many rounds
CACHED_COMPOSITIONS = 512  # a shoe's rounds and more: many wagers share one round's composition


@dataclass(frozen=True)
class BetTheory:
    """One wager per unit staked: `edge` = E[house net], `variance` = Var[house net]."""

    edge: Fraction
    variance: Fraction


@dataclass(frozen=True)
class RoundTheory:
    """Every analysed wager of a game for one composition. `joint`: the bets whose covariances
    are known (`covariance[(a, b)]`, per unit, house net); all others are independent."""

    game: str
    cards_left: int
    bets: Mapping[str, BetTheory]
    joint: tuple[str, ...] = ()
    covariance: Mapping[tuple[str, str], Fraction] = field(default_factory=dict)
    spot_game: bool = False

    @cached_property
    def scaled(self) -> ScaledTheory:
        def kept(value: Fraction) -> int:
            return round(value * SCALE)
        joint = frozenset(() if self.spot_game else self.joint)
        return ScaledTheory({k: kept(b.edge) for k, b in self.bets.items()},
                            {k: kept(b.variance) for k, b in self.bets.items()}, joint,
                            {pair: kept(value) for pair, value in self.covariance.items()}, self.spot_game)

    def of_stakes(self, stakes: Iterable[tuple[int, str, Fraction]]) -> tuple[Fraction, Fraction, Fraction]:
        """(expected house net, variance of the house net, stake with no theory) of one round's
        wagers given as (seat, bet, stake), exactly."""
        sums: dict[str, list[Fraction]] = {}
        for _seat, bet, stake in stakes:
            pair = sums.get(bet) or sums.setdefault(bet, [Fraction(0), Fraction(0)])
            pair[0] += stake
            pair[1] += stake * stake
        expected, variance, unknown = Fraction(0), Fraction(0), Fraction(0)
        joint_stake: dict[str, Fraction] = {}
        for bet, (total, squares) in sums.items():
            theory = self.bets.get(bet)
            if theory is None:
                unknown += total
                continue
            expected += total * theory.edge
            if bet in self.joint and not self.spot_game:
                joint_stake[bet] = total
            else:
                variance += (squares if self.spot_game else total * total) * theory.variance
        for a, sa in joint_stake.items():
            for b, sb in joint_stake.items():
                variance += sa * sb * self.covariance[(a, b)]
        return expected, variance, unknown


@dataclass(frozen=True)
class ScaledTheory:
    """A RoundTheory's per-unit figures times SCALE, rounded to integers: a fold of many rounds
    sums integers instead of Fractions whose denominators differ from round to round."""

    edges: Mapping[str, int]
    variances: Mapping[str, int]
    joint: frozenset[str]
    covariance: Mapping[tuple[str, str], int]
    spot_game: bool

    def of_stakes(self, stakes: Iterable[tuple[str, int]]) -> tuple[int, int, int]:
        """(expected house net x SCALE, its variance x SCALE, stake with no theory) of one round's
        wagers as (bet, stake) in any integer unit u: the expectation in u, the variance in u^2."""
        sums: dict[str, list[int]] = {}
        for bet, stake in stakes:
            pair = sums.get(bet) or sums.setdefault(bet, [0, 0])
            pair[0] += stake
            pair[1] += stake * stake
        return self.of_sums(sums)

    def of_sums(self, sums: Mapping[str, Sequence[int]]) -> tuple[int, int, int]:
        """`of_stakes` from each bet's (sum of stakes, sum of their squares)."""
        expected = variance = unknown = 0
        joint_stake = {}
        for bet, (total, squares) in sums.items():
            edge = self.edges.get(bet)
            if edge is None:
                unknown += total
                continue
            expected += total * edge
            if bet in self.joint:
                joint_stake[bet] = total
            else:  # one bet at several seats of a baccarat round is one outcome; spots are their own
                variance += (squares if self.spot_game else total * total) * self.variances[bet]
        for a, sa in joint_stake.items():
            for b, sb in joint_stake.items():
                variance += sa * sb * self.covariance[(a, b)]
        return expected, variance, unknown


def _moments(odds: BetOdds) -> BetTheory:
    """House-side edge and variance per unit from a wager's outcome rows."""
    mean = -sum((o.probability * o.net for o in odds.outcomes), Fraction(0))
    square = sum((o.probability * o.net * o.net for o in odds.outcomes), Fraction(0))
    return BetTheory(mean, square - mean * mean)


def _unit_nets(game: BaccaratGame, key: str) -> dict[str | None, Fraction]:
    """Outcome -> the bettor's net per unit for a wager settled on the hands (None: a loss)."""
    nets: dict[str | None, Fraction] = {None: Fraction(-1)}
    for line in game.wagers[key].lines:
        nets[line.outcome] = Fraction(0) if line.pays is None else line.pays.ratio
    return nets


def _common(values: Iterable[Fraction]) -> int:
    """The least common denominator of `values`: sums over many counts stay integers."""
    denominator = 1
    for value in values:
        denominator = math.lcm(denominator, value.denominator)
    return denominator


class _MainWagers:
    """The wagers settled on the finished hands, their nets per unit scaled by one common
    denominator to integers, with each Coup's settlement remembered (few distinct ones)."""

    def __init__(self, game: BaccaratGame) -> None:
        self.game = game
        self.keys = tuple(key for key in game.wagers if key not in game.pair_wagers)
        nets = {key: _unit_nets(game, key) for key in self.keys}
        self.denominator = _common(net for table in nets.values() for net in table.values())
        self.nets = {key: {outcome: int(net * self.denominator) for outcome, net in table.items()}
                     for key, table in nets.items()}
        self.table = [self.values(coup) for coup in COUP_TABLE]

    def values(self, coup: Coup) -> tuple[int, ...]:
        outcomes = self.game.settle_coup(coup)
        return tuple(self.nets[key][outcomes[key]] for key in self.keys)

    @staticmethod
    def by_values(coups: Iterable[tuple[tuple[int, ...], int]]) -> dict[tuple[int, ...], int]:
        """(scaled nets, count) of many Coups summed per distinct nets."""
        summed: dict[tuple[int, ...], int] = {}
        for values, count in coups:
            if count:
                summed[values] = summed.get(values, 0) + count
        return summed

    def sums(self, coups: Iterable[tuple[tuple[int, ...], int]]) -> list[int]:
        """Sum of count x scaled net per wager over (scaled nets, count) of many Coups."""
        first = [0] * len(self.keys)
        for values, count in self.by_values(coups).items():
            for i, vi in enumerate(values):
                first[i] += count * vi
        return first

    def products(self, coups: Iterable[tuple[tuple[int, ...], int]]) -> tuple[list[int], list[list[int]]]:
        """`sums`, and the sum of count x net x net per two wagers."""
        first = [0] * len(self.keys)
        second = [[0] * len(self.keys) for _ in self.keys]
        for values, count in self.by_values(coups).items():
            for i, vi in enumerate(values):
                first[i] += count * vi
                row = second[i]
                for j, vj in enumerate(values):
                    row[j] += count * vi * vj
        return first, second


_MAIN: dict[str, _MainWagers] = {}


@dataclass(frozen=True)
class _PairWager:
    """A wager on one hand's first two cards, as U = 1 + the bettor's net per unit, times
    `denominator`: 0 when it loses, so only the two-card draws that win or push are listed.
    Cards are indices into the composition's list. `draws`: (first, second) -> (U, ordered ways
    to draw them); `by_points`: the ways times U per (first's point, second's); `by_card`: the
    draws each card is in."""

    hand: str
    denominator: int
    draws: Mapping[tuple[int, int], tuple[int, int]]
    by_points: Mapping[tuple[int, int], int]
    by_card: Mapping[int, tuple[tuple[int, int], ...]]

    def mean(self, pairs: int) -> Fraction:
        return Fraction(sum(u * w for u, w in self.draws.values()), pairs * self.denominator)


@lru_cache(maxsize=32)
def _winning_draws(game: BaccaratGame, key: str) -> tuple[int, tuple[tuple[Card, Card, int], ...]]:
    """The two cards (in order) on which a pair wager wins or pushes, with U times the common
    denominator of its nets (returned first): the same for every composition, judged once."""
    _, judge = game.pair_wagers[key]
    nets = _unit_nets(game, key)
    denominator = _common(nets.values())
    draws = []
    for first in game.deck_kind.cards:
        for second in game.deck_kind.cards:
            outcome = judge(first, second)
            if outcome is not None and (u := int((1 + nets[outcome]) * denominator)):
                draws.append((first, second, u))
    return denominator, tuple(draws)


def _pair_wager(game: BaccaratGame, key: str, index: Mapping[Card, int], copies: Sequence[int]) -> _PairWager:
    """`index`: card -> its place in `copies` (the cards the composition holds)."""
    denominator, winning = _winning_draws(game, key)
    draws: dict[tuple[int, int], tuple[int, int]] = {}
    by_points: dict[tuple[int, int], int] = {}
    by_card: dict[int, list[tuple[int, int]]] = {}
    for first, second, u in winning:
        i, j = index.get(first), index.get(second)
        if i is None or j is None or not (ways := copies[i] * (copies[j] - (i == j))):
            continue
        draws[(i, j)] = (u, ways)
        points = (first.point, second.point)
        by_points[points] = by_points.get(points, 0) + u * ways
        by_card.setdefault(i, []).append((i, j))
        if j != i:
            by_card.setdefault(j, []).append((i, j))
    return _PairWager(game.pair_wagers[key][0], denominator, draws, by_points,
                      {i: tuple(keys) for i, keys in by_card.items()})


def _pair_product(a: _PairWager, b: _PairWager, copies: Sequence[int], n: int) -> Fraction:
    """E[U_a U_b] over the initial deal: on one hand, of the same two cards; on the two hands,
    of four distinct cards (b's two drawn from what a's two leave: only b's draws that share a
    card with a's change)."""
    scale = a.denominator * b.denominator
    if a.hand == b.hand:
        same = sum(u * w * b.draws[ij][0] for ij, (u, w) in a.draws.items() if ij in b.draws)
        return Fraction(same, falling(n, 2) * scale)
    whole = sum(u * w for u, w in b.draws.values())
    total = 0
    for (i, j), (u, w) in a.draws.items():
        inner = whole
        for cd in {*b.by_card.get(i, ()), *b.by_card.get(j, ())}:
            c, d = cd
            left_c = copies[c] - (c == i) - (c == j)
            left_d = copies[d] - (d == i) - (d == j) - (c == d)
            ub, wb = b.draws[cd]
            inner -= ub * (wb - left_c * left_d)
        total += u * w * inner
    return Fraction(total, falling(n, 4) * scale)


def _baccarat(game: BaccaratGame, composition: Mapping[Card, int]) -> RoundTheory:
    """Every wager counted jointly: the main wagers over every Coup, each pair wager against
    them over every Coup that follows its hand's first two points, the pair wagers against each
    other over every initial deal of their cards. Covariances of the house's net, per unit."""
    points = composition_points(composition)
    n = sum(points)
    main = _MAIN.get(game.key) or _MAIN.setdefault(game.key, _MainWagers(game))
    keys, scale = main.keys, main.denominator
    first, second = main.products((main.values(coup), count) for coup, count in coup_counts(points).items())
    total = total_prefixes(points)
    mean = {a: Fraction(first[i], total * scale) for i, a in enumerate(keys)}
    covariance = {(a, b): Fraction(second[i][j], total * scale * scale) - mean[a] * mean[b]
                  for i, a in enumerate(keys) for j, b in enumerate(keys)}
    cards = [card for card in game.deck_kind.cards if composition.get(card, 0) > 0]
    copies = [composition[card] for card in cards]
    index = {card: i for i, card in enumerate(cards)}
    pairs = {key: _pair_wager(game, key, index, copies) for key in game.pair_wagers}
    pair_mean = {key: wager.mean(falling(n, 2)) for key, wager in pairs.items()}
    rest = falling(n - 2, 4)
    for key, wager in pairs.items():  # E[V_a U_k]: over the hand's first two points, E[V_a | them]
        together = [0] * len(keys)
        for (p1, p2), weight in wager.by_points.items():
            given = main.sums(zip(main.table, coup_table_given_hand(points, wager.hand == PLAYER, p1, p2), strict=True))
            for i, value in enumerate(given):
                together[i] += weight * value
        for i, a in enumerate(keys):  # the house's nets are -V: Cov(-V_a, -(U_k - 1)) = Cov(V_a, U_k)
            expected = Fraction(together[i], falling(n, 2) * rest * scale * wager.denominator)
            covariance[(a, key)] = covariance[(key, a)] = expected - mean[a] * pair_mean[key]
    for a, wager_a in pairs.items():
        for b, wager_b in pairs.items():
            if (b, a) in covariance:
                covariance[(a, b)] = covariance[(b, a)]
            else:
                product = _pair_product(wager_a, wager_b, copies, n)
                covariance[(a, b)] = product - pair_mean[a] * pair_mean[b]
    bets = {key: BetTheory(-mean[key], covariance[(key, key)]) for key in keys}
    for key in pairs:
        bets[key] = BetTheory(1 - pair_mean[key], covariance[(key, key)])
    return RoundTheory(game.key, n, {k: bets[k] for k in game.wagers}, tuple(game.wagers), covariance)


@lru_cache(maxsize=CACHED_COMPOSITIONS)
def _cached(game_key: str, decks: int, composition: tuple[tuple[Card, int], ...]) -> RoundTheory:
    left = dict(composition)
    game = get_game(game_key)
    if isinstance(game, BaccaratGame):
        return _baccarat(game, left)
    bets, _ = get_edge_bets(game_key, left, decks)
    return RoundTheory(game_key, sum(left.values()), {key: _moments(odds) for key, odds in bets.items()},
                       spot_game=True)


def round_theory(game_key: str, decks: int, composition: Mapping[Card, int]) -> RoundTheory:
    """The theory of a round dealt from `composition` (card -> copies left). ValueError when
    fewer cards are left than a round needs."""
    size = sum(composition.values())
    if size < MIN_CARDS:
        raise ValueError(f"{size} card(s) left: a round needs at least {MIN_CARDS}")
    key = tuple(sorted(((card, n) for card, n in composition.items() if n > 0), key=lambda item: str(item[0])))
    return _cached(game_key, decks, key)


@lru_cache(maxsize=16)
def full_shoe_theory(game_key: str, decks: int) -> RoundTheory:
    """The theory of a round dealt from a full shoe of `decks` decks."""
    return round_theory(game_key, decks, get_game(game_key).deck_kind.shoe(decks))

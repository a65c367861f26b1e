"""The exact theory of a round's wagers: what the house expects to win on them and the variance
of its net, for the shoe's composition when the round was dealt (docs/meters.md).

    theory = round_theory("fortune7", 8, composition)        # cached by composition
    theory.bets["banker"].edge                                # house's expected net per unit staked
    expected, variance, unknown = theory.of_stakes([("banker", Fraction(25)), ("player", Fraction(10))])

Per unit staked, the house's net on a wager is X = -(the bettor's net); `edge` is E[X] (the
game's house edge) and `variance` Var[X], both Fractions from the same enumeration as
`tablectl odds` and `tablectl edge` (games/live_edge.py):

  baccarat (fafa4, fortune7, fortune6): the wagers settled on the finished hands are counted
    jointly over every Coup of the composition (games/baccarat/counting.py), so the covariance
    of any two of them is exact (Banker and Player on one round move against each other); the
    pair wagers over every ordered pair of the composition, each taken as independent of the
    other wagers (their covariance with the hands is not enumerated).
  fubacc: one spot's Ante (its Play included, per unit of Ante, played with the optimal
    strategy for the deck), Tie and Lucky Monkey (games/fubacc/odds.py), each independent.
  paigow: the Fortune Bonus over every seven-card hand; the Standard wager is not analysed (its
    edge depends on how the player sets the hand), so it has no theory (`unknown`).

Wagers of one bet by several seats of a baccarat round are one random variable times their
total stake; wagers on different spots of a spot game are taken as independent.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache

from games.analysis import BetOdds
from games.baccarat.counting import composition_points, coup_counts, total_prefixes
from games.baccarat.engine import BaccaratGame
from games.baccarat.odds import pair_bet_odds_for
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


def _baccarat(game: BaccaratGame, composition: Mapping[Card, int]) -> RoundTheory:
    points = composition_points(composition)
    main = tuple(key for key in game.wagers if key not in game.pair_wagers)
    nets = {key: _unit_nets(game, key) for key in main}
    by_outcomes: dict[tuple[str | None, ...], int] = {}  # few distinct settlements: sum counts first
    for coup, count in coup_counts(points).items():
        outcomes = game.settle_coup(coup)
        settled = tuple(outcomes[key] for key in main)
        by_outcomes[settled] = by_outcomes.get(settled, 0) + count
    first = dict.fromkeys(main, Fraction(0))
    second = {(a, b): Fraction(0) for a in main for b in main}
    total = total_prefixes(points)
    for settled, count in by_outcomes.items():
        values = {key: nets[key][outcome] for key, outcome in zip(main, settled, strict=True)}
        for a in main:
            first[a] += count * values[a]
            for b in main:
                second[(a, b)] += count * values[a] * values[b]
    mean = {key: first[key] / total for key in main}
    covariance = {(a, b): second[(a, b)] / total - mean[a] * mean[b] for a in main for b in main}
    bets = {key: BetTheory(-mean[key], covariance[(key, key)]) for key in main}
    for key, (_, judge) in game.pair_wagers.items():
        bets[key] = _moments(pair_bet_odds_for(game, key, key, judge, composition))
    return RoundTheory(game.key, sum(composition.values()), {k: bets[k] for k in game.wagers}, main, covariance)


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

"""The exact theory of wagers (games/money/theory.py) against the odds engine and against a
seeded simulation: rounds dealt at random from the same composition, whose sample mean and
variance of the house's net must lie within a few standard errors of the exact figures."""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from games.baccarat.counting import coup_counts, coup_counts_given_hand, falling
from games.cards import Card, parse_card
from games.fubacc.hands import lucky_monkey_line
from games.fubacc.wagers import LUCKY_MONKEY
from games.live_edge import cards_left
from games.money.theory import full_shoe_theory, round_theory
from games.registry import get_game, get_odds
from games.round import Complete, Deal, win

ROUNDS = 30_000
SE_LIMIT = 4.5  # standard errors: a seeded run, far from a flaky bound


def _deal(game_key: str, deck: list[Card], rng: random.Random) -> dict[str, Fraction]:
    """One round dealt from a random order of `deck`: the bettor's net per unit of every bet."""
    game = get_game(game_key)
    cards = rng.sample(deck, 6)
    state = game.start(None, ())
    while isinstance(step := game.next_step(state), Deal):
        state = game.with_card(state, cards[len(state.cards)])
    assert isinstance(step, Complete)
    return {key: bet.net(1) for key, bet in game.result(state).bets.items()}


def _check(samples: list[float], mean: Fraction, variance: Fraction) -> None:
    n = len(samples)
    m = sum(samples) / n
    centred = [x - m for x in samples]
    var = sum(c * c for c in centred) / (n - 1)
    fourth = sum(c ** 4 for c in centred) / n
    assert abs(m - float(mean)) <= SE_LIMIT * math.sqrt(var / n), (m, float(mean))
    assert abs(var - float(variance)) <= SE_LIMIT * math.sqrt((fourth - var * var) / n), (var, float(variance))


def test_edges_are_the_odds_engines() -> None:
    for game, decks in (("fortune7", 8), ("fafa4", 8), ("fortune6", 8), ("fubacc", 1)):
        theory, odds = full_shoe_theory(game, decks), get_odds(game, decks)
        shared = [key for key in odds.bets if key in theory.bets]
        assert shared
        for key in shared:
            assert theory.bets[key].edge == odds.bets[key].house_edge, (game, key)


def test_a_variance_from_its_outcome_rows() -> None:
    """Fortune 7's Banker: the house's net per unit is +1, 0 or -1 (pays 1:1 without commission,
    a push on a three-card 7): its variance is P(not push) less the edge squared."""
    odds = get_odds("fortune7", 8).bets["banker"]
    push = sum((o.probability for o in odds.outcomes if o.net == 0), Fraction(0))
    theory = full_shoe_theory("fortune7", 8).bets["banker"]
    assert theory.variance == 1 - push - theory.edge ** 2


@pytest.mark.parametrize("game_key, bets, out", [
    ("fortune7", ("banker", "player", "tie", "fortune7", "one_up"), 0),
    ("fortune6", ("banker", "player_pair", "banker_pair", "fortune6"), 150),
])
def test_variance_against_simulation(game_key: str, bets: tuple[str, ...], out: int) -> None:
    rng = random.Random(20261126 + out)
    game = get_game(game_key)
    shoe = list(game.deck_kind.cards) * 8
    rng.shuffle(shoe)
    left = cards_left(game_key, 8, shoe[:out])  # a composition part-way through a shoe
    deck = [card for card, n in left.items() for _ in range(n)]
    theory = round_theory(game_key, 8, left)
    rounds = [_deal(game_key, deck, rng) for _ in range(ROUNDS)]
    for bet in bets:
        _check([-float(r[bet]) for r in rounds], theory.bets[bet].edge, theory.bets[bet].variance)
    # a round's wagers together: 25 on Banker at two seats and 10 on Player, covariance included
    stakes = [(1, bets[0], Fraction(25)), (2, bets[0], Fraction(25)), (3, "player", Fraction(10))]
    expected, variance, unknown = theory.of_stakes(stakes)
    assert unknown == 0
    _check([-float(sum(s * r[b] for _, b, s in stakes)) for r in rounds], expected, variance)
    if game.pair_wagers:  # Banker with both pair wagers: their covariances with it and each other
        stakes = [(1, "banker", Fraction(25)), (1, "player_pair", Fraction(5)), (2, "banker_pair", Fraction(5)),
                  (2, "player", Fraction(10))]
        expected, variance, _ = theory.of_stakes(stakes)
        _check([-float(sum(s * r[b] for _, b, s in stakes)) for r in rounds], expected, variance)


def test_player_and_banker_move_against_each_other() -> None:
    theory = full_shoe_theory("fortune7", 8)
    _, hedged, _ = theory.of_stakes([(1, "banker", Fraction(10)), (2, "player", Fraction(10))])
    _, banker, _ = theory.of_stakes([(1, "banker", Fraction(10))])
    assert hedged < banker / 10  # only a tie's push separates them


def test_the_cache_and_what_has_no_theory() -> None:
    deck = get_game("fortune7").deck_kind.shoe(8)
    assert round_theory("fortune7", 8, deck) is round_theory("fortune7", 8, Counter(deck))
    paigow = full_shoe_theory("paigow", 1)
    expected, variance, unknown = paigow.of_stakes([(1, "standard", Fraction(25)), (1, "fortune_bonus", Fraction(5))])
    assert unknown == 25 and expected == 5 * paigow.bets["fortune_bonus"].edge
    assert variance == 25 * paigow.bets["fortune_bonus"].variance
    with pytest.raises(ValueError, match="a round needs at least 6"):
        round_theory("fortune7", 8, Counter({next(iter(deck)): 3}))


def test_one_bet_at_two_seats_is_one_outcome_and_spots_are_their_own() -> None:
    """Two seats' Precious Pair wagers on one baccarat round win or lose together; two spots'
    Fortune Bonus wagers at Pai Gow are dealt their own hands (taken as independent)."""
    fafa = full_shoe_theory("fafa4", 8)
    _, both, _ = fafa.of_stakes([(1, "player_precious_pair", Fraction(5)), (2, "player_precious_pair", Fraction(5))])
    assert both == 100 * fafa.bets["player_precious_pair"].variance
    paigow = full_shoe_theory("paigow", 1)
    _, spots, _ = paigow.of_stakes([(1, "fortune_bonus", Fraction(5)), (2, "fortune_bonus", Fraction(5))])
    assert spots == 50 * paigow.bets["fortune_bonus"].variance
    scaled = fafa.scaled.of_stakes([("player_precious_pair", 5), ("player_precious_pair", 5), ("banker", 20)])
    exact = fafa.of_stakes([(1, "player_precious_pair", Fraction(5)), (2, "player_precious_pair", Fraction(5)),
                            (3, "banker", Fraction(20))])
    assert abs(Fraction(scaled[0], 10 ** 12) - exact[0]) < Fraction(1, 10 ** 9)
    assert abs(Fraction(scaled[1], 10 ** 12) - exact[1]) < Fraction(1, 10 ** 7)


def test_fu_baccs_lucky_monkey_against_simulation() -> None:
    """Fu Bacc's Lucky Monkey (fubacc way 2, ruling 13: the player's first two cards against the
    dealer's up card), one spot dealt from a full deck: the theory from games/fubacc/odds.py
    against three cards drawn at random, settled by the pay table's own lines."""
    rng = random.Random(20261126)
    deck = list(get_game("fubacc").deck_kind.cards)
    theory = full_shoe_theory("fubacc", 1).bets["lucky_monkey"]
    samples = []
    for _ in range(ROUNDS * 2):
        first, second, up = rng.sample(deck, 3)
        line = lucky_monkey_line(first.point == 0 and second.point == 0, up.point)
        samples.append(-float(win(LUCKY_MONKEY, line).net(1)) if line else 1.0)
    _check(samples, theory.edge, theory.variance)


def _every_deal(game_key: str, shoe: list[Card]) -> list[dict[str, Fraction]]:
    """The bettor's net per unit of every bet, for every order of six of the shoe's physical
    cards (a round uses the first four to six): each order equally likely, as in a shuffle."""
    game = get_game(game_key)
    settled: dict[tuple[Card, ...], dict[str, Fraction]] = {}
    out = []
    for order in itertools.permutations(shoe, 6):
        nets = settled.get(order)
        if nets is None:
            state = game.start(None, ())
            while isinstance(step := game.next_step(state), Deal):
                state = game.with_card(state, order[len(state.cards)])
            assert isinstance(step, Complete)
            nets = settled[order] = {key: bet.net(1) for key, bet in game.result(state).bets.items()}
        out.append(nets)
    return out


# Small shoes with pairs of every kind: Fa Fa's Gold pairs, Gold 4s and other 4s (rulings 2-3),
# two copies of one card; Fortune 6's pairs of one rank but not of one point (ruling 11)
SMALL_SHOES = {
    "fafa4": ["4-gold", "4-gold", "4-fire", "3-gold", "3-wood", "10-earth", "6-gold", "5-fire"],
    "fortune6": ["Qs", "Qh", "Kd", "9c", "9s", "4h", "3d", "7c"],
}


@pytest.mark.parametrize("game_key", sorted(SMALL_SHOES))
def test_round_variance_with_pairs_against_every_order_of_a_small_shoe(game_key: str) -> None:
    """Every covariance of a round's wagers, pair wagers included, and a round's variance,
    equal to the moments over every order of a small shoe's cards, exactly."""
    shoe = [parse_card(text) for text in SMALL_SHOES[game_key]]
    deals = _every_deal(game_key, shoe)
    theory = round_theory(game_key, 8, Counter(shoe))
    bets = list(theory.bets)
    assert set(get_game(game_key).pair_wagers) < set(bets) == set(theory.joint)
    mean = {b: -sum((d[b] for d in deals), Fraction(0)) / len(deals) for b in bets}
    for a in bets:
        assert theory.bets[a].edge == mean[a], a
        for b in bets:
            second = sum((d[a] * d[b] for d in deals), Fraction(0)) / len(deals)
            assert theory.covariance[(a, b)] == second - mean[a] * mean[b], (a, b)
    pairs = sorted(get_game(game_key).pair_wagers)
    stakes = [(1, "banker", Fraction(25)), (1, pairs[0], Fraction(5)), (2, pairs[1], Fraction(3)),
              (3, "player", Fraction(10)), (3, pairs[0], Fraction(2))]
    expected, variance, unknown = theory.of_stakes(stakes)
    nets = [-sum((s * d[b] for _, b, s in stakes), Fraction(0)) for d in deals]
    exact_mean = sum(nets, Fraction(0)) / len(nets)
    assert unknown == 0 and expected == exact_mean
    assert variance == sum(((x - exact_mean) ** 2 for x in nets), Fraction(0)) / len(nets)
    assert theory.covariance[("banker", pairs[0])] != 0  # what taking them as independent missed


def test_coups_given_one_hands_first_two_add_up_to_the_whole_count() -> None:
    """Summed over every first two cards of one hand (each times its ordered ways), the Coups
    that follow are every Coup of the shoe: on either hand."""
    counts = (30, 4, 3, 5, 6, 2, 4, 3, 5, 1)
    whole = coup_counts(counts)
    for player in (True, False):
        summed: Counter[object] = Counter()
        for first in range(10):
            for second in range(10):
                ways = counts[first] * (counts[second] - (first == second))
                if ways:
                    for coup, count in coup_counts_given_hand(counts, player, first, second).items():
                        summed[coup] += ways * count
        assert dict(summed) == whole
        assert sum(coup_counts_given_hand(counts, player, 4, 4).values()) == falling(sum(counts) - 2, 4)
    with pytest.raises(ValueError, match="cannot deal 9 and 9"):
        coup_counts_given_hand(counts, True, 9, 9)

"""Settling a round's wagers in money (games.money.settle), per round, for a full table.

    python3 bench/bench_money.py [--rounds 2000] [--seed 7]

Prints, for each game, the time to settle one decided round with every space of a full table
wagered (baccarat: 7 seats x every betting area; Fu Bacc 7 spots, Pai Gow 6 spots, each with
every wager it can hold), p50 / p99 in microseconds. The rounds are played before timing.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from fractions import Fraction

from games.money import MoneyRules, Stake, settle
from games.money.settle import BACCARAT_SEATS
from games.registry import GAME_KEYS, get_game
from games.round import AwaitDecision, Complete, Deal, Irregular


def random_round(game, rng):
    spots = tuple(range(1, game.max_spots + 1))
    while True:
        deck = list(game.deck_kind.cards)
        rng.shuffle(deck)
        state = game.start(spots=spots)
        try:
            while not isinstance(step := game.next_step(state), Complete):
                if isinstance(step, Deal):
                    state = game.with_card(state, deck.pop())
                elif isinstance(step, AwaitDecision):
                    options = [o for o in step.options if o != "no_ante"]
                    state = game.with_decision(state, step.spot, rng.choice(options or step.options))
            return game.result(state)
        except Irregular:
            continue  # a bonus offered the hand cannot take: deal again


def full_table(game, result, rng):
    seats = tuple(result.spots) if game.uses_spots else BACCARAT_SEATS
    return [Stake(seat, bet, Fraction(rng.randint(1, 100)))
            for seat in seats for bet, wager in game.wagers.items() if wager.stake_of is None]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng, rules = random.Random(args.seed), MoneyRules()
    for key in GAME_KEYS:
        game = get_game(key)
        rounds = [random_round(game, rng) for _ in range(args.rounds)]
        tables = [full_table(game, result, rng) for result in rounds]
        times = []
        for result, stakes in zip(rounds, tables):
            start = time.perf_counter()
            settle(game, result, stakes, rules)
            times.append(time.perf_counter() - start)
        times.sort()
        p50, p99 = statistics.median(times), times[int(len(times) * 0.99)]
        print(f"{key:9} {len(tables[0]):3} wagers a round: p50 {p50 * 1e6:6.0f} us, p99 {p99 * 1e6:6.0f} us")


if __name__ == "__main__":
    main()

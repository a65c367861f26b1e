"""Settling a round's wagers in money (games.money.settle), per round, for a full table.

    python3 bench/bench_money.py [--rounds 2000] [--seed 7]

Prints, for each game, the time to settle one decided round with every space of a full table
wagered (baccarat: 7 seats x every betting area; Fu Bacc 7 spots, Pai Gow 6 spots, each with
every wager it can hold), p50 / p99 in microseconds. The rounds are played before timing.
A game with a player-dealer (Fortune 7) is timed again banked by one: six seats, each space
wagered by the seated player and a back-line bettor, fees under a schedule of each kind, the
bank's walk (games.baccarat.california.round_money).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from fractions import Fraction

from games.baccarat.california.round_money import PlayerDealerTable
from games.baccarat.california.stakes import SPACES
from games.baccarat.california.stakes import Stake as BackedStake
from games.money import MoneyRules, Stake, settle
from games.money.settle import BACCARAT_SEATS
from games.registry import GAME_KEYS, get_game, get_table_profile
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


def banked_table(seat, rng, low):
    """Every space of the six other seats wagered by the seated player and one back-line bettor,
    each from `low` to 2 x `low`: within option 19's and option 25's limits per spot ($500-$2,000
    and $50-$300) with both bettors on it."""
    return [BackedStake(other, space, Fraction(rng.randint(low, 2 * low) // 5 * 5), bettor)
            for other in BACCARAT_SEATS if other != seat for space in SPACES for bettor in ("seat", "back")]


def time_banked(key, rounds, rng, rules) -> None:
    for option, low in ((19, 500), (25, 50)):
        before, after = [], []  # the fees taken before the deal; the bank's settlement after it
        for result in rounds:
            seat = rng.choice(BACCARAT_SEATS)
            stakes = banked_table(seat, rng, low)
            table = PlayerDealerTable(seat, Fraction(rng.randint(100, 20000)), option, rules)
            start = time.perf_counter()
            table.take_fees(stakes)
            middle = time.perf_counter()
            table.settle(stakes, result.bets)
            before.append(middle - start)
            after.append(time.perf_counter() - middle)
        for what, times in (("fees", before), ("settle", after)):
            times.sort()
            p50, p99 = statistics.median(times), times[int(len(times) * 0.99)]
            print(f"{key:9} {len(stakes):3} wagers banked by a player-dealer, option {option:2} {what:6}: "
                  f"p50 {p50 * 1e6:6.0f} us, p99 {p99 * 1e6:6.0f} us")


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
        if get_table_profile(key).player_dealer is not None:
            time_banked(key, rounds, rng, rules)


if __name__ == "__main__":
    main()

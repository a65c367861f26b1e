"""Cards per second through the pure table: whole 8-deck shoes dealt by a clean dealer.

    python3 bench/bench_table.py [--game fortune6] [--shoes 5] [--seed 1]

Every input of the shoe goes through Table.handle (new shoe, burn, place bets, no more
bets, every card, confirm) and its effects are built, as the daemon would get them. Reports
cards/s over the whole shoe and the per-card handle() latency p50/p99 (the card -> lamp
budget of the daemon is 1 ms p99; the table's share is this).
"""
from __future__ import annotations

import argparse
import pathlib
import platform
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from controller.table import inputs as i  # noqa: E402
from controller.table.table import Table  # noqa: E402
from games.registry import get_game  # noqa: E402
from simulation.table_dealer import deal_shoe  # noqa: E402


class TimedTable:
    """The real Table; times each card's handle() call."""

    def __init__(self, table: Table):
        self.table, self.card_times = table, []

    def handle(self, inp):
        start = time.perf_counter()
        effects = self.table.handle(inp)
        if isinstance(inp, i.Card):
            self.card_times.append(time.perf_counter() - start)
        return effects

    def __getattr__(self, name):
        return getattr(self.table, name)


def one_shoe(game_key: str, decks: int, seed: int):
    game = get_game(game_key)
    cards = list(game.deck_kind.shoe(decks).elements())
    random.Random(seed).shuffle(cards)
    timed = TimedTable(Table(game_key, decks))
    start = time.perf_counter()
    dealt = deal_shoe(timed, cards, cut_at=len(cards) - 14, decide=lambda spot, options: options[-1])
    elapsed = time.perf_counter() - start
    return dealt, elapsed, timed.card_times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="fortune6")
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--shoes", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rates, card_times, rounds = [], [], 0
    for n in range(args.shoes):
        dealt, elapsed, times = one_shoe(args.game, args.decks, args.seed + n)
        rates.append(dealt.cards_fed / elapsed)
        card_times += times
        rounds += len(dealt.results)
    card_times.sort()
    p = lambda q: card_times[min(len(card_times) - 1, int(q * len(card_times)))] * 1e6  # noqa: E731
    print(f"machine: {platform.machine()} {platform.python_implementation()} {platform.python_version()}, "
          f"{__import__('os').cpu_count()} cpus")
    print(f"{args.game}, {args.decks} decks, {args.shoes} shoes, {rounds} rounds, {len(card_times)} cards")
    print(f"cards/s per shoe (all inputs of the shoe): median {statistics.median(rates):,.0f}, "
          f"min {min(rates):,.0f}, max {max(rates):,.0f}")
    print(f"handle(Card) latency: p50 {p(0.50):.0f} us, p99 {p(0.99):.0f} us, max {card_times[-1] * 1e6:.0f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())

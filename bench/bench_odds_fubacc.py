"""Fu Bacc: how long the exact odds take, and how fast the engine resolves full tables.

    python3 bench/bench_odds_fubacc.py [--repeat 3] [--rounds 2000]

Prints the best-of-N wall time of `odds(1)` from a cold cache (550 situations, exact
Fractions), its peak Python memory, and rounds per second of 7-spot rounds played through
games.replay.run_round with decisions chosen from the options offered.
"""
from __future__ import annotations

import argparse
import random
import time

from cold_timing import best_cold

from games.cards import DeckKind
from games.fubacc.game import GAME, odds
from games.fubacc.strategy import optimal_strategy
from games.replay import run_round

SPOTS = (1, 2, 3, 4, 5, 6, 7)


def time_rounds(rounds: int, seed: int = 7) -> float:
    rng = random.Random(seed)
    deck = list(DeckKind.STANDARD52.cards)
    plays = (["fold"], ["play", "hit"], ["play", "stay"], ["no_ante"])  # legal whatever the cards
    games = []
    for _ in range(rounds):
        rng.shuffle(deck)
        games.append((deck[:GAME.max_cards(SPOTS)], {spot: rng.choice(plays) for spot in SPOTS}))
    start = time.perf_counter()
    for cards, decisions in games:
        run_round(GAME, cards, spots=SPOTS, decisions=decisions)
    return rounds / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    seconds, peak = best_cold(lambda: odds(1), optimal_strategy.cache_clear, args.repeat)
    print(f"odds(1) cold: best of {args.repeat}: {seconds:.3f} s; peak traced memory {peak / 1e6:.1f} MB")
    print(f"7-spot rounds: {time_rounds(args.rounds):.0f} rounds/s ({args.rounds} rounds)")


if __name__ == "__main__":
    main()

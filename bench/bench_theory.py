"""What one composition's exact theory costs (games/money/theory.py): the per-round price of
`tablectl meters` with the exact theory and of the pit's meters.

    python3 bench/bench_theory.py [--rounds 40] [--games fortune7,fafa4,fortune6] [--seed 1]

For each game, a seeded 8-deck shoe is dealt from in steps of 5 cards (about a round's worth,
as a shoe is played); at each step the theory of the cards left is computed cold (its caches
cleared), and the median, min and max in ms are printed with the machine's load.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.baccarat import counting  # noqa: E402
from games.live_edge import cards_left  # noqa: E402
from games.money import theory  # noqa: E402
from games.registry import get_game  # noqa: E402


def _clear_caches() -> None:
    for name in ("_cached", "full_shoe_theory"):
        getattr(theory, name).cache_clear()
    counting.coup_counts.cache_clear()


def per_composition(game_key: str, rounds: int, seed: int) -> list[float]:
    game = get_game(game_key)
    shoe = list(game.deck_kind.cards) * 8
    random.Random(seed).shuffle(shoe)
    theory.round_theory(game_key, 8, cards_left(game_key, 8, []))  # imports and one-time tables
    times = []
    for step in range(rounds):
        left = cards_left(game_key, 8, shoe[:5 * step + 1])
        _clear_caches()
        start = time.perf_counter()
        theory.round_theory(game_key, 8, left)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--games", default="fortune7,fafa4,fortune6")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; {args.rounds} compositions a game, 8 decks, caches cleared")
    for game_key in args.games.split(","):
        ms = [t * 1000 for t in per_composition(game_key, args.rounds, args.seed)]
        print(f"{game_key:9} median {statistics.median(ms):6.2f} ms   min {min(ms):6.2f}   max {max(ms):6.2f}")


if __name__ == "__main__":
    main()

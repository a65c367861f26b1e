"""Fortune Pai Gow: the exact Fortune Bonus count and the House Way's speed.

    python3 bench/bench_paigow.py [--repeat 3] [--hands 20000] [--rounds 500] [--seed 2016]

Prints:
* the best-of-N wall time of `odds(1)` from a cold cache: the exact count of every line over
  all C(53,7) = 154,143,080 hands (goal <= 30 s), and its peak Python memory;
* the House Way's time per hand (p50 / p90 / p99, microseconds; goal p50 <= 50 us) over a
  fixed-seed sample of random seven-card hands;
* full 6-spot rounds per second through games.replay.run_round (House Way for every spot).
"""
from __future__ import annotations

import argparse
import random
import time

from cold_timing import best_cold

from games.cards import DeckKind
from games.paigow.bonus_count import count_flags
from games.paigow.game import GAME, odds
from games.paigow.house_way import house_way
from games.replay import run_round

DECK = DeckKind.PAIGOW53.cards


def time_house_way(hands: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    sample = [rng.sample(DECK, 7) for _ in range(hands)]
    for seven in sample[:500]:  # warm up
        house_way(seven)
    times = []
    clock = time.perf_counter_ns
    for seven in sample:
        start = clock()
        house_way(seven)
        times.append((clock() - start) / 1000)
    return sorted(times)


def time_rounds(rounds: int, seed: int) -> float:
    rng = random.Random(seed)
    spots = (1, 2, 3, 4, 5, 6)
    shoes = [rng.sample(DECK, GAME.max_cards(spots)) for _ in range(rounds)]
    start = time.perf_counter()
    for shoe in shoes:
        run_round(GAME, shoe, spots=spots)
    return rounds / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2016)
    args = parser.parse_args()

    seconds, peak = best_cold(lambda: odds(1), count_flags.cache_clear, args.repeat)
    print(f"fortune bonus exact count (odds(1), cold): best of {args.repeat}: {seconds:.2f} s"
          f"  (goal <= 30 s), peak Python memory {peak / 1024:.0f} KiB")
    times = time_house_way(args.hands, args.seed)
    pct = {p: times[min(len(times) - 1, int(len(times) * p / 100))] for p in (50, 90, 99)}
    print(f"house way per hand over {len(times)} hands (seed {args.seed}): p50 {pct[50]:.1f} us"
          f"  p90 {pct[90]:.1f} us  p99 {pct[99]:.1f} us  max {times[-1]:.1f} us  (goal p50 <= 50 us)")
    print(f"6-spot rounds through run_round: {time_rounds(args.rounds, args.seed):.0f} rounds/s")


if __name__ == "__main__":
    main()

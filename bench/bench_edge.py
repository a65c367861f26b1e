"""How long one live-edge recomputation takes: every wager of each baccarat game's layout at
8 decks with 100-400 cards out (goal: <= 100 ms, so `tablectl edge` keeps up between rounds);
and what the integrity checks cost a card.

    python3 bench/bench_edge.py [--runs 9] [--shoes 2000]

Edge: for 100, 200, 300 and 400 cards out of a fresh seeded shuffle each run, the time of
games.live_edge.live_edge(game, 8, cards_out) (the coup count is memoised on the exact point
counts, and every run's counts differ, so nothing is reused), and of the Fu Bacc and Pai Gow
recomputations for comparison. Integrity: CPU time of ShoeWatch.feed per card over fair shoes
in a row (simulation/fair_shoes.py, the slow test's loop, the shuffle included).
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.live_edge import live_edge  # noqa: E402
from games.registry import get_game  # noqa: E402
from simulation.fair_shoes import CONFIGS, run_fair_shoes  # noqa: E402

OUT = (100, 200, 300, 400)


def _edge_times(game: str, decks: int, out: int, runs: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    shoe = list(get_game(game).deck_kind.cards) * decks
    times = []
    for _ in range(runs):
        rng.shuffle(shoe)
        start = time.perf_counter()
        live_edge(game, decks, shoe[:out])
        times.append(time.perf_counter() - start)
    return times


def _line(name: str, times: list[float]) -> str:
    return (f"  {name:<22} median {statistics.median(times) * 1000:7.1f} ms"
            f"   min {min(times) * 1000:7.1f}   max {max(times) * 1000:7.1f}   ({len(times)} runs)")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--shoes", type=int, default=2000)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus, {platform.machine()}")
    print("live edge, one recomputation (every wager of the layout):")
    for game in ("fortune7", "fafa4", "fortune6"):
        for out in OUT:
            print(_line(f"{game} 8 decks, {out} out", _edge_times(game, 8, out, args.runs, out)))
    print(_line("fubacc, 6 out", _edge_times("fubacc", 1, 6, args.runs, 1)))
    print(_line("paigow, 14 out", _edge_times("paigow", 1, 14, max(1, args.runs // 3), 1)))
    print(f"integrity checks over {args.shoes} fair shoes in a row (CPU time, the shuffle included):")
    for config in CONFIGS:
        tally = run_fair_shoes(config, args.shoes, seed=1)
        print(f"  {config:<14} {tally.cpu_s / tally.cards * 1e6:6.2f} us a card, "
              f"{tally.cpu_s / tally.shoes * 1e3:6.3f} ms a shoe ({tally.cards // tally.shoes} cards)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

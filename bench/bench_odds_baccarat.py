"""How long `tablectl odds` takes for the baccarat games (goal: fortune7 at 8 decks <= 0.5 s).

    python3 bench/bench_odds_baccarat.py [--runs 9] [--games fortune7,fafa4,fortune6]

Reports the median (and min/max) of:
  in-process  games.baccarat.<game>.odds(decks) with the counting memo cleared each run
  cli         a fresh `python3 -m cli odds GAME --json` process, wall time
  tablectl    the installed `tablectl odds GAME --json` console script (if on PATH), wall time
"""
from __future__ import annotations

import argparse
import importlib
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.baccarat.counting import coup_counts  # noqa: E402


def _in_process(game: str, decks: int) -> float:
    module = importlib.import_module(f"games.baccarat.{game}")
    coup_counts.cache_clear()
    start = time.perf_counter()
    module.odds(decks)
    return time.perf_counter() - start


def _wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def _line(name: str, times: list[float]) -> str:
    return (f"  {name:<11} median {statistics.median(times) * 1000:7.1f} ms"
            f"   min {min(times) * 1000:7.1f}   max {max(times) * 1000:7.1f}   ({len(times)} runs)")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--games", default="fortune7,fafa4,fortune6")
    args = parser.parse_args()
    script = shutil.which("tablectl")
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus, {platform.machine()}")
    for game in args.games.split(","):
        decks = 8
        print(f"{game} ({decks} decks)")
        print(_line("in-process", [_in_process(game, decks) for _ in range(args.runs)]))
        print(_line("cli", [_wall([sys.executable, "-m", "cli", "odds", game, "--json"])
                            for _ in range(args.runs)]))
        if script:
            print(_line("tablectl", [_wall([script, "odds", game, "--json"]) for _ in range(args.runs)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

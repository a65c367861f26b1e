"""Table.handle alone, in a hot loop: CPU and calls per card, deciding cards apart from the others.

    python3 bench/bench_table_handle.py [--shoes 3] [--seed 5] [--json] [--profile 25]

A mirror Table (bench/daemon_mirror.py Dealer, fortune6, 8 decks) deals whole shoes card by
card as a clean dealer would; its inputs (commands, decisions, cards) are recorded, then
replayed into a fresh Table `--repeat` times. Each card's handle() is timed with
time.perf_counter (the best of the repeats per card, to leave out the neighbours'
interruptions); a card "decides" when its effects carry a durable journal record. Calls per
card (sys.setprofile) do not depend on the load: the figure to compare across versions.
With --profile N: the N functions with the most own time over the cards (cProfile).

With --in-daemon: the same parts where the daemon runs them, cold (other work between cards):
bench_card_cpu's daemon parts deal two shoes card by card, and Table.handle and the shoe
driver's `_on_bytes` (link, CARD decode, driver, up to the inbox) are timed per card with
time.perf_counter (wall time: on a loaded machine it takes in the neighbours too).
"""
from __future__ import annotations

import argparse
import collections
import cProfile
import json
import os
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path

from bench_card_cpu import Calls
from daemon_mirror import Dealer, shoe_cards

from controller.table import Journal, Table
from controller.table import inputs as i

GAME, DECKS = "fortune6", 8


def recorded_inputs(shoes: int, seed: int) -> list[object]:
    """Every input a clean dealer gives a table over `shoes` shoes."""
    dealer = Dealer(Table(GAME, DECKS))
    inputs: list[object] = []
    original = dealer.table.handle

    def recording(inp: object) -> list[object]:
        inputs.append(inp)
        return original(inp)  # type: ignore[arg-type]

    dealer.table.handle = recording  # type: ignore[method-assign]
    for shoe in range(shoes):
        collections.deque(dealer.shoe(shoe_cards("standard52", DECKS, seed + shoe)), maxlen=0)  # run it through
        while dealer.room_for_a_round(6, None):
            collections.deque(dealer.round(), maxlen=0)
    return inputs


def replay(inputs: list[object], hook: object = None) -> tuple[list[float], list[bool], list[int]]:
    """One pass of the inputs through a fresh Table: per card its seconds, whether it decided,
    and (with a counting hook) its calls."""
    table = Table(GAME, DECKS)
    seconds: list[float] = []
    decides: list[bool] = []
    calls: list[int] = []
    counter = hook if isinstance(hook, Calls) else None
    for inp in inputs:
        if not isinstance(inp, i.Card):
            table.handle(inp)  # type: ignore[arg-type]
            continue
        if counter is not None:
            before = counter.count
            sys.setprofile(counter)
            effects = table.handle(inp)
            sys.setprofile(None)
            calls.append(counter.count - before)
        else:
            start = time.perf_counter()
            effects = table.handle(inp)
            seconds.append(time.perf_counter() - start)
        decides.append(any(isinstance(e, Journal) and e.durable for e in effects))
    return seconds, decides, calls


def in_daemon(seed: int) -> dict:
    """Table.handle and the shoe driver's _on_bytes per card, timed inside bench_card_cpu's parts."""
    import logging
    import tempfile

    from bench_card_cpu import Bench, configure_logging

    configure_logging("json", "info", stream=open(os.devnull, "w"))  # noqa: SIM115 - for the whole run
    logging.getLogger("transitions").setLevel(logging.WARNING)
    handled: list[tuple[float, bool]] = []
    read: list[float] = []
    with tempfile.TemporaryDirectory(prefix="table-handle-", dir="/tmp") as directory:
        bench = Bench(Path(directory), seed)
        table, shoe = bench.loop.table, bench.shoe
        handle, on_bytes = table.handle, shoe._on_bytes

        def timed_handle(inp: i.Input) -> list:
            start = time.perf_counter()
            effects = handle(inp)
            if isinstance(inp, i.Card):
                handled.append((time.perf_counter() - start, any(isinstance(e, Journal) and e.durable for e in effects)))
            return effects

        def timed_bytes(data: bytes) -> None:
            start = time.perf_counter()
            on_bytes(data)
            read.append(time.perf_counter() - start)

        table.handle, shoe._on_bytes = timed_handle, timed_bytes  # type: ignore[method-assign]
        try:
            for shoe_seed in (seed, seed + 1):
                bench.deal_shoe(shoe_seed, lambda: None, lambda: None)
        finally:
            bench.close()
    us = lambda values: round(statistics.median(values) * 1e6, 1)  # noqa: E731
    return {"handle_us_p50": {"deciding": us([t for t, d in handled if d]), "other": us([t for t, d in handled if not d])},
            "shoe_on_bytes_us_p50": us(read), "cards": len(handled)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    parser.add_argument("--in-daemon", action="store_true", help="time the parts where the daemon runs them, cold")
    args = parser.parse_args(argv)
    if args.in_daemon:
        cold = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                            "load": [round(x, 2) for x in os.getloadavg()]}, **in_daemon(args.seed)}
        if args.json:
            print(json.dumps(cold))
        else:
            print(f"in the daemon's parts, {cold['cards']} cards (load {cold['machine']['load']}): Table.handle "
                  f"p50 {cold['handle_us_p50']['deciding']} us deciding, {cold['handle_us_p50']['other']} us other; "
                  f"the shoe driver's _on_bytes p50 {cold['shoe_on_bytes_us_p50']} us")
        return 0
    inputs = recorded_inputs(args.shoes, args.seed)
    passes = [replay(inputs) for _ in range(args.repeat)]
    best = [min(times) for times in zip(*(p[0] for p in passes))]
    decides = passes[0][1]
    _, _, calls = replay(inputs, Calls())
    split = lambda values, d: [v for v, x in zip(values, decides) if x == d]  # noqa: E731
    us = lambda values: round(statistics.median(values) * 1e6, 1)  # noqa: E731
    report = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "load": [round(x, 2) for x in os.getloadavg()]},
              "cards": len(best), "deciding": sum(decides),
              "handle_us_p50": {"deciding": us(split(best, True)), "other": us(split(best, False))},
              "calls_per_card_p50": {"deciding": statistics.median(split(calls, True)),
                                     "other": statistics.median(split(calls, False))}}
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        replay(inputs)
        profile.disable()
        stats = pstats.Stats(profile)
        rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:args.profile]  # type: ignore[attr-defined]
        cards = len(best)
        report["profile"] = [{"function": f"{Path(file).name}:{line} {name}", "calls_per_card": round(n / cards, 2),
                              "own_us_per_card": round(own / cards * 1e6, 2), "cum_us_per_card": round(cum / cards * 1e6, 2)}
                             for (file, line, name), (_, n, own, cum, _) in rows]
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"Table.handle, {GAME} {DECKS} decks, {args.shoes} shoes, best of {args.repeat} per card "
          f"(load {report['machine']['load']}):")
    for kind in ("deciding", "other"):
        print(f"  {kind}: p50 {report['handle_us_p50'][kind]} us, {report['calls_per_card_p50'][kind]} calls")
    for row in report.get("profile", []):
        print(f"    {row['own_us_per_card']:>8} us own {row['cum_us_per_card']:>8} us cum "
              f"{row['calls_per_card']:>6} calls/card  {row['function']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

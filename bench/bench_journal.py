"""Journal throughput and latency on this machine's disk.

    python3 bench/bench_journal.py [--records N] [--dir DIR] [--json]

Measures, on a real SQLite file in DIR (default: a temp dir under /var/tmp, a real disk,
not tmpfs):
  - appends/s and per-append latency (p50/p99/max) for plain appends (sync "results":
    committed, survives a crash of the process, not a power cut), durable appends
    (durable=True: fsynced) and sync "always" (every append fsynced);
  - a round mix: 9 plain records and 1 durable result per round, reporting the plain (card)
    and durable (result) latencies separately: the card->lamp budget of the daemon (1 ms p99)
    must hold the card's append, and the result's fsync comes before its lamps light;
  - the same mix paced (a pause before each append, as a shoe deals) with a checkpoint after
    each round, as the daemon runs it;
  - a bet sensor's SPACE list as the daemon journals it (a `device` record of 20 chips),
    plain and durable: what each reading costs before anything else is done with it;
  - the raw fsync latency of the filesystem (4 KiB write + fsync), for comparison.
Every case also gives the process's CPU (user + system: an fsync's kernel time counts) per
append.
Latencies include WAL checkpoints when SQLite runs them inside a commit: compare the
journal's setting (a 10000-page safety net, the daemon checkpointing between rounds) with
SQLite's default 1000 pages.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

from controller.journal import Journal

CARD = {"round": 1, "card": "4-gold", "code": 0x0214, "hand": "banker", "position": 1, "draw_counter": 12345}
RESULT = {"round": 1, "winner": "banker", "hands": {"player": {"cards": ["As", "9h"], "total": 0},
                                                   "banker": {"cards": ["Kd", "8c"], "total": 8}},
          "bets": {k: {"result": "lose", "pays": None} for k in ("player", "tie", "pair", "fortune6")}, "lamps": {"banker": "on"}}
SPACE = {"device": "bets", "event": "SpaceChips", "space": 3, "seat": 1, "name": "banker", "overflow": False,
         "change": 7, "device_ms": 123456, "chips": [[f"047b0d{n:08x}", 500] for n in range(20)]}


def percentiles(samples_ns: list[int]) -> dict:
    ordered = sorted(samples_ns)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1000  # noqa: E731
    return {"n": len(ordered), "p50_us": round(pick(0.50), 1), "p99_us": round(pick(0.99), 1),
            "max_us": round(ordered[-1] / 1000, 1), "mean_us": round(statistics.fmean(ordered) / 1000, 1)}


def timed_appends(path: str, sync: str, count: int, durable_every: int | None, *, pace_s: float = 0.0,
                  checkpoint_between_rounds: bool = False, autocheckpoint_pages: int | None = None,
                  record: tuple[str, dict] = ("card", CARD)) -> dict:
    """durable_every=None: all plain; 1: all durable; k: every k-th is a durable result (the
    end of a round, after which the daemon checkpoints while betting is open). pace_s: a pause
    before each append, as cards come from a shoe (caches go cold: slower than back-to-back)."""
    plain, durable, checkpoints = [], [], []
    kind, payload = record
    options = {} if autocheckpoint_pages is None else {"autocheckpoint_pages": autocheckpoint_pages}
    with Journal(path, sync=sync, **options) as journal:
        start, cpu = time.perf_counter(), time.process_time()
        for i in range(1, count + 1):
            is_durable = durable_every is not None and i % durable_every == 0
            if pace_s:
                time.sleep(pace_s)
            t0 = time.perf_counter_ns()
            if record[0] == "card":  # the round mix: its durable records are results
                journal.append("result" if is_durable else "card", RESULT if is_durable else CARD, durable=is_durable)
            else:
                journal.append(kind, payload, durable=is_durable)
            (durable if is_durable else plain).append(time.perf_counter_ns() - t0)
            if is_durable and checkpoint_between_rounds:
                t0 = time.perf_counter_ns()
                journal.checkpoint()
                checkpoints.append(time.perf_counter_ns() - t0)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    out = {"appends_per_s": round(count / elapsed), "cpu_us_per_append": round(cpu / count * 1e6, 1)}
    for name, samples in (("plain", plain), ("durable", durable), ("checkpoint", checkpoints)):
        if samples:
            out[name] = percentiles(samples)
    return out


def raw_fsync(directory: str, count: int) -> dict:
    samples = []
    fd, path = tempfile.mkstemp(dir=directory)
    try:
        block = b"x" * 4096
        for _ in range(count):
            os.write(fd, block)
            t0 = time.perf_counter_ns()
            os.fsync(fd)
            samples.append(time.perf_counter_ns() - t0)
    finally:
        os.close(fd)
        os.unlink(path)
    return percentiles(samples)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20000, help="appends per case (default 20000)")
    parser.add_argument("--dir", default="/var/tmp", help="where the journal files go (a real disk)")
    parser.add_argument("--pace-ms", type=float, default=5.0, help="pause before each paced append (default 5)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    n = args.records
    with tempfile.TemporaryDirectory(prefix="bench-journal-", dir=args.dir) as tmp:
        cases = {
            "plain (sync=results)": timed_appends(f"{tmp}/plain.sqlite", "results", n, None),
            "durable (durable=True)": timed_appends(f"{tmp}/durable.sqlite", "results", max(n // 10, 100), 1),
            "always (sync=always)": timed_appends(f"{tmp}/always.sqlite", "always", max(n // 10, 100), None),
            "plain, SQLite's default autocheckpoint": timed_appends(f"{tmp}/auto.sqlite", "results", n, None,
                                                                    autocheckpoint_pages=1000),
            "round mix (9 plain + 1 durable)": timed_appends(f"{tmp}/mix.sqlite", "results", n, 10),
            f"paced round mix, a record every {args.pace_ms} ms, checkpoint between rounds": timed_appends(
                f"{tmp}/paced.sqlite", "results", max(n // 20, 100), 10, pace_s=args.pace_ms / 1000,
                checkpoint_between_rounds=True),
            "a SPACE list's record, 20 chips, plain": timed_appends(f"{tmp}/space.sqlite", "results", n, None,
                                                                   record=("device", SPACE)),
            "a SPACE list's record, 20 chips, durable": timed_appends(f"{tmp}/space_durable.sqlite", "results",
                                                                     max(n // 10, 100), 1, record=("device", SPACE)),
            "raw fsync 4 KiB": raw_fsync(tmp, max(n // 10, 100)),
        }
    if args.json:
        print(json.dumps({"records": n, "cpus": os.cpu_count(), "dir": args.dir, "cases": cases}, indent=2))
        return 0
    print(f"journal bench: {n} records/case, dir {args.dir}, {os.cpu_count()} CPUs, python {sys.version.split()[0]}")
    for name, case in cases.items():
        rate = f"{case['appends_per_s']:>7} appends/s" if "appends_per_s" in case else " " * 17
        if "cpu_us_per_append" in case:
            print(f"  {name:<78} CPU {case['cpu_us_per_append']} us an append (user + system)")
        for kind in ("plain", "durable", "checkpoint", None):
            stats = case if kind is None else case.get(kind)
            if stats is None or "p50_us" not in stats:
                continue
            label = f"{name} [{kind}]" if kind else name
            print(f"  {label:<78} {rate}  p50 {stats['p50_us']:>8} us  p99 {stats['p99_us']:>8} us  "
                  f"max {stats['max_us']:>9} us  (n={stats['n']})")
            rate = " " * 17
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

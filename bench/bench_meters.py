"""The meters: `tablectl meters` over a journal of a million records, and the pit's live meters
for 20 tables dealing at once.

    python3 bench/bench_meters.py [--records N] [--tables T] [--rounds R] [--dir DIR] [--journal PATH]
                                  [--skip-table] [--skip-pit]

Table: builds a Fortune 7 journal of N records (default 1,000,000) with the journal's own writer
(simulation/money_journal.py: every round's wagers and settlement, the daemon's device and panel
records beside the table's, about 19 records a round, a shift every 600 rounds) on a real disk
(default: a temp dir under /var/tmp), then times, best of 3, the whole command as a user runs it
(a new process each time, Python's start included):
  - `tablectl meters --theory full_shoe --json` over the whole journal (goal: <= 2 s), folded in
    a part a core (controller/journal/meters_split.py); then its fold and report in this process,
    in one part and in two, with the CPU of each part's process: on a loaded machine the wall time
    is the other jobs' too, and the command's own CPU is what its wall time is on an idle one;
  - `tablectl meters --shift 2 --json`: one shift of 600 rounds with the exact theory of each
    round's composition (what that costs a round).
Pit: T tables (default 20) deal R rounds each (default 150) at once: their records arrive
interleaved, a round of every table in turn, and go through PitStore.add and PitMeters.add with
a commit per arrival batch (SQLite, as the pit does); CPU time per record with the meters and
without them.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.journal import Journal, Record, iter_records, meters_split, open_readonly  # noqa: E402
from controller.journal.meters import fold_journal  # noqa: E402
from services.pit import PitStore  # noqa: E402
from services.pit.meters import PitMeters  # noqa: E402
from simulation.money_journal import MoneyDealer  # noqa: E402

SHIFT_ROUNDS = 600


def build_table_journal(path: str, records: int) -> int:
    with Journal(path) as journal:
        dealer = MoneyDealer(journal, "fortune7", rng=random.Random(1), daemon_records=True)
        while journal.head_seq < records:
            dealer.open_shift(f"shift {dealer.shift + 1}")
            for _ in range(SHIFT_ROUNDS):
                if journal.head_seq >= records:
                    break
                dealer.deal(1)
            dealer.close_shift()
        journal.checkpoint()
        return dealer.round


def best_of(argv: list[str], repeat: int = 3) -> tuple[float, float]:
    """The best wall-clock time of `repeat` runs, and the best CPU time (user + system) of the
    process: on a shared machine the CPU time is the command's own work, the wall time also the
    other jobs' turns."""
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best_cpu = min(best_cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best, best_cpu


def fold_in_process(path: str, parts: int, repeat: int = 3) -> tuple[float, float, float]:
    """`tablectl meters --theory full_shoe`'s fold and report in this process, in `parts` parts
    (meters_split): the best wall time, and the CPU of this process and of the other parts'
    processes. With a core a part, the command's own CPU is about its wall time on an idle machine."""
    runs = []
    wanted = meters_split.parts_wanted
    meters_split.parts_wanted = lambda: parts
    try:
        for _ in range(repeat):
            before, cpu, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.process_time(), time.perf_counter()
            fold_journal(path, "full_shoe").report().to_json()
            wall, own = time.perf_counter() - start, time.process_time() - cpu
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            workers = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            runs.append((wall, own, workers))
    finally:
        meters_split.parts_wanted = wanted
    return min(runs, key=lambda run: run[1])  # the run the other jobs disturbed least


def table_bench(folder: str, records: int, journal: str | None = None) -> None:
    path = journal or os.path.join(folder, "journal.sqlite")
    if journal is None:
        start = time.perf_counter()
        rounds = build_table_journal(path, records)
        print(f"journal: {records:,} records, {rounds:,} rounds, built in {time.perf_counter() - start:.0f} s "
              f"({os.path.getsize(path) / 1e6:.0f} MB)")
    else:
        print(f"journal: {path} ({os.path.getsize(path) / 1e6:.0f} MB)")
    tablectl = [sys.executable, "-m", "cli", "meters", "--journal", path, "--json"]
    whole, cpu = best_of([*tablectl, "--theory", "full_shoe"])
    print(f"  tablectl meters --theory full_shoe (whole journal): {whole:.2f} s best of 3, {cpu:.2f} s of CPU "
          f"(goal <= 2 s), load {os.getloadavg()[0]:.1f}")
    for parts in (1, 2):
        fold_wall, own, workers = fold_in_process(path, parts)
        print(f"  in process, {parts} part(s): fold + report {fold_wall:.2f} s wall, {own:.2f} s of CPU in the "
              f"command's process, {workers:.2f} s in the other part's")
    shift, cpu = best_of([*tablectl, "--shift", "2"], repeat=1)
    print(f"  tablectl meters --shift 2 (exact theory, {SHIFT_ROUNDS} rounds): {shift:.1f} s, {cpu:.1f} s of CPU, "
          f"{cpu / SHIFT_ROUNDS * 1000:.0f} ms of CPU a round")


def pit_bench(folder: str, tables: int, rounds: int) -> None:
    streams: list[tuple[str, list[list[Record]]]] = []
    for n in range(tables):
        path = os.path.join(folder, f"t{n}.sqlite")
        with Journal(path) as journal:
            dealer = MoneyDealer(journal, ("fortune7", "fafa4", "fortune6")[n % 3], rng=random.Random(n),
                                 daemon_records=True)
            dealer.open_shift("day")
            dealer.deal(rounds)
        conn = open_readonly(path)
        by_round: list[list[Record]] = [[]]
        for record in iter_records(conn):
            by_round[-1].append(record)
            if record.kind in ("settled", "void"):
                by_round.append([])
        conn.close()
        streams.append((f"site/t{n}", by_round))
    total = sum(len(r) for _, stream in streams for r in stream)
    for with_meters in (False, True):
        db = os.path.join(folder, f"pit-{with_meters}.sqlite")
        store = PitStore(db)
        meters = PitMeters(store.conn) if with_meters else None
        cpu = time.process_time()
        for index in range(max(len(stream) for _, stream in streams)):
            for table, stream in streams:  # a round of every table in turn: they deal at once
                for record in stream[index] if index < len(stream) else ():
                    outcome = store.add(table, record)
                    if meters is not None:
                        for joined in outcome.in_order:
                            meters.add(table, joined)
                store.commit()
        used = time.process_time() - cpu
        store.close()
        what = "store + meters" if with_meters else "store alone"
        print(f"  pit, {tables} tables x {rounds} rounds, {total:,} records: {what}: {used:.1f} s CPU, "
              f"{used / total * 1e6:.0f} us a record")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=150)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--journal", default=None, help="time this journal instead of building one")
    parser.add_argument("--skip-table", action="store_true")
    parser.add_argument("--skip-pit", action="store_true")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}")
    folder = tempfile.mkdtemp(prefix="bench_meters.", dir=args.dir or "/var/tmp")
    try:
        if not args.skip_table:
            table_bench(folder, args.records, args.journal)
        if not args.skip_pit:
            pit_bench(folder, args.tables, args.rounds)
    finally:
        shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())

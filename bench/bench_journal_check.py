"""The journal's start-up check and its anchor on a large journal.

    python3 bench/bench_journal_check.py [--records N] [--since-anchor K] [--dir DIR] [--json]

Builds a journal of N records (default 1,000,000: years of one table's rounds are a few
million) on a real disk (default: a temp dir under /var/tmp), anchored K records before its
head (default 400: the daemon anchors at every checkpoint, every 400 records), and measures,
each from a cold start of the process's connections (the OS page cache stays warm, as at a
daemon restart):
  - check_journal(path): the start-up check (records since the anchor, the anchored record,
    record 1, a count of records), and its parts;
  - the same journal without its anchor: check_journal falls back to every record;
  - verify(path): the full walk `tablectl journal verify` does;
  - Journal.anchor(): fsync of the WAL, the anchor's temporary file, rename, directory fsync
    (p50/p99 over 200 anchors, a few records appended before each).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time

from controller.journal import Journal, anchor_path, check_journal, verify

CARD = {"round": 1, "card": "4-gold", "code": 0x0214, "hand": "banker", "position": 1, "draw_counter": 12345}


def build(path: str, records: int, since_anchor: int) -> None:
    """`records` cards, anchored after record records - since_anchor."""
    with Journal(path) as journal:
        for head in (records - since_anchor, records):
            while journal.head_seq < head:
                journal.append_many([("card", CARD, None, False)] * min(1000, head - journal.head_seq))
            if head != records:
                journal.anchor()
        journal.checkpoint()


def timed(fn, repeat: int = 3) -> tuple[float, object]:
    """Best of `repeat` wall-clock seconds, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def parts(path: str, anchor_seq: int) -> dict:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = {}
    for name, sql, args in (("count_s", "SELECT COUNT(*), MIN(seq) FROM records", ()),
                            ("since_anchor_rows_s", "SELECT * FROM records WHERE seq > ? ORDER BY seq", (anchor_seq,)),
                            ("anchored_record_s", "SELECT * FROM records WHERE seq = ?", (anchor_seq,))):
        out[name] = round(timed(lambda sql=sql, args=args: conn.execute(sql, args).fetchall())[0], 6)
    conn.close()
    return out


def anchor_latency(path: str, count: int = 200) -> dict:
    samples = []
    with Journal(path) as journal:
        for _ in range(count):
            journal.append_many([("card", CARD, None, False)] * 5)
            t0 = time.perf_counter_ns()
            journal.anchor()
            samples.append(time.perf_counter_ns() - t0)
    ordered = sorted(samples)
    return {"n": count, "p50_ms": round(ordered[count // 2] / 1e6, 3), "p99_ms": round(ordered[int(count * 0.99)] / 1e6, 3),
            "max_ms": round(ordered[-1] / 1e6, 3), "mean_ms": round(statistics.fmean(ordered) / 1e6, 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--since-anchor", type=int, default=400)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    directory = tempfile.mkdtemp(prefix="tablectl-bench-check-", dir=args.dir or "/var/tmp")
    try:
        path = os.path.join(directory, "journal.sqlite")
        t0 = time.perf_counter()
        build(path, args.records, args.since_anchor)
        results: dict = {"records": args.records, "since_anchor": args.since_anchor,
                         "file_mb": round(os.path.getsize(path) / 2**20, 1), "build_s": round(time.perf_counter() - t0, 1)}
        seconds, check = timed(lambda: check_journal(path))
        assert check.ok and check.checked == args.since_anchor, check
        results["check_with_anchor_s"] = round(seconds, 4)
        results["check_parts"] = parts(path, args.records - args.since_anchor)
        kept = anchor_path(path).read_bytes()
        os.unlink(anchor_path(path))
        seconds, check = timed(lambda: check_journal(path), repeat=1)
        assert check.ok and check.checked == args.records, check
        results["check_without_anchor_s"] = round(seconds, 2)
        anchor_path(path).write_bytes(kept)
        seconds, report = timed(lambda: verify(path), repeat=1)
        assert report.ok and report.records == args.records
        results["verify_s"] = round(seconds, 2)
        results["anchor"] = anchor_latency(path)
    finally:
        shutil.rmtree(directory)
    if args.json:
        json.dump(results, sys.stdout)
        print()
    else:
        for key, value in results.items():
            print(f"{key:>24}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The signed journal at start-up: what checking the table's signatures costs on a large journal.

    python3 bench/bench_signed_startup.py [--records N] [--dir DIR] [--skip-daemon] [--json]

Builds a journal of N records (default 1,000,000) on a real disk (default: a temp dir under
/var/tmp) as a signing table writes it: a `signed_head` record every 400 records (the daemon's
checkpoints), the anchor signed 400 records before the head. Then, with the page cache warm as
at a daemon restart, it measures:
  - check_journal(path, key, full=False): what the daemon checks before dealing on a journal
    larger than `journal.walk_at_start` (the anchor's signature, the records since it, a count);
  - check_journal(path, key): the same with the walk of every record and signed head first
    (what a journal of at most `journal.walk_at_start` records costs before dealing);
  - verify(path, key): `tablectl journal verify` with the public key, and the daemon's
    background walk;
  - Ed25519: one signature, one verification;
  - the real daemon (`tablectl run` on the simulated devices) from its start to READY=1 on
    that journal, with the walk in the background (the default) and before dealing
    (walk_at_start above N), and how long the background walk took (its log line).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.journal import Journal, check_journal, verify  # noqa: E402
from controller.journal.signing import TableSigner, new_key_pair  # noqa: E402
from simulation.rig import Rig  # noqa: E402

NOTE = {"device": "shoe", "note": "counter 12345 already accounted for", "draw_counter": 12345}
EVERY = 400  # records between the daemon's checkpoints, each signing the head


def build(path: Path, signer: TableSigner, records: int) -> None:
    with Journal(path, signer=signer) as journal:
        while journal.head_seq < records - EVERY:
            journal.append_many([("device_note", NOTE, None, False)] * (EVERY - 1))
            journal.anchor(mirror=True)  # the checkpoint: anchor, signed, and its signed_head record
        while journal.head_seq < records:
            journal.append_many([("device_note", NOTE, None, False)] * min(1000, records - journal.head_seq))
        journal.checkpoint()


def timed(fn, repeat: int = 1) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def daemon_start(directory: Path, journal: Path, key: Path, walk_at_start: int, records: int, name: str) -> dict:
    """A rig whose daemon runs on `journal`: seconds from the rig's start (simulators, then the
    daemon) to READY=1, and the background walk's own seconds."""
    rig_dir = directory / f"rig-{name}"
    rig_dir.mkdir()
    config = {"journal": {"path": str(journal), "signing_key": str(key), "table": "bench", "walk_at_start": walk_at_start}}
    rig = Rig("fortune6", seed=1, directory=rig_dir, config=config)
    try:
        t0 = time.perf_counter()
        rig.start(wait_ready=True)
        ready = time.perf_counter() - t0
        walk = None
        if walk_at_start < records:
            rig.wait_until(lambda: '"journal_walk_done"' in rig.daemon.child.output(1_000_000), 900, "the background walk")
            line = [json.loads(t) for t in rig.daemon.child.output(1_000_000).splitlines() if '"journal_walk_done"' in t][-1]
            assert line["ok"], line
            walk = line["seconds"]
        started = [json.loads(t) for t in rig.daemon.child.output(1_000_000).splitlines() if '"journal_checked"' in t][-1]
        return {"start_to_ready_s": round(ready, 2), "background_walk_s": walk, "before_anchor": started["before_anchor"]}
    finally:
        rig.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--skip-daemon", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    directory = Path(tempfile.mkdtemp(prefix="tablectl-bench-signed-", dir=args.dir or "/var/tmp"))
    try:
        key = directory / "table.key"
        new_key_pair(key)
        signer = TableSigner.from_file(key, "bench")
        path = directory / "journal.sqlite"
        t0 = time.perf_counter()
        build(path, signer, args.records)
        results: dict = {"records": args.records, "file_mb": round(os.path.getsize(path) / 2**20, 1),
                         "build_s": round(time.perf_counter() - t0, 1)}
        seconds, check = timed(lambda: check_journal(path, signer, full=False), repeat=3)
        assert check.ok, check
        results["check_signed_anchor_s"] = round(seconds, 3)
        seconds, check = timed(lambda: check_journal(path, signer))
        assert check.ok, check
        results["check_with_full_walk_s"] = round(seconds, 2)
        seconds, report = timed(lambda: verify(path, signer))
        assert report.ok and report.signed_seq, report
        results["verify_signed_s"] = round(seconds, 2)
        head = signer.sign(1, "0" * 64)
        results["ed25519_sign_us"] = round(timed(lambda: signer.sign(1, "0" * 64), repeat=200)[0] * 1e6, 1)
        results["ed25519_verify_us"] = round(timed(lambda: signer.problem(head), repeat=200)[0] * 1e6, 1)
        if not args.skip_daemon:
            empty = directory / "empty.sqlite"
            results["daemon_empty_journal"] = daemon_start(directory, empty, key, 100_000, 0, "empty")
            results["daemon_walk_in_background"] = daemon_start(directory, path, key, min(100_000, args.records // 2),
                                                                    args.records, "background")
            results["daemon_walk_before_dealing"] = daemon_start(directory, path, key, 10 * args.records, args.records,
                                                                     "before")
    finally:
        shutil.rmtree(directory)
    if args.json:
        json.dump(results, sys.stdout)
        print()
    else:
        for name, value in results.items():
            print(f"{name:>28}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What checking outside JSON's size and depth costs before it is parsed (controller.bounded_json).

    python3 bench/bench_bounded_json.py [--repeat 7]

The pit checks every message it receives: the messages here are a `record` message as the
feed sends it, one record and a batch of 100 (the feed's records_per_message), written from
realistic result records, plus a batch whose every record holds brackets inside its strings
(the slower path) and poison (1 MiB nested, 1 MiB of "["). Each is timed for the check, for
orjson.loads (the pit's parser) and json.loads; best of --repeat runs of enough calls to take
about 0.2 s. Prints microseconds a message and the check's share of the pit's parse.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson  # noqa: E402

from controller.bounded_json import BoundedJSONError, check  # noqa: E402
from controller.journal import Journal  # noqa: E402

LIMIT = 1024 * 1024


def result_payload(n: int, note: str = "") -> dict:
    payload = {"round": n, "game": "fortune6", "shoe": 1, "winner": "player", "cards": ["Td", "8h", "Th", "2c", "9d", "7d"],
               "hands": {"banker": {"cards": ["8h", "2c", "7d"], "total": 7}, "player": {"cards": ["Td", "Th", "9d"], "total": 9}},
               "bets": {key: {"pays": "1:1", "result": "lose"} for key in ("banker", "player", "tie", "player_pair", "banker_pair")}}
    if note:
        payload["reason"] = note
    return payload


def messages(directory: Path) -> dict[str, bytes]:
    with Journal(directory / "journal.sqlite") as journal:
        plain = [journal.append("result", result_payload(n)).to_json() for n in range(1, 101)]
        noted = [journal.append("result", result_payload(n, "shoe [door] {opened}")).to_json() for n in range(1, 101)]
    head = {"site": "casino1", "table": "t07"}
    return {
        "one record": json.dumps({**head, **plain[0]}).encode(),
        "batch of 100": json.dumps({**head, "records": plain}).encode(),
        "batch of 100, brackets in strings": json.dumps({**head, "records": noted}).encode(),
        "poison: 1 MiB nested": b"[" * (LIMIT // 2) + b"]" * (LIMIT // 2),
        "poison: 1 MiB of [": b"[" * LIMIT,
    }


def per_call_us(fn: Callable[[], object], repeat: int) -> float:
    calls, took = 1, 0.0
    while took < 0.2:
        calls *= 2
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        took = time.perf_counter() - start
    best = took
    for _ in range(repeat - 1):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e6


def refused(fn: Callable[[bytes], object], raw: bytes) -> Callable[[], object]:
    def call() -> object:
        try:
            return fn(raw)
        except (BoundedJSONError, ValueError, RecursionError):
            return None
    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        cases = messages(Path(directory))
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'message':36} {'bytes':>9} {'check us':>9} {'orjson us':>10} {'json us':>9} {'check/orjson':>13}")
    for name, raw in cases.items():
        checked = per_call_us(refused(lambda r: check(r, max_bytes=LIMIT), raw), args.repeat)
        fast = per_call_us(refused(orjson.loads, raw), args.repeat)
        exact = per_call_us(refused(json.loads, raw), args.repeat) if not name.startswith("poison") else float("nan")
        print(f"{name:36} {len(raw):>9,} {checked:>9.1f} {fast:>10.1f} {exact:>9.1f} {checked / fast:>12.0%}")


if __name__ == "__main__":
    main()

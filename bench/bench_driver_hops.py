"""The two device hops of card -> lamp, without the loop, the table or the journal: what the
drivers and the ptys cost on their own, so the daemon's share of bench_card_to_lamp is known.

    python3 bench/bench_driver_hops.py [--cards 200] [--pace-ms 10] [--json]

Real simulator processes (`python -m firmware_bridge.sim.shoe|lights`) on ptys, the real
ShoeDriver / LightsDriver in this process, as the daemon runs them:
  - shoe -> loop: the shoe simulator writes a CARD frame (its `written_at`); the driver's
    reader thread reads it, acks it and posts a CardDrawn; a thread standing for the loop
    takes it from a queue.SimpleQueue (the daemon's inbox). Reported: written -> the
    driver's event stamp (`at`), and written -> taken by the "loop";
  - loop -> board: set_lamps() of one changed lamp on this thread (as the loop does) ->
    the lights simulator reads the frame (its `changed_at`).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import queue
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from drivers import events as ev  # noqa: E402
from drivers.lights import LightsDriver  # noqa: E402
from drivers.shoe import ShoeDriver  # noqa: E402
from firmware_bridge.enums import LampPattern  # noqa: E402
from simulation.rig.sims import Sim  # noqa: E402

WAIT = 20.0


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e6  # noqa: E731
    return {"n": len(ordered), "p50_us": round(pick(0.50)), "p99_us": round(pick(0.99)), "max_us": round(ordered[-1] * 1e6)}


def _until_up(driver) -> None:
    deadline = time.monotonic() + WAIT
    while not driver.up:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the {driver.name} driver never connected")
        time.sleep(0.01)


def shoe_hop(directory: Path, cards: int, pace: float) -> dict:
    sim = Sim("shoe", directory, "--deck-kind", "standard52", "--decks", "8", "--seed", "1")
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    taken: queue.SimpleQueue = queue.SimpleQueue()  # (event, when the "loop" took it)

    def loop() -> None:
        while (event := inbox.get()) is not None:
            if isinstance(event, ev.CardDrawn):
                taken.put((event, time.monotonic()))

    consumer = threading.Thread(target=loop, name="loop")
    consumer.start()
    driver = ShoeDriver(sim.link, inbox.put).start()
    try:
        _until_up(driver)
        to_stamp, to_loop = [], []
        for _ in range(cards):
            time.sleep(pace)
            written = sim.command("draw", n=1)["written_at"]
            event, at_loop = taken.get(timeout=WAIT)
            to_stamp.append(event.at - written)
            to_loop.append(at_loop - written)
    finally:
        driver.close()
        inbox.put(None)
        consumer.join()
        sim.stop()
    return {"written -> driver event": percentiles(to_stamp), "written -> taken by the loop": percentiles(to_loop)}


def lights_hop(directory: Path, changes: int, pace: float) -> dict:
    sim = Sim("lights", directory, "--lamps", "32")
    driver = LightsDriver(sim.link, lambda event: None).start()
    try:
        _until_up(driver)
        driver.read_back(timeout=WAIT)  # the board's picture is known: a set goes out at once
        samples = []
        for n in range(changes):
            time.sleep(pace)
            before = sim.state()["changes"]
            sent = time.monotonic()
            driver.set_lamps({n % 32: LampPattern.ON if (n // 32) % 2 == 0 else LampPattern.OFF})
            while (state := sim.state())["changes"] <= before:
                time.sleep(0.001)
            samples.append(state["changed_at"] - sent)
    finally:
        driver.close()
        sim.stop()
    return {"set_lamps -> board read it": percentiles(samples)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--pace-ms", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hops-", dir="/tmp") as directory:
        report = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
                  "shoe": shoe_hop(Path(directory), args.cards, args.pace_ms / 1000),
                  "lights": lights_hop(Path(directory), args.cards, args.pace_ms / 1000)}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"device hops, {args.cards} each, {args.pace_ms:g} ms apart ({report['machine']['cpus']} CPUs, "
          f"python {report['machine']['python']}):")
    for hop in ("shoe", "lights"):
        for what, f in report[hop].items():
            print(f"  {what:<30} p50 {f['p50_us']:>5} us  p99 {f['p99_us']:>5} us  max {f['max_us']:>6} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())

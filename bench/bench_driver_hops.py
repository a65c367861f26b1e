"""The two device hops of card -> lamp, without the loop, the table or the journal: what the
drivers and the ptys cost on their own, so the daemon's share of bench_card_to_lamp is known.

    python3 bench/bench_driver_hops.py [--cards 200] [--pace-ms 10] [--json]

Real simulator processes (`python -m firmware_bridge.sim.shoe|lights`) on ptys, the real
ShoeDriver / LightsDriver on a reactor in this thread, as the daemon runs them (the reactor
turns between cards, as the daemon's does):
  - shoe -> loop: the shoe simulator writes a CARD frame (its `written_at`); the reactor
    sees the pty readable, the driver reads it, acks it and posts a CardDrawn to a callback
    standing for the loop's inbox. Reported: written -> the driver's event stamp (`at`),
    and written -> posted;
  - loop -> board: set_lamps() of one changed lamp on this thread (as the loop does) ->
    the lights simulator reads the frame (its `changed_at`).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from drivers import events as ev  # noqa: E402
from drivers.lights import LightsDriver  # noqa: E402
from drivers.reactor import Reactor  # noqa: E402
from drivers.shoe import ShoeDriver  # noqa: E402
from firmware_bridge.enums import LampPattern  # noqa: E402
from simulation.rig.sims import Sim  # noqa: E402

WAIT = 20.0


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e6  # noqa: E731
    return {"n": len(ordered), "p50_us": round(pick(0.50)), "p99_us": round(pick(0.99)), "max_us": round(ordered[-1] * 1e6)}


def _until_up(reactor: Reactor, driver, up) -> None:
    if not reactor.run_until(up, WAIT):
        raise RuntimeError(f"the {driver.name} driver never connected")


def shoe_hop(directory: Path, cards: int, pace: float) -> dict:
    sim = Sim("shoe", directory, "--deck-kind", "standard52", "--decks", "8", "--seed", "1")
    posted: list = []  # (event, when the "loop" got it)

    def post(event) -> None:
        posted.append((event, time.monotonic()))

    with Reactor() as reactor:
        driver = ShoeDriver(sim.link, post, reactor=reactor).start()
        try:
            _until_up(reactor, driver, lambda: any(isinstance(e, ev.ShoeStatusHeard) for e, _ in posted))
            to_stamp, to_loop = [], []
            for _ in range(cards):
                reactor.run_until(lambda: False, pace)
                posted.clear()
                written = sim.command("draw", n=1)["written_at"]
                reactor.run_until(lambda: any(isinstance(e, ev.CardDrawn) for e, _ in posted), WAIT)
                event, at_loop = next((e, t) for e, t in posted if isinstance(e, ev.CardDrawn))
                to_stamp.append(event.at - written)
                to_loop.append(at_loop - written)
        finally:
            driver.close()
            sim.stop()
    return {"written -> driver event": percentiles(to_stamp), "written -> posted to the loop": percentiles(to_loop)}


def lights_hop(directory: Path, changes: int, pace: float) -> dict:
    sim = Sim("lights", directory, "--lamps", "32")
    with Reactor() as reactor:
        driver = LightsDriver(sim.link, lambda event: None, reactor=reactor).start()
        try:
            _until_up(reactor, driver, lambda: driver.connected)
            driver.read_back(timeout=WAIT)  # the board's picture is known: a set goes out at once
            samples = []
            for n in range(changes):
                reactor.run_until(lambda: False, pace)
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

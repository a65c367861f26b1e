"""The bet sensor through the real daemon: a change of chips on a space -> its `device` record
committed and fsynced (the sensor's ack is held until then, PROTOCOL.md §10.1) -> the event on
the control socket's stream, against `tablectl sim bets` on a pty (simulation.rig).

Two measures, on a 7-seat fortune6 layout (42 spaces):
  pace   --changes single changes (a chip added to a space), one at a time, each waited for:
         command -> event, p50 / p99 / max;
  burst  --burst chips put down one at a time as fast as the sensor reads them (the simulator's
         `burst`, round the spaces): the time until the stream shows every space as it ends, the
         SPACE lists that took (a change that finds the sensor's queue full goes later as the
         space's latest list), and the daemon's CPU per list (/proc stat, user + system).
Prints the machine and its load.

    python3 bench/bench_bet_sensor_daemon.py [--changes 300] [--burst 2000] [--runs 3]
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulation.rig import Rig  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def paced(rig: Rig, changes: int) -> list[float]:
    spaces = len(rig.bets.state()["layout"])
    times = []
    for n in range(changes):  # round the spaces: a space reports at most 128 chips
        mark = rig.events.mark()
        started = time.perf_counter()
        rig.bets.command("add", space=n % spaces, values="1")
        rig.events.wait_for("device", after=mark, device="bets", space=n % spaces, total=n // spaces + 1)
        times.append(time.perf_counter() - started)
    return times


def burst(rig: Rig, count: int) -> tuple[float, int, float]:
    """(seconds until the stream shows every space as it ends, SPACE lists heard, daemon CPU ms
    per list) for `count` changes at once. A change that finds the sensor's
    queue full is sent later as the space's latest list (PROTOCOL.md §10.1): lists <= changes."""
    pid = rig.started_daemon.pid
    before = {space: sum(c["value"] for c in chips) for space, chips in rig.bets.state()["spaces"].items()}
    mark, cpu = rig.events.mark(), cpu_seconds(pid)
    started = time.perf_counter()
    rig.bets.command("burst", n=count, value=5)
    final = {space: sum(c["value"] for c in chips) for space, chips in rig.bets.state()["spaces"].items()}
    changed = {space: total for space, total in final.items() if before.get(space) != total}
    lists: list[dict] = []

    def shown() -> bool:
        lists[:] = [e for e in rig.events.since(mark) if e.get("device") == "bets" and "space" in e]
        latest = {str(e["space"]): e["total"] for e in lists}
        return all(latest.get(space) == total for space, total in changed.items())

    rig.wait_until(shown, 600, f"the stream to show the {len(changed)} spaces of the burst", poll=0.01)
    seconds = time.perf_counter() - started
    return seconds, len(lists), (cpu_seconds(pid) - cpu) * 1000 / max(1, len(lists))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--burst", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for run in range(1, args.runs + 1):
        with Rig("fortune6", seed=run, bets=True, config={"journal": {"unsigned": True}}) as rig:
            rig.wait_until(lambda: rig.status()["daemon"]["devices"]["bets"]["link"] == "ok", 60, "the sensor")
            times = paced(rig, args.changes)
            seconds, lists, cpu = burst(rig, args.burst)
        print(f"run {run}: change -> event p50 {statistics.median(times) * 1000:.2f} ms, "
              f"p99 {percentile(times, 0.99) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms ({args.changes} changes); "
              f"burst of {args.burst} changes: every space on the stream as it ends after {seconds * 1000:.0f} ms, "
              f"{lists} lists, daemon CPU {cpu:.2f} ms a list; "
              f"load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The daemon's memory over many rounds: RSS of the real `tablectl run` process, sampled.

    python3 bench/bench_daemon_rss.py [--rounds 10000] [--every 500] [--seed 9] [--json]

The rig runs the simulators and the daemon; shoe after shoe (each planned by a local Table,
bench/daemon_mirror.py) is loaded into the shoe simulator, declared, burned and dealt round
by round: the dealer's commands pipelined on one control-socket connection, the round's
cards in one `draw`, the `result` event awaited. VmRSS is read from /proc/<pid>/status every
`--every` rounds. A flat curve is the goal: the start (after the first samples, once caches
are warm) and the end are reported with the whole curve.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import sys
import time

from daemon_mirror import Dealer, mirror_table, shoe_cards

from simulation.rig import Rig


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


class Pipeline:
    """Several requests in one write on one connection; their replies read back in order."""

    def __init__(self, path: str):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.reader = self.sock.makefile("rb")

    def send(self, *commands: str) -> None:
        self.sock.sendall(b"".join(json.dumps({"cmd": c}).encode() + b"\n" for c in commands))
        for command in commands:
            reply = json.loads(self.reader.readline())
            if not reply.get("ok"):
                raise RuntimeError(f"{command} refused: {reply}")

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=500, help="rounds between RSS samples")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    curve, played, shoes = [], 0, 0
    started = time.perf_counter()
    with Rig("fortune6", seed=args.seed) as rig:
        pid = rig.daemon.pid
        dealer = Dealer(mirror_table(rig.config_path))
        pipe = Pipeline(rig.socket_path)
        curve.append((0, rss_kib(pid)))
        while played < args.rounds:
            cards = shoe_cards(rig.deck_kind, rig.decks, args.seed + shoes)
            burn = sum(1 for step in dealer.shoe(cards) if step.kind == "card")
            rig.load_shoe(cards=[str(c) for c in cards])
            pipe.send("new_shoe")
            rig.draw(burn)
            shoes += 1
            while dealer.room_for_a_round(6, None) and played < args.rounds:
                count = sum(1 for step in dealer.round() if step.kind == "card")
                mark = rig.events.mark()
                pipe.send("place_bets", "no_more_bets")
                rig.shoe.command("draw", n=count)
                rig.events.wait_for("result", after=mark)
                pipe.send("confirm")
                played += 1
                if played % args.every == 0:
                    curve.append((played, rss_kib(pid)))
                    del rig.events.events[:]  # the bench's own memory: keep the event list short
        pipe.close()
        journal_mib = os.path.getsize(rig.journal_path) / 2**20
        assert rig.verify().ok
    elapsed = time.perf_counter() - started
    warm = curve[min(2, len(curve) - 1)]
    report = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
              "rounds": played, "shoes": shoes, "seconds": round(elapsed, 1), "journal_mib": round(journal_mib, 1),
              "rss_kib": curve, "start_kib": warm[1], "end_kib": curve[-1][1],
              "growth_kib": curve[-1][1] - warm[1]}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"daemon RSS over {played} fortune6 rounds ({shoes} shoes) in {report['seconds']} s, "
          f"{report['machine']['cpus']} CPUs, python {report['machine']['python']}; journal {report['journal_mib']} MiB")
    print("  rounds -> RSS KiB: " + "  ".join(f"{n}:{kib}" for n, kib in curve))
    print(f"  after {warm[0]} rounds {warm[1]} KiB, after {curve[-1][0]} rounds {curve[-1][1]} KiB: "
          f"{report['growth_kib']:+} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

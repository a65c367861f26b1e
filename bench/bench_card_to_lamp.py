"""Card -> lamp latency through the real daemon: the card frame written by the simulated shoe
to the lamp frame received by the simulated lights, separate processes over ptys, journal on.

    python3 bench/bench_card_to_lamp.py [--rounds 60] [--seed 5] [--pace-ms 20] [--json]

The shoe simulator reports when it wrote a draw's CARD frame (`written_at`) and the lights
simulator when it read the frame of its last lamp change (`changed_at`), both
time.monotonic() (CLOCK_MONOTONIC is system-wide). A local Table following the same inputs
(bench/daemon_mirror.py) says which cards change lamps and how many, so the benchmark waits
for the whole picture. Cards are dealt one at a time (`--pace-ms` apart, as a dealer would,
never pipelined). Two classes, reported apart:
  - a card that decides a result (fortune6 and fubacc): its durable `result` record is
    fsynced before the lamps are sent;
  - a card that changes lamps without a durable record (fubacc: the card completing the
    initial deal makes the awaited spot's lamp blink).
Goal: p99 <= 1 ms. The journal is on the rig's temp dir under /tmp (a real disk here).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

from daemon_mirror import Dealer, draw_planned, mirror_table, shoe_cards

from simulation.rig import Rig

DURABLE, PLAIN = "decides a result (durable fsync)", "changes lamps, no durable record"


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e6  # noqa: E731
    return {"n": len(ordered), "p50_us": round(pick(0.50)), "p99_us": round(pick(0.99)),
            "max_us": round(ordered[-1] * 1e6)} if ordered else {"n": 0}


def carry_out(rig: Rig, step, pace: float, samples: dict) -> None:
    if step.kind == "load":
        rig.load_shoe(cards=step.cards)
    elif step.kind == "press":
        answer = rig.press(step.name, **step.args)
        assert answer["ok"], answer
    elif step.kind == "decide":
        assert rig.send("decide", **step.args)["ok"]
    else:
        before = rig.lights.state()["changes"] if step.lamps_change else None
        reply = draw_planned(rig, step, pace)
        if before is not None:
            # The daemon has written the lamp frames (its card event follows them); the board
            # stamps their arrival itself, so asking a little later changes nothing measured
            # and keeps the query off the board's loop while it reads them.
            time.sleep(0.005)
            while (board := rig.lights.state())["changes"] < before + step.lamps_changed:
                time.sleep(0.002)
            samples[DURABLE if step.durable else PLAIN].append(board["changed_at"] - reply["written_at"])


def run_game(game: str, rounds: int, seed: int, pace: float) -> dict:
    samples = {DURABLE: [], PLAIN: []}
    with Rig(game, seed=seed) as rig:
        dealer = Dealer(mirror_table(rig.config_path))
        if rig.deck_per_round:
            decks = iter(range(seed * 1000, seed * 1000 + rounds + 1))
            plan = [*dealer.shoe(shoe_cards(rig.deck_kind, rig.decks, next(decks)))]
            for step in plan:
                carry_out(rig, step, pace, samples)
            for _ in range(rounds):
                carry_out(rig, dealer.load(shoe_cards(rig.deck_kind, rig.decks, next(decks))), pace, samples)
                for step in dealer.round():
                    carry_out(rig, step, pace, samples)
        else:
            for step in dealer.shoe(shoe_cards(rig.deck_kind, rig.decks, seed)):
                carry_out(rig, step, pace, samples)
            for _ in range(rounds):
                if not dealer.room_for_a_round(6, None):
                    break
                for step in dealer.round():
                    carry_out(rig, step, pace, samples)
        assert rig.verify().ok
        loop = rig.status()["daemon"]["loop_us"]
    return samples, loop


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60, help="rounds per game (fortune6: at most one shoe)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--pace-ms", type=float, default=20.0, help="pause before each card")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()}, "games": {}}
    for game in ("fortune6", "fubacc"):
        samples, loop = run_game(game, args.rounds, args.seed, args.pace_ms / 1000)
        report["games"][game] = {kind: percentiles(values) for kind, values in samples.items() if values}
        report["games"][game]["daemon loop, last inputs (us)"] = loop
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"card -> lamp through the daemon: {args.rounds} rounds a game, {args.pace_ms:g} ms between cards, "
          f"{report['machine']['cpus']} CPUs, python {report['machine']['python']}")
    for game, classes in report["games"].items():
        loop = classes.pop("daemon loop, last inputs (us)")
        for kind, figures in classes.items():
            print(f"  {game:<9} {kind:<36} n={figures['n']:<4} p50 {figures['p50_us']:>5} us  "
                  f"p99 {figures['p99_us']:>5} us  max {figures['max_us']:>6} us")
        print(f"  {game:<9} inside the daemon (last {max(v['n'] for v in loop.values())} inputs): " + ", ".join(
            f"{phase} p50 {v['p50']} p99 {v['p99']} us" for phase, v in loop.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

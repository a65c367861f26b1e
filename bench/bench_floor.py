"""The daemon against a floor that owes nothing to its code, measured alternately in one run.

    python3 bench/bench_floor.py [--runs 3] [--seed 5] [--pace-ms 20] [--json]

The floor (bench/floor_relay.py) is a single-threaded relay written from
firmware_bridge/PROTOCOL.md with the standard library alone: its own framing, CRC, acks,
retransmission, HELLO and heartbeats to the same simulated shoe, panel and lamp board on ptys;
one SQLite WAL row per shoe message, committed and fsynced before the LAMP_SET frames and before
the shoe's ack (protocol 1.2: the same durability as the daemon). The daemon is the real
`tablectl run` (simulation.rig). Both deal the same 8-deck fortune6 shoe (a local Table,
bench/daemon_mirror.py, plans it: which card decides a result, which lamps each card changes;
the floor is given that plan per draw counter), in turns (daemon, floor, daemon, floor, ...),
each turn two passes over a fresh shoe:

  - card -> lamp: one card every --pace-ms (a dealer's pace); for a card that decides a
    result, the shoe simulator's `written_at` (CARD frame written) -> the lamp board
    simulator's `changed_at` (last result lamp frame read). Goals: daemon p50 <= 1.35x the
    floor's, p99 <= 1.75x;
  - flow: each round's cards in one `draw` (as fast as the other side answers): cards over
    the time from the draw to the round's last lamp frame at the board (the dealer's
    commands between rounds are not timed). Goal: daemon >= 0.65x the floor's cards/s.

Both sides' lamp frames are waited for at the board, so neither is timed by its own report.
Besides the pooled ratios, each turn pair (the daemon's turn and the floor's turn right after
it) gives its own ratios: on a shared machine those are the figures to quote.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_card_to_lamp import percentiles
from daemon_mirror import Dealer, shoe_cards

from controller.daemon.lamps_out import WIRE_PATTERN
from controller.table import Table, lamp_ids
from simulation.rig import Rig
from simulation.rig.processes import Child, RigError
from simulation.rig.rig import BOARD_LAMPS, PANEL_BUTTONS
from simulation.rig.sims import Sim

GAME, DECKS = "fortune6", 8
WAIT = 30.0
RELAY = Path(__file__).resolve().parent / "floor_relay.py"


def plan_shoe(seed: int) -> tuple[list[str], list[list]]:
    """The shoe's cards and its steps in groups: each group is the commands before a run of
    cards, then those cards (the burn; then each round's)."""
    dealer = Dealer(Table(GAME, DECKS))
    cards = shoe_cards("standard52", DECKS, seed)
    steps = list(dealer.shoe(cards))[1:]  # without the "load" step: each side loads the cards itself
    while dealer.room_for_a_round(6, None):
        steps += dealer.round()
    groups: list[list] = [[]]
    for step in steps:
        if step.kind != "card" and groups[-1] and groups[-1][-1].kind == "card":
            groups.append([])
        groups[-1].append(step)
    return [str(c) for c in cards], groups


def floor_plan(groups: list[list]) -> tuple[dict, dict]:
    """Per draw counter: the LAMP_SET frames the floor writes ({"durable", "lamps"}) and how
    many board changes they make. The commands' lamp changes go with the next card, so the
    floor's board shows what the daemon's shows after every card."""
    ids = lamp_ids(GAME)
    board: dict[int, int] = {}
    pending: dict[int, int] = {}
    plan, changes = {}, {}
    for group in groups:
        for step in group:
            wanted = {ids[name]: int(WIRE_PATTERN[pattern]) for name, pattern in step.lamp_changes.items()}
            pending.update(wanted)
            if step.kind != "card":
                continue
            frames = {lamp: p for lamp, p in pending.items() if board.get(lamp, 0) != p}
            board.update(frames)
            pending = {}
            plan[step.counter] = {"durable": step.durable, "lamps": sorted(frames.items())}
            changes[step.counter] = len(frames)
    return plan, changes


class Board:
    """The lamp board simulator's change counter: wait for a number of changes, read their time."""

    def __init__(self, sim: Sim) -> None:
        self.sim = sim
        self.expected = sim.state()["changes"]

    def expect(self, more: int) -> None:
        self.expected += more

    def settled(self) -> float | None:
        """Wait until the board has made every expected change; the time of the last one."""
        deadline = time.monotonic() + WAIT
        while (state := self.sim.state())["changes"] < self.expected:
            if time.monotonic() > deadline:
                raise RigError(f"the lamp board made {state['changes']} of {self.expected} changes")
            time.sleep(0.002)
        return state["changed_at"]


class DaemonSide:
    name = "daemon"

    def __init__(self, seed: int) -> None:
        self.rig = Rig(GAME, seed=seed).start()
        self.rig.wait_lamps()
        self.board = Board(self.rig.lights)
        self.shoe = self.rig.shoe

    def command(self, step) -> None:
        answer = self.rig.send(step.name, **step.args)
        assert answer["ok"], answer
        self.board.expect(step.lamps_changed)

    def card_changes(self, step) -> int:
        return step.lamps_changed

    def close(self) -> None:
        assert self.rig.verify().ok
        self.rig.stop()


class FloorSide:
    name = "floor"

    def __init__(self, seed: int, plan: dict, changes: dict) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="floor-", dir="/tmp"))
        self.sims = {}
        self.relay = None
        try:
            self.sims["shoe"] = Sim("shoe", self.dir, "--deck-kind", "standard52", "--decks", str(DECKS), "--seed", str(seed))
            self.sims["panel"] = Sim("panel", self.dir, "--buttons", str(PANEL_BUTTONS))
            self.sims["lights"] = Sim("lights", self.dir, "--lamps", str(BOARD_LAMPS))
            (self.dir / "plan.json").write_text(json.dumps(plan))
            self.relay = Child("floor", [sys.executable, str(RELAY), "--journal", str(self.dir / "floor.sqlite"),
                                         "--plan", str(self.dir / "plan.json"),
                                         *[f"--{k}={self.dir / k}" for k in ("shoe", "panel", "lights")]], self.dir)
            deadline = time.monotonic() + WAIT
            while not self.relay.stdout_path.read_text().endswith("\n"):
                if not self.relay.running or time.monotonic() > deadline:
                    raise RigError(f"the floor relay did not come up: {self.relay.output()}")
                time.sleep(0.01)
        except BaseException:
            self.close()
            raise
        self.changes = changes
        self.board = Board(self.sims["lights"])
        self.shoe = self.sims["shoe"]

    def command(self, step) -> None:
        """The floor takes no commands: their lamps go with the next card (floor_plan)."""
        return None

    def card_changes(self, step) -> int:
        return self.changes[step.counter]

    def close(self) -> None:
        if self.relay is not None:
            self.relay.stop()
        for sim in self.sims.values():
            sim.stop()


def run_shoe(side, cards: list[str], groups: list[list], pace: float | None) -> dict:
    """Deal the planned shoe: card by card at `pace` (latency), or each group's cards in one
    draw (pace None: flow). Returns the latency samples or the flow figures."""
    side.shoe.command("load", cards=" ".join(cards))
    latencies, flow_cards, flow_s = [], 0, 0.0
    for group in groups:
        for step in group:
            if step.kind != "card":
                side.command(step)
        side.board.settled()
        dealt = [step for step in group if step.kind == "card"]
        if not dealt:  # the last round's confirm
            continue
        if pace is None:
            started = time.monotonic()
            side.shoe.command("draw", n=len(dealt))
            for step in dealt:
                side.board.expect(side.card_changes(step))
            last = side.board.settled()
            if dealt[-1].durable:  # a round: its result is the last lamp frame
                flow_cards += len(dealt)
                flow_s += last - started
            continue
        for step in dealt:
            time.sleep(pace)
            reply = side.shoe.command("draw", n=1)
            side.board.expect(side.card_changes(step))
            if step.durable:
                latencies.append(side.board.settled() - reply["written_at"])
    side.board.settled()
    if pace is None:
        return {"cards": flow_cards, "seconds": round(flow_s, 3), "cards_per_s": round(flow_cards / flow_s)}
    return {"deciding": latencies}


def one_turn(side_factory, cards, groups, pace) -> dict:
    side = side_factory()
    try:
        latency = run_shoe(side, cards, groups, pace)["deciding"]
    finally:
        side.close()
    side = side_factory()
    try:
        flow = run_shoe(side, cards, groups, None)
    finally:
        side.close()
    return {"latency": latency, "flow": flow}


GOALS = {"card_to_lamp_p50": 1.35, "card_to_lamp_p99": 1.75, "flow": 0.65}  # daemon / floor


def pair_ratios(daemon: dict, floor: dict) -> dict:
    """One turn pair's daemon / floor: latency percentiles and flow cards/s."""
    return {"card_to_lamp_p50": round(daemon["card_to_lamp"]["p50_us"] / floor["card_to_lamp"]["p50_us"], 2),
            "card_to_lamp_p99": round(daemon["card_to_lamp"]["p99_us"] / floor["card_to_lamp"]["p99_us"], 2),
            "flow": round(daemon["flow"]["cards_per_s"] / floor["flow"]["cards_per_s"], 2)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="turns of each side")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--pace-ms", type=float, default=20.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load_before = [round(x, 2) for x in os.getloadavg()]
    cards, groups = plan_shoe(args.seed)
    plan, changes = floor_plan(groups)
    sides = {"daemon": lambda: DaemonSide(args.seed), "floor": lambda: FloorSide(args.seed, plan, changes)}
    turns: dict[str, list] = {"daemon": [], "floor": []}
    for _ in range(args.runs):
        for name, factory in sides.items():
            turns[name].append(one_turn(factory, cards, groups, args.pace_ms / 1000))
    report: dict = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                "load_before": load_before, "load": [round(x, 2) for x in os.getloadavg()]},
                    "shoe": {"cards": len(cards), "rounds": sum(1 for g in groups if g and g[-1].kind == "card") - 1}, "sides": {}}
    for name, runs in turns.items():
        report["sides"][name] = {
            "runs": [{"card_to_lamp": percentiles(run["latency"]), "flow": run["flow"]} for run in runs],
            "card_to_lamp": percentiles([s for run in runs for s in run["latency"]]),
            "flow_cards_per_s": round(statistics.median(run["flow"]["cards_per_s"] for run in runs))}
    daemon, floor = report["sides"]["daemon"], report["sides"]["floor"]
    report["ratios"] = {
        "card_to_lamp_p50": round(daemon["card_to_lamp"]["p50_us"] / floor["card_to_lamp"]["p50_us"], 2),
        "card_to_lamp_p99": round(daemon["card_to_lamp"]["p99_us"] / floor["card_to_lamp"]["p99_us"], 2),
        "flow": round(daemon["flow_cards_per_s"] / floor["flow_cards_per_s"], 2)}
    report["pairs"] = [pair_ratios(d, f) for d, f in zip(daemon["runs"], floor["runs"])]
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"daemon vs floor, {args.runs} turns each, alternately: {GAME} {len(cards)}-card shoe, "
          f"{args.pace_ms:g} ms between cards; {report['machine']['cpus']} CPUs, python {report['machine']['python']}, "
          f"load {report['machine']['load_before']} before, {report['machine']['load']} after")
    for name, side in report["sides"].items():
        c = side["card_to_lamp"]
        print(f"  {name:<6} deciding card -> result lamp: n={c['n']} p50 {c['p50_us']} us  p99 {c['p99_us']} us  "
              f"max {c['max_us']} us;  flow {side['flow_cards_per_s']} cards/s "
              f"(runs: {', '.join(str(r['flow']['cards_per_s']) for r in side['runs'])})")
    r = report["ratios"]
    print(f"  daemon / floor, pooled: p50 {r['card_to_lamp_p50']}x (goal <= {GOALS['card_to_lamp_p50']}), "
          f"p99 {r['card_to_lamp_p99']}x (goal <= {GOALS['card_to_lamp_p99']}), flow {r['flow']}x (goal >= {GOALS['flow']})")
    for key in GOALS:
        print(f"  per turn pair, {key}: {', '.join(f'{pair[key]}x' for pair in report['pairs'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A whole 8-deck shoe replayed through the real daemon as fast as it accepts.

    python3 bench/bench_shoe_replay.py [--seed 3] [--shoes 2] [--json]

The rig starts the simulators and `tablectl run` (journal on, sync "always"). A local
Table following the same inputs (bench/daemon_mirror.py) plans the shoe: the burn, then
every round's cards. Per round the dealer's commands go over the control socket
(place_bets, no_more_bets), the shoe simulator deals the round's cards back to back in one
`draw`, the benchmark waits for the daemon's `result` event, then confirms. Reported:
  - cards/s over the whole shoe (every card, command, result and settlement included);
  - cards/s while cards flow: a round's cards over the time from its draw to its result
    event (the daemon's acceptance rate for cards; goal >= 5,000 cards/s);
  - the loop alone, for where the ceiling is: the daemon's EventLoop on its reactor in this
    process with the real Table, journal (same disk) and control socket (no subscriber), its
    inbox filled beforehand with the shoe's driver events (no ptys, no drivers, no dealer
    waits; goal >= 5,000 cards/s).
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from daemon_mirror import Dealer, mirror_table, shoe_cards

from controller.control import ControlServer
from controller.daemon.inbox import Inbox
from controller.daemon.lamps_out import LampOutput
from controller.daemon.loop import EventLoop, Stop
from controller.journal import Journal
from controller.logs import configure_logging
from controller.sdnotify import Notifier
from controller.table import Table, button_map
from drivers import events as ev
from drivers.reactor import Reactor
from simulation.rig import Rig


def plan_shoe(dealer: Dealer, cards) -> tuple[int, list[int]]:
    """(burn cards, cards of each round) for one shoe, from the mirror."""
    steps = list(dealer.shoe(cards))
    burn = sum(1 for step in steps if step.kind == "card")
    rounds = []
    while dealer.room_for_a_round(6, None):
        rounds.append(sum(1 for step in dealer.round() if step.kind == "card"))
    return burn, rounds


def replay_shoe(rig: Rig, dealer: Dealer, seed: int) -> dict:
    cards = shoe_cards(rig.deck_kind, rig.decks, seed)
    burn, rounds = plan_shoe(dealer, cards)
    rig.load_shoe(cards=[str(c) for c in cards])
    started = time.perf_counter()
    assert rig.send("new_shoe")["ok"]
    rig.draw(burn)
    flowing = 0.0
    for count in rounds:
        mark = rig.events.mark()
        assert rig.send("place_bets")["ok"] and rig.send("no_more_bets")["ok"]
        drawn_at = time.perf_counter()
        rig.shoe.command("draw", n=count)
        result = rig.events.wait_for("result", after=mark)
        flowing += time.perf_counter() - drawn_at
        assert len(result["cards"]) == count, (result, count)
        assert rig.send("confirm")["ok"]
    elapsed = time.perf_counter() - started
    dealt = sum(rounds)
    return {"cards": burn + dealt, "rounds": len(rounds), "seconds": round(elapsed, 3),
            "cards_per_s": round((burn + dealt) / elapsed), "flowing_cards_per_s": round(dealt / flowing)}


class _Board:
    """The lamp board stands in here: the loop's ceiling is measured without the pty hop."""

    writes = 0

    def __init__(self):
        self.desired = {}

    def set_lamps(self, lamps):
        self.desired.update(lamps)
        self.writes += 1

    def all_off(self):
        self.writes += 1


def loop_alone(seed: int) -> dict:
    configure_logging("json", "info", stream=open(os.devnull, "w"))
    logging.getLogger("transitions").setLevel(logging.WARNING)  # as the daemon runs it
    dealer = Dealer(Table("fortune6", 8))
    steps = [*dealer.shoe(shoe_cards("standard52", 8, seed))]
    while dealer.room_for_a_round(6, None):
        steps += dealer.round()
    ids = {button.command: button.id for button in button_map("fortune6").values()}
    with tempfile.TemporaryDirectory(dir="/tmp") as directory:
        journal = Journal(Path(directory) / "journal.sqlite")
        inbox = Inbox(Reactor())  # as the daemon wires it (controller/daemon/app.py)
        server = ControlServer(Path(directory) / "control.sock", inbox.post, reactor=inbox.reactor).start()
        loop = EventLoop(Table("fortune6", 8), journal, LampOutput(_Board(), "fortune6"), Notifier(None),
                         inbox=inbox, publish=server.publish)
        for step in steps:
            if step.kind == "press":
                loop.post(ev.ButtonPressed(device="panel", at=time.monotonic(), button=ids[step.name]))
            elif step.kind == "card":
                loop.post(ev.CardDrawn(device="shoe", at=time.monotonic(), code=step.card.code,
                                       draw_counter=step.counter, device_time=0))
        loop.post(Stop("replayed"))
        started = time.perf_counter()
        assert loop.run() == "replayed"
        elapsed = time.perf_counter() - started
        server.stop()
        journal.close()
        loop.reactor.close()
    cards = sum(1 for step in steps if step.kind == "card")
    return {"cards": cards, "seconds": round(elapsed, 3), "cards_per_s": round(cards / elapsed)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--shoes", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    shoes = []
    with Rig("fortune6", seed=args.seed) as rig:
        dealer = Dealer(mirror_table(rig.config_path))
        for n in range(args.shoes):
            shoes.append(replay_shoe(rig, dealer, args.seed + n))
        assert rig.verify().ok
        loop = rig.status()["daemon"]["loop_us"]
    report = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()}, "shoes": shoes,
              "daemon_loop_us": loop, "loop_alone": loop_alone(args.seed)}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"8-deck fortune6 shoes replayed through the daemon ({report['machine']['cpus']} CPUs, "
          f"python {report['machine']['python']}):")
    for shoe in shoes:
        print(f"  {shoe['cards']} cards, {shoe['rounds']} rounds in {shoe['seconds']} s: "
              f"{shoe['cards_per_s']} cards/s overall, {shoe['flowing_cards_per_s']} cards/s while cards flow")
    print("  inside the daemon (last 256 inputs): " + ", ".join(
        f"{phase} p50 {v['p50']} p99 {v['p99']} us" for phase, v in loop.items()))
    alone = report["loop_alone"]
    print(f"  the loop alone, inbox filled beforehand: {alone['cards']} cards in {alone['seconds']} s: "
          f"{alone['cards_per_s']} cards/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

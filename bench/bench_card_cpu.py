"""CPU per card on the daemon's card path: link -> driver -> inbox -> table -> commit -> lamps -> ack.

    python3 bench/bench_card_cpu.py [--seed 3] [--json] [--profile 25]

Wall-clock latency on a shared machine says more about the neighbours than about the code;
CPU time and call counts do not. This runs the daemon's parts as `tablectl run` wires them,
in this process on one reactor: the real ShoeDriver (durable acks), PanelDriver and
LightsDriver on ptys to the shoe, panel and lamp board simulators (separate processes, so
their CPU is not counted), the EventLoop with the real Table (fortune6, 8 decks) and a
journal under /tmp (the daemon's default sync, "always": every commit is fsynced, as a card's
is in any mode). A local Table (bench/daemon_mirror.py) plans one whole shoe: the burn, then
every round's cards, each drawn alone as a dealer would; the dealer's commands are the panel
simulator's button clicks.

Per card, a window opens once the shoe simulator has written the CARD frame and closes when
the loop has committed its records, shown its lamps and acknowledged it to the shoe
(everything a card makes the daemon do before it is idle again). Reported:
  - `cpu_us`: time.process_time() spent in the windows (user + system of this process:
    the fsync's own CPU counts, its wait for the disk does not), p50 / mean per card, for
    all cards and for the cards that decide a result;
  - `calls_per_card`: Python and C function calls in the windows (sys.setprofile), on a
    second shoe dealt the same way (the counting costs time, so it is a pass of its own).
    Deterministic up to how the reactor's turns fall (heartbeats): the figure to compare
    between versions on a loaded machine;
  - `shoe_cpu_us_per_card`: the first shoe's whole process CPU (commands, heartbeats, the
    lamp board's acks included) over its cards;
  - with --profile N: the N functions with the most own time in the windows (cProfile, a
    third shoe), to see where a card's time goes;
  - with --flow: one more shoe with each round's cards in one draw (bench_floor.py's flow
    pass): CPU per round, and `Table.handle`'s own time for the round's first card and for
    the others, against the same inputs handled back to back by the local Table that plans
    the shoe (hot: what the same code costs when nothing else ran in between).
"""
from __future__ import annotations

import argparse
import cProfile
import json
import logging
import os
import platform
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from daemon_mirror import Dealer, shoe_cards

from controller.config import default_config
from controller.daemon.inbox import Inbox
from controller.daemon.lamps_out import LampOutput
from controller.daemon.loop import EventLoop
from controller.journal import Journal
from controller.logs import configure_logging
from controller.sdnotify import Notifier
from controller.table import Table, button_map
from controller.table import inputs as table_inputs
from drivers.lights import LightsDriver
from drivers.panel import PanelDriver
from drivers.reactor import Reactor
from drivers.shoe import ShoeDriver
from simulation.rig.rig import BOARD_LAMPS, PANEL_BUTTONS
from simulation.rig.sims import Sim

GAME, DECKS = "fortune6", 8
WAIT = 20.0  # seconds a step may take on a loaded machine before the bench gives up


class Calls:
    """Counts every Python and C call while installed (sys.setprofile)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, frame, event, arg) -> None:  # noqa: ANN001 - the profiler's signature
        if event == "call" or event == "c_call":
            self.count += 1


class Bench:
    def __init__(self, directory: Path, seed: int) -> None:
        self.seed = seed
        self.shoe_sim = Sim("shoe", directory, "--deck-kind", "standard52", "--decks", str(DECKS), "--seed", "1")
        self.panel_sim = Sim("panel", directory, "--buttons", str(PANEL_BUTTONS))
        self.lights_sim = Sim("lights", directory, "--lamps", str(BOARD_LAMPS))
        self.reactor = Reactor()
        inbox = Inbox(self.reactor)
        self.journal = Journal(directory / "journal.sqlite", sync=default_config().journal.sync)
        self.lights = LightsDriver(self.lights_sim.link, inbox.post, reactor=self.reactor)
        self.loop = EventLoop(Table(GAME, DECKS), self.journal, LampOutput(self.lights, GAME), Notifier(None),
                              inbox=inbox)
        self.shoe = ShoeDriver(self.shoe_sim.link, inbox.post, reactor=self.reactor, durable_acks=True)
        self.panel = PanelDriver(self.panel_sim.link, inbox.post, reactor=self.reactor)
        self.buttons = {button.command: button.id for button in button_map(GAME).values()}
        self.dealer = Dealer(Table(GAME, DECKS))
        self.loop.supervisor.start()  # READY once every device had a session, as in the daemon
        self.lights.start()
        self.shoe.start()
        self.panel.start()
        self._until(lambda: self.loop.supervisor.ready, "the devices never came up")
        self._until(lambda: self.loop.table.snapshot() is not None and not len(self.loop.inbox), "the loop never settled")
        self.reactor.run_until(lambda: False, 0.3)  # the session's status and lamp report handled

    def close(self) -> None:
        self.loop.supervisor.stop()
        self.shoe.close()
        self.panel.close()
        self.lights.close()
        self.journal.close()
        self.reactor.close()
        self.shoe_sim.stop()
        self.panel_sim.stop()
        self.lights_sim.stop()

    def _until(self, condition: Callable[[], bool], what: str) -> None:
        if not self.reactor.run_until(condition, WAIT):
            raise RuntimeError(what)

    def _settled(self, head: int) -> Callable[[], bool]:
        return lambda: self.journal.head_seq > head and not len(self.loop.inbox) and not self.loop.committer.waiting

    def press(self, name: str) -> None:
        head = self.journal.head_seq
        self.panel_sim.command("click", button=self.buttons[name])
        self._until(self._settled(head), f"{name} was not handled")
        self.reactor.run_until(lambda: False, 0.01)  # the button's release too, outside any card's window

    def card(self, before: Callable[[], None], after: Callable[[], None]) -> None:
        """Draw one card; `before`/`after` open and close its window."""
        head = self.journal.head_seq
        self.shoe_sim.command("draw", n=1)
        settled = self._settled(head)
        before()
        done = self.reactor.run_until(settled, WAIT)
        after()
        if not done:
            raise RuntimeError("a card was not handled")

    def deal_shoe(self, shoe_seed: int, before: Callable[[], None], after: Callable[[], None],
                  decided: Callable[[bool], None] = lambda decides: None) -> int:
        """One whole shoe, card by card; `after` closes a card's window, then `decided` hears
        whether that card decided a result."""
        steps = list(self.dealer.shoe(shoe_cards("standard52", DECKS, shoe_seed)))
        while self.dealer.room_for_a_round(6, None):
            steps += self.dealer.round()
        cards = 0
        for step in steps:
            if step.kind == "load":
                self.shoe_sim.command("load", cards=" ".join(step.cards))
            elif step.kind == "press":
                self.press(step.name)
            elif step.kind == "card":
                cards += 1
                self.card(before, after)
                decided(step.durable)
        return cards


def timed_shoe(bench: Bench, seed: int) -> dict:
    every: list[float] = []
    deciding: list[float] = []
    opened = [0.0]

    def before() -> None:
        opened[0] = time.process_time()

    def after() -> None:
        every.append(time.process_time() - opened[0])

    def decided(decides: bool) -> None:
        if decides:
            deciding.append(every[-1])

    started = time.process_time()
    cards = bench.deal_shoe(seed, before, after, decided)
    whole = time.process_time() - started
    us = lambda values, f: round(f(values) * 1e6, 1)  # noqa: E731
    return {"cards": cards, "deciding": len(deciding),
            "cpu_us": {"all": {"p50": us(every, statistics.median), "mean": us(every, statistics.fmean)},
                       "deciding": {"p50": us(deciding, statistics.median), "mean": us(deciding, statistics.fmean)}},
            "shoe_cpu_us_per_card": round(whole / cards * 1e6, 1)}


def counted_shoe(bench: Bench, seed: int) -> dict:
    counter = Calls()
    per_card: list[int] = []
    deciding: list[int] = []
    start = [0]

    def before() -> None:
        start[0] = counter.count
        sys.setprofile(counter)

    def after() -> None:
        sys.setprofile(None)
        per_card.append(counter.count - start[0])

    def decided(decides: bool) -> None:
        if decides:
            deciding.append(per_card[-1])

    bench.deal_shoe(seed, before, after, decided)
    return {"all": {"p50": statistics.median(per_card), "mean": round(statistics.fmean(per_card), 1)},
            "deciding": {"p50": statistics.median(deciding), "mean": round(statistics.fmean(deciding), 1)}}


class HandleTimes:
    """Wraps a Table's `handle`: the seconds each shoe card takes, by whether it is the first
    card since the last other input (a round's first) or a later one."""

    def __init__(self, table: Table) -> None:
        self.table, self.handle = table, table.handle
        self.first: list[float] = []
        self.later: list[float] = []
        self._since_other = 0
        self.on = True
        table.handle = self  # type: ignore[method-assign]

    def __call__(self, inp):  # noqa: ANN001, ANN204 - Table.handle's own signature
        started = time.perf_counter()
        effects = self.handle(inp)
        took = time.perf_counter() - started
        if type(inp) is not table_inputs.Card:
            self._since_other = 0
        elif self.on:
            (self.later if self._since_other else self.first).append(took)
            self._since_other += 1
        return effects

    def close(self) -> None:
        del self.table.handle

    def p50_us(self) -> dict:
        return {name: round(statistics.median(values) * 1e6, 1) for name, values in
                (("first", self.first), ("later", self.later)) if values}


def flow_shoe(bench: Bench, seed: int) -> dict:
    """A shoe with each round's cards drawn at once; the window of a round is its draw to the
    loop idle with every card committed, lit and acknowledged."""
    hot = HandleTimes(bench.dealer.table)
    steps = list(bench.dealer.shoe(shoe_cards("standard52", DECKS, seed)))
    while bench.dealer.room_for_a_round(6, None):
        steps += bench.dealer.round()
    hot.close()
    cold = HandleTimes(bench.loop.table)
    cold.on = False
    rounds: list[float] = []
    cards: list = []
    try:
        for step in [*steps, None]:
            if step is not None and step.kind == "card":
                cards.append(step)
                continue
            if cards:
                until = bench.journal.head_seq + 2 * len(cards)  # each card's device and card records
                bench.shoe_sim.command("draw", n=len(cards))
                cold.on, started = True, time.process_time()
                done = bench.reactor.run_until(lambda: bench.journal.head_seq >= until and not len(bench.loop.inbox)  # noqa: B023
                                               and not bench.loop.committer.waiting, WAIT)
                if "result" in cards[-1].published:  # a round's cards (not the burn's)
                    rounds.append(time.process_time() - started)
                cold.on = False
                if not done:
                    raise RuntimeError("a round's cards were not handled")
                if cards[-1].durable:
                    bench.reactor.run_until(lambda: False, 0.01)  # the settlement, outside the window
                cards = []
            if step is None:
                break
            if step.kind == "load":
                bench.shoe_sim.command("load", cards=" ".join(step.cards))
            elif step.kind == "press":
                bench.press(step.name)
    finally:
        cold.close()
    return {"rounds": len(rounds), "cpu_us_per_round_p50": round(statistics.median(rounds) * 1e6, 1),
            "handle_us_p50": {"in_the_daemon": cold.p50_us(), "back_to_back": hot.p50_us()}}


def profiled_shoe(bench: Bench, seed: int, top: int) -> list[dict]:
    profile = cProfile.Profile(time.process_time)  # CPU, as the windows are measured
    cards = bench.deal_shoe(seed, profile.enable, profile.disable)
    stats = pstats.Stats(profile)
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:top]  # type: ignore[attr-defined]
    return [{"function": f"{Path(file).name}:{line} {name}", "calls_per_card": round(calls / cards, 2),
             "own_us_per_card": round(own / cards * 1e6, 2), "cum_us_per_card": round(cum / cards * 1e6, 2)}
            for (file, line, name), (_, calls, own, cum, _) in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="also list the N costliest functions")
    parser.add_argument("--flow", action="store_true", help="also a shoe dealt a round's cards at a time")
    args = parser.parse_args(argv)
    configure_logging("json", "info", stream=open(os.devnull, "w"))  # noqa: SIM115 - for the whole run
    logging.getLogger("transitions").setLevel(logging.WARNING)  # as the daemon runs it
    with tempfile.TemporaryDirectory(prefix="card-cpu-", dir="/tmp") as directory:
        bench = Bench(Path(directory), args.seed)
        try:
            timed = timed_shoe(bench, args.seed)
            calls = counted_shoe(bench, args.seed + 1)
            profile = profiled_shoe(bench, args.seed + 2, args.profile) if args.profile else []
            flow = flow_shoe(bench, args.seed + 3) if args.flow else None
        finally:
            bench.close()
    report = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "load": [round(x, 2) for x in os.getloadavg()]},
              **timed, "calls_per_card": calls, **({"profile": profile} if profile else {}),
              **({"flow": flow} if flow else {})}
    if args.json:
        print(json.dumps(report))
        return 0
    cpu, count = report["cpu_us"], report["calls_per_card"]
    print(f"one 8-deck {GAME} shoe, card by card, through the daemon's parts in this process "
          f"({report['machine']['cpus']} CPUs, python {report['machine']['python']}, load {report['machine']['load']}):")
    print(f"  {report['cards']} cards: CPU per card p50 {cpu['all']['p50']} us, mean {cpu['all']['mean']} us; "
          f"calls per card p50 {count['all']['p50']}, mean {count['all']['mean']}")
    print(f"  {report['deciding']} deciding cards: CPU p50 {cpu['deciding']['p50']} us, mean {cpu['deciding']['mean']} us; "
          f"calls p50 {count['deciding']['p50']}, mean {count['deciding']['mean']}")
    print(f"  the whole shoe (commands, heartbeats, the board's acks): {report['shoe_cpu_us_per_card']} us CPU per card")
    if flow:
        handle = flow["handle_us_p50"]
        print(f"  {flow['rounds']} rounds drawn a round at a time: CPU per round p50 {flow['cpu_us_per_round_p50']} us; "
              f"Table.handle p50, a round's first card / the others: {handle['in_the_daemon'].get('first')} / "
              f"{handle['in_the_daemon'].get('later')} us in the daemon, {handle['back_to_back'].get('first')} / "
              f"{handle['back_to_back'].get('later')} us back to back")
    for row in profile:
        print(f"    {row['own_us_per_card']:>8} us own {row['cum_us_per_card']:>8} us cum "
              f"{row['calls_per_card']:>6} calls/card  {row['function']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

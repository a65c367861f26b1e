"""CPU per bet-sensor SPACE list and per chip on the daemon's path: link -> driver -> session ->
table -> commit (the `device` record, fsynced before the sensor's ack) -> the `space` event.

    python3 bench/bench_bet_sensor_cpu.py [--rounds 6] [--chips 20] [--json] [--profile 25]

bench/bench_card_cpu.py's daemon parts in this process (the real ShoeDriver, PanelDriver and
LightsDriver on ptys to their simulators, the EventLoop with the real Table and a journal under
/tmp), with the real BetSensorDriver (durable acks) on a pty to `python -m
firmware_bridge.sim.bets` (a separate process: its CPU is not counted), the daemon's own bet
session translating its events, and the registry holding the simulator's rack of chips (chip
tags in whole units, as bench/bench_money_daemon.py). Fortune 6, 7 seats x 6 spaces.

Every round has --chips chips laid on every space while bets are open, paid after the result
(losers collected, winners paid) and picked up after confirm. Every simulator command that
changes a space opens a window once the simulator has answered (its frames wait on the pty
until the reactor turns); it closes once the daemon has read that space as the simulator
holds it (its `space` event) with nothing left to commit: about 90 SPACE lists a round.
Reported:
  - `cpu_us_per_list` / `calls_per_list`: time.process_time() and Python + C calls
    (sys.setprofile, a pass of its own) in those windows, per SPACE list; per chip laid too;
    `user_us_per_list`: the user CPU alone (getrusage), which the load moves less;
  - with --profile N: the N functions with the most own time in the windows (cProfile);
  - `handling_us_per_list`: the daemon's own handling of a SPACE list without I/O or journal,
    for 1 chip and for --chips chips, best of 5 runs of 2,000 lists (the figure the machine's
    load moves least): messages.unpack of each frame -> BetSensorDriver._on_message -> the
    daemon's DeviceSessions.translate (the `device` record, the SpaceChips input) ->
    Table.handle (the reading against the registry, the `space` event).
"""
from __future__ import annotations

import argparse
import cProfile
import dataclasses
import json
import logging
import os
import platform
import pstats
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from bench_card_cpu import DECKS, GAME, WAIT, Calls
from bench_money_daemon import registry_rows
from daemon_mirror import Dealer, shoe_cards

from controller.control.peers import Peer
from controller.control.server import Request
from controller.daemon.inbox import Inbox
from controller.daemon.lamps_out import LampOutput
from controller.daemon.loop import EventLoop
from controller.daemon.sessions import DeviceSessions
from controller.journal import Journal
from controller.logs import configure_logging
from controller.sdnotify import Notifier
from controller.table import Table, button_map
from controller.table import inputs as i
from controller.table.settings import TableSettings
from drivers.bets import BetSensorDriver
from drivers.events import SessionUp
from drivers.lights import LightsDriver
from drivers.panel import PanelDriver
from drivers.reactor import Reactor
from drivers.shoe import ShoeDriver
from firmware_bridge.enums import DeviceKind, Msg
from firmware_bridge.messages import Chip, Hello, layout_messages, pack, space_messages, unpack
from firmware_bridge.sim.bets import game_layout
from simulation.demo.bettors import chips_for
from simulation.rig.rig import BOARD_LAMPS, PANEL_BUTTONS
from simulation.rig.sims import Sim

CHIP = 5  # the value of every chip laid
RACK = {500: 300, 100: 600, 25: 300, 5: 3000, 1: 300}  # value -> chips in the rack and the registry


class BenchRequest(Request):
    """A control-socket command posted straight into the loop's inbox (no socket: the bench's
    own setup, not measured); its answer is kept."""

    def __init__(self, cmd: str, args: dict[str, Any]) -> None:
        self.client_id, self.cmd, self.args = 0, cmd, args
        self.peer = Peer(os.getpid(), os.getuid(), os.getgid(), (), "bench")
        self.answer: dict[str, Any] | None = None

    def respond(self, result: Any) -> None:
        self.answer = {"ok": True, **result}


class Bench:
    def __init__(self, directory: Path) -> None:
        rack = directory / "chips.csv"
        rack.write_text("uid,value,set\n" + "\n".join(registry_rows(RACK)) + "\n")
        self.shoe_sim = Sim("shoe", directory, "--deck-kind", "standard52", "--decks", str(DECKS), "--seed", "1")
        self.panel_sim = Sim("panel", directory, "--buttons", str(PANEL_BUTTONS))
        self.lights_sim = Sim("lights", directory, "--lamps", str(BOARD_LAMPS))
        self.bets_sim = Sim("bets", directory, "--game", GAME, "--chips", str(rack))
        self.reactor = Reactor()
        inbox = Inbox(self.reactor)
        self.journal = Journal(directory / "journal.sqlite")
        self.events: list[dict[str, Any]] = []
        self.lights = LightsDriver(self.lights_sim.link, inbox.post, reactor=self.reactor)
        settings = dataclasses.replace(TableSettings(), chip_unit=Fraction(1))  # tags in whole units
        self.loop = EventLoop(Table(GAME, DECKS, settings), self.journal, LampOutput(self.lights, GAME), Notifier(None),
                              inbox=inbox, publish=self.events.append)
        self.shoe = ShoeDriver(self.shoe_sim.link, inbox.post, reactor=self.reactor, durable_acks=True)
        self.panel = PanelDriver(self.panel_sim.link, inbox.post, reactor=self.reactor)
        self.bets = BetSensorDriver(self.bets_sim.link, inbox.post, reactor=self.reactor, durable_acks=True)
        self.loop.sessions.watch("bets", self.bets)
        self.buttons = {button.command: button.id for button in button_map(GAME).values()}
        self.dealer = Dealer(Table(GAME, DECKS, settings))
        self.loop.supervisor.start()
        for driver in (self.lights, self.shoe, self.panel, self.bets):
            driver.start()
        self._until(lambda: self.loop.supervisor.ready, "the devices never came up")
        self._until(lambda: self.loop.table.snapshot()["money"]["sensor"] == "live", "the bet sensor's layout")
        rows = registry_rows(RACK)
        for start in range(0, len(rows), 1000):  # the command's limit
            self.command("chips_import", chips=rows[start:start + 1000])
        self.number = {(seat, bet): n for n, seat, bet in self.bets_sim.state()["layout"]}
        self.reactor.run_until(lambda: False, 0.3)

    def close(self) -> None:
        self.loop.supervisor.stop()
        for driver in (self.shoe, self.panel, self.bets, self.lights):
            driver.close()
        self.journal.close()
        self.reactor.close()
        for sim in (self.shoe_sim, self.panel_sim, self.lights_sim, self.bets_sim):
            sim.stop()

    def _until(self, condition: Callable[[], bool], what: str) -> None:
        if not self.reactor.run_until(condition, WAIT):
            raise RuntimeError(what)

    def _idle(self) -> bool:
        return not len(self.loop.inbox) and not self.loop.committer.waiting

    def command(self, cmd: str, **args: Any) -> dict[str, Any]:
        request = BenchRequest(cmd, args)
        self.loop.post(request)
        self._until(lambda: request.answer is not None and self._idle(), f"{cmd} was not answered")
        assert request.answer is not None and request.answer["ok"], request.answer
        return request.answer

    def press(self, name: str) -> None:
        head = self.journal.head_seq
        self.panel_sim.command("click", button=self.buttons[name])
        self._until(lambda: self.journal.head_seq > head and self._idle(), f"{name} was not handled")
        self.reactor.run_until(lambda: False, 0.01)  # the button's release too

    def card(self) -> None:
        head = self.journal.head_seq
        self.shoe_sim.command("draw", n=1)
        self._until(lambda: self.journal.head_seq > head and self._idle(), "a card was not handled")

    def space(self, cmd: str, seat: int, bet: str, window: Window, **fields: Any) -> None:
        """One change of a space on the simulator, in a window until the daemon has read it."""
        space = self.number[(seat, bet)]
        seen = len(self.events)
        reply = self.bets_sim.command(cmd, space=space, **fields)
        uids = [chip["uid"] for chip in reply["chips"]]
        window.open()  # the daemon's work starts when the reactor turns: the simulator's reply is not counted

        def read() -> bool:
            for event in self.events[seen:]:
                if event["event"] == "space" and event["space"] == space \
                        and [uid for uid, _ in event["chips"]] + event["foreign"] == uids:
                    return self._idle()
            return False
        done = self.reactor.run_until(read, WAIT)
        window.close(len(uids) if cmd == "add" else 0)
        if not done:
            raise RuntimeError(f"space {space} was not read")

    def round(self, chips: int, window: Window) -> None:
        for step in self.dealer.round():
            if chips and step.kind == "press" and step.name == "no_more_bets":
                for seat, bet in self.number:
                    self.space("add", seat, bet, window, values=",".join([str(CHIP)] * chips))
            if chips and step.kind == "press" and step.name == "confirm":
                self.pay(chips, window)
            if step.kind == "press":
                self.press(step.name)
            elif step.kind == "decide":
                self.command("decide", **step.args)
            elif step.kind == "card":
                self.card()
        if chips:
            for seat, bet in self.number:
                if self.bets_sim.state()["spaces"].get(str(self.number[(seat, bet)])):
                    self.space("remove", seat, bet, window)

    def pay(self, chips: int, window: Window) -> None:
        settlement = next(e for e in reversed(self.events) if e["event"] == "settlement")
        stake = chips * CHIP
        for wager in settlement["wagers"]:
            back = int(wager["back"])
            if back == 0:
                self.space("remove", wager["seat"], wager["bet"], window)
            elif back > stake:
                self.space("add", wager["seat"], wager["bet"], window,
                           values=",".join(map(str, chips_for(back - stake))))

    def new_shoe_if_needed(self, seed: int) -> None:
        if self.dealer.cards and self.dealer.room_for_a_round(6, None):
            return
        for step in self.dealer.shoe(shoe_cards("standard52", DECKS, seed)):
            if step.kind == "load":
                self.shoe_sim.command("load", cards=" ".join(step.cards or []))
            elif step.kind == "press":
                self.press(step.name)
            else:
                self.card()


class Window:
    """What the change windows add up to: lists, chips laid, and the measure's total."""

    def __init__(self, start: Callable[[], float], stop: Callable[[], float]) -> None:
        self.start, self.stop = start, stop
        self.lists = self.chips = 0
        self.total = 0.0
        self._opened = 0.0

    def open(self) -> None:
        self._opened = self.start()

    def close(self, chips: int) -> None:
        self.total += self.stop() - self._opened
        self.lists += 1
        self.chips += chips


def handling(chips: int, lists: int = 2000, repeat: int = 5) -> float:
    """Best CPU (us) a SPACE list of `chips` chips takes from its frames' payloads to the table's
    effects, in this process, nothing written anywhere (see the docstring)."""
    reactor = Reactor()
    events: list[Any] = []
    driver = BetSensorDriver("/nonexistent/bets", events.append, reactor=reactor)  # never started: no I/O
    spaces = game_layout(GAME)
    for message in layout_messages(spaces):
        driver._on_message(message, 0.0)
    settings = dataclasses.replace(TableSettings(), chip_unit=Fraction(1))
    table = Table(GAME, DECKS, settings)
    sessions = DeviceSessions(GAME, table)
    sessions.watch("bets", driver)
    rows = registry_rows(RACK)
    for start in range(0, len(rows), 1000):
        table.handle(i.Command("chips_import", {"chips": rows[start:start + 1000]}, source="socket"))
    sessions.translate(SessionUp(device="bets", at=0.0, hello=Hello(DeviceKind.BETS, boot_id=1)))
    for event in events:
        for inp in sessions.translate(event).inputs:
            table.handle(inp)
    house = [bytes.fromhex(row.split(",")[0]) for row in rows if row.endswith(f",{CHIP},bench")]
    stacks = [tuple(Chip(uid, CHIP) for uid in house[n * chips:(n + 1) * chips]) for n in range(2)]
    best = float("inf")
    for run in range(repeat):
        frames = [[(int(Msg.SPACE), pack(m)[1]) for m in space_messages(n % len(spaces), run * lists + n + 1, 0, stacks[n % 2])]
                  for n in range(lists)]
        started = time.process_time()
        for parts in frames:
            events.clear()
            for msg_type, payload in parts:
                driver._on_message(unpack(msg_type, payload), 0.0)
            for event in events:
                for inp in sessions.translate(event).inputs:
                    table.handle(inp)
        best = min(best, time.process_time() - started)
    return best / lists * 1e6


def user_seconds() -> float:
    """This process's user CPU alone: the system's part (fsync, pty reads and writes) varies
    most with the machine's load."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


class Both(Window):
    """Two windows opened and closed together."""

    def __init__(self, first: Window, second: Window) -> None:
        super().__init__(first.start, first.stop)
        self.first, self.second = first, second

    def open(self) -> None:
        self.first.open()
        self.second.open()

    def close(self, chips: int) -> None:
        self.second.close(chips)
        self.first.close(chips)


def rounds(bench: Bench, count: int, chips: int, window: Window, seed: int) -> None:
    """`count` rounds with every space wagered."""
    for n in range(count):
        bench.new_shoe_if_needed(seed * 1000 + n)
        bench.round(chips, window)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="rounds with every space wagered, per pass")
    parser.add_argument("--chips", type=int, default=20, help="chips laid on every space")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="also list the N costliest functions")
    args = parser.parse_args(argv)
    configure_logging("json", "info", stream=open(os.devnull, "w"))  # noqa: SIM115 - for the whole run
    logging.getLogger("transitions").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="bets-cpu-", dir="/tmp") as directory:
        bench = Bench(Path(directory))
        try:
            timed = Window(time.process_time, time.process_time)
            user = Window(user_seconds, user_seconds)
            both = Both(timed, user)
            rounds(bench, args.rounds, args.chips, both, args.seed)
            counter = Calls()

            def count_on() -> float:
                sys.setprofile(counter)
                return counter.count

            def count_off() -> float:
                sys.setprofile(None)
                return counter.count
            counted = Window(count_on, count_off)
            rounds(bench, max(1, args.rounds // 2), args.chips, counted, args.seed + 1)
            profile_rows: list[dict[str, Any]] = []
            if args.profile:
                profile = cProfile.Profile(time.process_time)

                def prof_on() -> float:
                    profile.enable()
                    return 0.0

                def prof_off() -> float:
                    profile.disable()
                    return 0.0
                profiled = Window(prof_on, prof_off)
                rounds(bench, max(1, args.rounds // 2), args.chips, profiled, args.seed + 2)
                stats = pstats.Stats(profile)
                rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:args.profile]  # type: ignore[attr-defined]
                profile_rows = [{"function": f"{Path(file).name}:{line} {name}",
                                 "calls_per_list": round(calls / profiled.lists, 2),
                                 "own_us_per_list": round(own / profiled.lists * 1e6, 2),
                                 "cum_us_per_list": round(cum / profiled.lists * 1e6, 2)}
                                for (file, line, name), (_, calls, own, cum, _) in rows]
        finally:
            bench.close()
    report: dict[str, Any] = {
        "handling_us_per_list": {"1": round(handling(1), 1), str(args.chips): round(handling(args.chips), 1)},
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load": [round(x, 2) for x in os.getloadavg()]},
        "chips_per_space": args.chips, "lists": timed.lists, "chips_laid": timed.chips,
        "cpu_us_per_list": round(timed.total / timed.lists * 1e6, 1),
        "user_us_per_list": round(user.total / user.lists * 1e6, 1),
        "calls_per_list": round(counted.total / counted.lists, 1),
        "calls_per_chip_laid": round(counted.total / max(1, counted.chips), 2),
        **({"profile": profile_rows} if profile_rows else {})}
    if args.json:
        print(json.dumps(report))
        return 0
    m = report["machine"]
    print(f"{GAME}, 7 seats x 6 spaces, {args.chips} chips a space, the daemon's parts in this process "
          f"({m['cpus']} CPUs, python {m['python']}, load {m['load']}):")
    print(f"  {report['lists']} SPACE lists ({report['chips_laid']} chips laid): CPU {report['cpu_us_per_list']} us "
          f"a list ({report['user_us_per_list']} us user); {report['calls_per_list']} calls a list, "
          f"{report['calls_per_chip_laid']} per chip laid")
    print("  the handling alone (frames -> driver -> session -> table, no I/O), best of 5: "
          + ", ".join(f"{k} chip(s) {v} us" for k, v in report["handling_us_per_list"].items()) + " a list")
    for row in profile_rows:
        print(f"    {row['own_us_per_list']:>8} us own {row['cum_us_per_list']:>8} us cum "
              f"{row['calls_per_list']:>6} calls/list  {row['function']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

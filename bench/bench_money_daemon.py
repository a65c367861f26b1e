"""Money through the real daemon, on ptys: the shoe, panel, lamp board and bet sensor simulated
(simulation.rig), the daemon journaling (signed, fsynced) as at a table. Fortune 6, chip
tags in whole units, the cage's chips imported.

1. confirm pressed -> mispay verdict at the lamp: 7 seats x 5 spaces x 20 chips wagered, the
   round decided and paid right but for one space; the panel's confirm button (the simulator's
   `written_at` as the press frame goes out) -> the lamp board reading the `error` lamp's fast
   blink (its `changed_at`), both CLOCK_MONOTONIC. Between samples the space is paid right
   again (the mispay clears, the lamp goes off) and wrong again.
2. A round with every space wagered (7 x 6 spaces, 20 chips each: laid while bets are open,
   paid, then picked up) against one with none, alternated A/B in one run over the same shoe:
   the daemon's CPU per round (/proc/PID/stat utime + stime, read before and after each
   round) and the card -> result-lamp latency of the card that decides the round (shoe
   `written_at` -> lamp board `changed_at`; bench/daemon_mirror.py says which card and how
   many lamp frames). The bench waits on the event stream only: no status polls in a measured round.
Prints the machine and its load.

    python3 bench/bench_money_daemon.py [--confirms 200] [--pairs 40] [--seed 1] [--pace-ms 20] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from daemon_mirror import Dealer, Step, draw_planned, mirror_table, shoe_cards  # noqa: E402

from controller.table import lamp_ids  # noqa: E402
from games.registry import get_game  # noqa: E402
from simulation.demo.bettors import Bettors, chips_for  # noqa: E402
from simulation.rig import Rig  # noqa: E402

GAME, SEATS, CHIPS, CHIP = "fortune6", range(1, 8), 20, 5
CONFIRM_SPACES = ("player", "banker", "tie", "player_pair", "banker_pair")  # 5 of a seat's 6
RACK = {500: 300, 100: 600, 25: 300, 5: 2400, 1: 300}  # value -> chips in the registry
TICKS = os.sysconf("SC_CLK_TCK")
WAIT = 120.0  # a guard against a hang on the loaded machine, not a measure


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def registry_rows(rack: dict[int, int] = RACK) -> list[str]:
    """The registry's CSV rows for `rack` (value -> chips), UIDs numbered from 047b0d00000000."""
    rows, serial = [], 0
    for value, count in rack.items():
        for _ in range(count):
            rows.append(f"047b0d{serial:08x},{value},bench")
            serial += 1
    return rows


def bench_rig(seed: int) -> Rig:
    """The rig, its bet sensor's rack the registry's chips (started by `with`; then import_chips)."""
    rig = Rig(GAME, seed=seed, bets=True, config={"money": {"chip_unit": "1"}})
    registry = rig.dir / "chips.csv"
    registry.write_text("uid,value,set\n" + "\n".join(registry_rows()) + "\n")
    rig.sim_args["bets"] = ["--chips", str(registry)]
    return rig


def import_chips(rig: Rig) -> Rig:
    rows = registry_rows()
    rig.wait_until(lambda: rig.status()["money"]["sensor"] == "live", WAIT, "the bet sensor's layout")
    for start in range(0, len(rows), 1000):
        answer = rig.send("chips_import", chips=rows[start:start + 1000])
        assert answer["ok"], answer
    return rig


class Spaces:
    """The sensor's spaces by (seat, bet), and a wait on the event stream until the daemon has
    read each space changed as the simulator holds it (its `space` events)."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.number = {(seat, bet): n for n, seat, bet in rig.bets.state()["layout"]}
        self.held: dict[int, list[str]] = {}  # space -> the UIDs a command left there, awaited

    def command(self, cmd: str, seat: int, bet: str, **fields) -> None:
        reply = self.rig.bets.command(cmd, space=self.number[(seat, bet)], **fields)
        self.held[reply["space"]] = [chip["uid"] for chip in reply["chips"]]

    def synced(self, mark: int) -> None:
        def read() -> bool:
            latest = {e["space"]: [uid for uid, _ in e["chips"]] + e["foreign"]
                      for e in self.rig.events.since(mark, "space")}
            return all(latest.get(space) == uids for space, uids in self.held.items())
        self.rig.wait_until(read, WAIT, "the daemon to read the spaces", poll=0.002)
        self.held = {}


def deal(rig: Rig, step: Step, pace: float, samples: list[float]) -> None:
    """Carry out one step of the mirror's; for the card that decides the round, its card -> lamp."""
    if step.kind == "load":
        rig.load_shoe(cards=step.cards)
        return
    if step.kind == "press":
        answer = rig.press(step.name, **step.args)
        assert answer["ok"], answer
        return
    before = rig.lights.state()["changes"] if step.durable and step.lamps_change else None
    reply = draw_planned(rig, step, pace, WAIT)
    if before is not None:
        time.sleep(0.005)  # the board stamps the frames' arrival itself: asking later changes nothing measured
        board = settled_board(rig, lambda b: b["changes"] >= before + step.lamps_changed, "the result lamps")
        samples.append(board["changed_at"] - reply["written_at"])


def settled_board(rig: Rig, shows, what: str) -> dict:
    """The lamp board's state once `shows(state)` holds (RigError after WAIT)."""
    board: dict = {}

    def done() -> bool:
        nonlocal board
        board = rig.lights.state()
        return bool(shows(board))
    rig.wait_until(done, WAIT, what, poll=0.002)
    return board


def lay_every_space(spaces: Spaces, which: tuple[str, ...] | None = None) -> None:
    for (seat, bet) in spaces.number:
        if which is None or bet in which:
            spaces.command("add", seat, bet, values=",".join([str(CHIP)] * CHIPS))


def pay(spaces: Spaces, settlement: dict) -> None:
    """What the dealer does: every space made to hold its `back` (losers collected, winners paid)."""
    owed = {(w["seat"], w["bet"]): int(w["back"]) for w in settlement["wagers"]}
    for (seat, bet), back in owed.items():
        stake = CHIPS * CHIP
        if back == 0:
            spaces.command("remove", seat, bet)
        elif back > stake:
            spaces.command("add", seat, bet, values=",".join(map(str, chips_for(back - stake))))


def ab_rounds(rig: Rig, pairs: int, seed: int, pace: float) -> dict:
    pid = rig.started_daemon.pid
    dealer = Dealer(mirror_table(rig.config_path), counter=0)
    spaces = Spaces(rig)
    shoes = iter(range(seed * 1000, seed * 1000 + 100))
    cpu: dict[str, list[float]] = {"none": [], "every": []}
    lamp: dict[str, list[float]] = {"none": [], "every": []}
    for step in dealer.shoe(shoe_cards(rig.deck_kind, rig.decks, next(shoes))):
        deal(rig, step, pace, [])
    for n in range(2 * pairs):
        kind = "every" if n % 2 else "none"
        if not dealer.room_for_a_round(6, None):
            for step in dealer.shoe(shoe_cards(rig.deck_kind, rig.decks, next(shoes))):
                deal(rig, step, pace, [])
        start, mark = cpu_seconds(pid), rig.events.mark()
        for step in dealer.round():
            if kind == "every" and step.kind == "press" and step.name == "no_more_bets":
                lay_every_space(spaces)
                spaces.synced(mark)
            if kind == "every" and step.kind == "press" and step.name == "confirm":
                pay(spaces, rig.events.wait_for("settlement", after=mark, timeout=WAIT))
                spaces.synced(mark)
            deal(rig, step, pace, lamp[kind])
        if kind == "every":  # the players pick up what stands
            for (seat, bet) in spaces.number:
                if rig.bets.state()["spaces"].get(str(spaces.number[(seat, bet)])):
                    spaces.command("remove", seat, bet)
            spaces.synced(mark)
        cpu[kind].append(cpu_seconds(pid) - start)
    return {kind: {"cpu_ms_per_round": 1000 * statistics.mean(cpu[kind]), "rounds": len(cpu[kind]),
                   "card_to_result_lamp_p50_us": round(1e6 * statistics.median(lamp[kind])),
                   "card_to_result_lamp_p99_us": round(1e6 * pct(lamp[kind], 0.99)), "lamp_samples": len(lamp[kind])}
            for kind in cpu}


def confirm_to_lamp(rig: Rig, confirms: int) -> list[float]:
    """`confirms` rounds, each with 35 spaces of 20 chips, decided and paid right but for one
    space paid over by a chip: confirm -> the error lamp blinking fast. Then the space is paid
    right, the round confirmed and the chips picked up (the error lamp stays lit for the rest
    of a round that had an irregularity: each sample is a round of its own)."""
    spaces = Spaces(rig)
    bettors = Bettors(rig, get_game(rig.game), 1)
    error = lamp_ids(GAME)["error"]
    button = rig.button_id("confirm")
    seat, bet = 1, "tie"
    times = []
    rig.new_shoe()
    for _ in range(confirms):
        if rig.status()["shoe"]["remaining"] < 20:
            rig.new_shoe()
        mark = rig.events.mark()
        rig.open_round(close_bets=False)
        lay_every_space(spaces, CONFIRM_SPACES)
        spaces.synced(mark)
        rig.press("no_more_bets")
        while rig.status()["state"] != "result":
            rig.draw(1)
        bettors.pay(rig.status())
        spaces.command("add", seat, bet, values=str(CHIP))  # paid over by a chip
        bettors.synced()
        settled_board(rig, lambda b: b["lamps"][error] != "fast_blink", "the error lamp off before confirm")
        mark = rig.events.mark()
        reply = rig.panel.command("click", button=button)
        answer = rig.events.wait_for("command", after=mark, source="panel", button=button, timeout=WAIT)
        assert not answer["ok"] and "mispaid" in answer["message"], answer
        board = settled_board(rig, lambda b: b["lamps"][error] == "fast_blink", "the error lamp to blink")
        times.append(board["changed_at"] - reply["written_at"])
        spaces.command("remove", seat, bet, n=1)  # paid right: the mispay clears, the round is confirmed
        spaces.synced(mark)
        assert rig.press("confirm")["ok"]
        mark = rig.events.mark()
        for (s, b), number in spaces.number.items():
            if rig.bets.state()["spaces"].get(str(number)):
                spaces.command("remove", s, b)
        spaces.synced(mark)
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--confirms", type=int, default=200)
    parser.add_argument("--pairs", type=int, default=40, help="A/B pairs of rounds (none, every space)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace-ms", type=float, default=20.0, help="pause before each card")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report: dict = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
                    "load_before": [round(x, 1) for x in os.getloadavg()]}
    if args.confirms:
        with bench_rig(args.seed) as rig:
            times = confirm_to_lamp(import_chips(rig), args.confirms)
        report["confirm_to_mispay_lamp_us"] = {"p50": round(1e6 * statistics.median(times)),
                                               "p99": round(1e6 * pct(times, 0.99)), "n": len(times)}
    if args.pairs:
        with bench_rig(args.seed) as rig:
            report["ab"] = ab_rounds(import_chips(rig), args.pairs, args.seed, args.pace_ms / 1000)
        none, every = report["ab"]["none"], report["ab"]["every"]
        report["ab"]["cpu_ratio"] = round(every["cpu_ms_per_round"] / none["cpu_ms_per_round"], 2)
    report["load_after"] = [round(x, 1) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['machine']}, load {report['load_before']} -> {report['load_after']}")
    if "confirm_to_mispay_lamp_us" in report:
        c = report["confirm_to_mispay_lamp_us"]
        print(f"confirm pressed -> mispay lamp (7 seats x 5 spaces x {CHIPS} chips): p50 {c['p50']} us, "
              f"p99 {c['p99']} us over {c['n']} confirms")
    if "ab" in report:
        for kind in ("none", "every"):
            r = report["ab"][kind]
            print(f"{kind:>5} space wagered: daemon CPU {r['cpu_ms_per_round']:.1f} ms a round ({r['rounds']} rounds), "
                  f"card -> result lamp p50 {r['card_to_result_lamp_p50_us']} us, p99 {r['card_to_result_lamp_p99_us']} us")
        print(f"CPU every/none: {report['ab']['cpu_ratio']}x (goal <= 1.2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The daemon SIGKILLed at random points while the shoe deals, restarted after a random delay,
rounds played on as the demo plays them (with its shoe faults): then every card the shoe drew
must be in the journal exactly once, and no round held for a card nobody heard.

    python -m simulation.kill_soak --kills 1000 --rounds 10000 --faults 0.2 --games all

A kill strikes as a card is due (the table deals or draws), one of two ways: the card is drawn
and the daemon killed 0-30 ms later (the card on the wire, in the daemon's inbox, committed
but not yet acknowledged, or acknowledged), or the daemon is killed first and the card drawn
while nobody listens (it waits in the shoe's queue, PROTOCOL.md §9). The new daemon starts after
a random delay: most delays short (up to `short_max_s`), every `long_every`-th long
(`long_min_s`..`long_max_s`, beyond the shoe's 1.25 s retry limit, so its session fails and
the card must survive that). The rounds are the demo's (simulation/demo): spots, decisions,
faults (`--faults`: the chance per round), the supervisor resolving holds.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.registry import GAME_KEYS, get_game
from simulation.demo.choices import Choices
from simulation.demo.rounds import DemoTable
from simulation.rig import Rig, RigError
from simulation.rig.dealer import CARD_STATES
from simulation.rig.events import WAIT

ROUND_WAIT = 600.0  # a guard for a whole round: a Pai Gow round may meet a dozen kills, some of 5 s


@dataclass(frozen=True)
class KillPlan:
    kills: int  # how many times the daemon is killed
    every: tuple[int, int] = (2, 8)  # a kill strikes after this many cards (random in the range)
    long_every: int = 10  # every n-th restart waits long
    short_max_s: float = 0.3
    long_min_s: float = 1.5  # beyond the shoe's retry limit (6 x 0.25 s)
    long_max_s: float = 5.0


@dataclass
class SoakResult:
    game: str
    rounds: int = 0
    kills: int = 0
    long_restarts: int = 0
    longest_restart_s: float = 0.0
    drawn: list[tuple[int, int]] = field(default_factory=list)  # (draw counter, code), as the shoe dealt them
    repeats: int = 0  # cards the shoe sent again after a kill, recognised as repeats
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"game": self.game, "rounds": self.rounds, "kills": self.kills, "long_restarts": self.long_restarts,
                "longest_restart_s": round(self.longest_restart_s, 2), "cards": len(self.drawn),
                "repeats_dropped": self.repeats, "ok": not self.problems, "problems": self.problems[:20]}


class KillingRig(Rig):
    """A rig whose every card drawn is recorded, and which kills and restarts the daemon as
    its plan says while a card is due."""

    def __init__(self, game: str, plan: KillPlan, result: SoakResult, *, seed: int, **options) -> None:
        super().__init__(game, seed=seed, **options)
        self.plan, self.result = plan, result
        self.killer = random.Random(f"{seed}:{game}:kills")
        self._until_kill = self.killer.randint(*plan.every)

    def draw(self, n: int = 1, wait: bool = True) -> list[dict]:
        self._until_kill -= 1
        if self._until_kill <= 0 and self.result.kills < self.plan.kills and self.status()["state"] in CARD_STATES:
            self._until_kill = self.killer.randint(*self.plan.every)
            return self._draw_across_a_kill(n)
        drawn = super().draw(n, wait)
        self.result.drawn += [(d["counter"], int(d["code"], 16)) for d in drawn]
        return drawn

    def finish_round(self, decide=None, timeout: float = WAIT) -> dict:
        """As the rig's, except for a round that ended across a kill: the restarted daemon may
        show the table idle after it (a void restored as closed); its end is the event list's."""
        if self.status()["state"] == "idle":
            end = next((e for e in reversed(self.events.since()) if e.get("event") in ("result", "void")), None)
            if end is not None:
                return end
        return super().finish_round(decide, max(timeout, ROUND_WAIT))  # its kills and restarts take time

    def _draw_across_a_kill(self, n: int) -> list[dict]:
        result, plan = self.result, self.plan
        result.kills += 1
        head = self.status()["daemon"]["journal"]["records"]
        if self.killer.random() < 0.5:  # the card races the kill
            drawn = self.shoe.command("draw", n=n)["drawn"]
            time.sleep(self.killer.uniform(0.0, 0.03))
            self.kill_daemon()
        else:  # the daemon is gone when the card leaves the shoe
            self.kill_daemon()
            drawn = self.shoe.command("draw", n=n)["drawn"]
        self._shoe_used = True
        result.drawn += [(d["counter"], int(d["code"], 16)) for d in drawn]
        long = result.kills % plan.long_every == 0
        delay = self.killer.uniform(plan.long_min_s, plan.long_max_s) if long else self.killer.uniform(0.0, plan.short_max_s)
        result.long_restarts += long
        result.longest_restart_s = max(result.longest_restart_s, delay)
        time.sleep(delay)
        mark = self.events.mark()
        self.start_daemon()
        if drawn:
            self._wait_journaled(drawn[-1]["counter"], head)
        self._events_missed(head, mark)
        return drawn

    def _wait_journaled(self, counter: int, head: int) -> None:
        """Until the card is in the journal (as itself, or before the kill) and the round the
        restart held for the shoe's draw counter is resumed (local ruling L4)."""
        def done() -> bool:
            status = self.status()
            if status["daemon"]["journal"]["waiting"]:
                return False
            if status["state"] == "held":  # for the counter: wait; for anything else: the round's story goes on
                return (status.get("held") or {}).get("kind") != "device_lost"
            return any(card[0] == counter for card in journaled_cards(self, head))

        self.wait_until(done, WAIT, f"card {counter} to be journaled and the round resumed after a restart")

    def _events_missed(self, head: int, mark: int) -> None:
        """A round's end the dealer waits for may have been published while nobody followed:
        by the killed daemon before the rig read it, or by the new one before the rig followed
        it. Put it in the rig's event list as the journal (or the status) has it."""
        for record in self.records(since=max(0, head - 1)):
            if record.kind in ("result", "void") and self.events.find(record.kind, round=record.round) is None:
                self.events.add({"event": record.kind, **record.payload})
        status = self.status()
        number = (status.get("round") or {}).get("number")
        if status["state"] == "held" and self.events.find("held", after=mark, round=number) is None:
            self.events.add({"event": "held", "round": number, **(status.get("held") or {})})


def journaled_cards(rig: Rig, since: int = 0) -> list[tuple[int, int]]:
    """(draw counter, code) of every card the journal holds after record `since`, in order
    (repeats not counted)."""
    return [(r.payload["draw_counter"], r.payload["code"]) for r in rig.records(since)
            if r.kind == "device" and r.payload.get("event") == "CardDrawn"]


def check(rig: Rig, result: SoakResult) -> None:
    """Every drawn card journaled exactly once, nothing else journaled as a card, no hold for an
    unheard card, and the chain verifies."""
    records = rig.records()
    result.repeats = sum(1 for r in records if r.kind == "device" and r.payload.get("event") == "DrawRepeated")
    journaled = Counter(journaled_cards(rig))
    drawn = Counter(result.drawn)
    for card, times in sorted(drawn.items()):
        if journaled[card] != times:
            result.problems.append(f"card {card[0]} (code 0x{card[1]:04x}) drawn {times}x, journaled {journaled[card]}x")
    for card in sorted(set(journaled) - set(drawn)):
        result.problems.append(f"card {card[0]} (code 0x{card[1]:04x}) journaled but never drawn")
    for r in records:
        if r.kind == "irregularity" and "unheard" in (r.payload.get("evidence") or {}):
            result.problems.append(f"round {r.round} held for an unheard card: {r.payload.get('detail')}")
    if not rig.verify().ok:
        result.problems.append("the journal's chain does not verify")


def soak_game(game: str, plan: KillPlan, *, rounds: int, faults: float, seed: int,
              shoe_protocol: str = "1.2") -> SoakResult:
    """Play at least `rounds` rounds and until the plan's kills are done; then check. A 1.1 shoe
    (`shoe_protocol`) gives up a card after its retries: the check then finds what is lost."""
    result = SoakResult(game)
    rig = KillingRig(game, plan, result, seed=seed, sim_args={"shoe": ["--protocol", shoe_protocol]})
    with rig:
        table = DemoTable(rig, Choices(seed, get_game(game), faults))
        while result.rounds < rounds or result.kills < plan.kills:
            table.play()
            result.rounds += 1
        check(rig, result)
    return result


def _share(total: int, n: int, parts: int) -> int:
    """Part `n` of `total` split as evenly as can be into `parts`."""
    return total // parts + (1 if n < total % parts else 0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m simulation.kill_soak", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="all", help="comma-separated game keys, or all (default)")
    parser.add_argument("--kills", type=int, default=1000, help="daemon kills in all (shared by the games)")
    parser.add_argument("--rounds", type=int, default=100, help="rounds at least, in all (shared by the games)")
    parser.add_argument("--faults", type=float, default=0.2, help="the chance of a shoe fault per round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--long-every", type=int, default=10, help="every n-th restart waits 1.5-5 s")
    parser.add_argument("--shoe-protocol", choices=("1.2", "1.1"), default="1.2",
                        help="1.1: a shoe that gives a card up after its retries (what this finds then)")
    options = parser.parse_args(argv)
    games = list(GAME_KEYS) if options.games == "all" else options.games.split(",")
    unknown = [g for g in games if g not in GAME_KEYS]
    if unknown or options.kills < 0 or options.rounds < 0 or not 0 <= options.faults <= 1 or options.long_every < 1:
        parser.error(f"unknown game(s) {unknown}" if unknown else "kills and rounds >= 0, faults 0..1, long-every >= 1")
    ok = True
    for n, game in enumerate(games):
        plan = KillPlan(_share(options.kills, n, len(games)), long_every=options.long_every)
        started = time.monotonic()
        try:
            result = soak_game(game, plan, rounds=_share(options.rounds, n, len(games)), faults=options.faults,
                               seed=options.seed + n, shoe_protocol=options.shoe_protocol)
        except RigError as error:
            print(json.dumps({"game": game, "ok": False, "problems": [str(error)]}), flush=True)
            ok = False
            continue
        print(json.dumps({**result.to_json(), "seconds": round(time.monotonic() - started)}), flush=True)
        ok = ok and not result.problems
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

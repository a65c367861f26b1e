"""What the integrity checks' history costs the daemon at start-up, and what the cap saves.

    python3 bench/bench_integrity_startup.py [--decks 3000] [--shoes 100] [--runs 3] [--keep DIR]

Writes two journals as the daemon writes them (the real Table's records, each input's own
`device`/`command` record before them; commits not fsynced, to build them quickly), anchored:
  - a Fu Bacc table, a fresh deck every round (one spot): --decks decks (~1,000 a day);
  - a Fortune 6 table, 8-deck shoes dealt to the cut card: --shoes shoes (~10 a day).
For each it times controller.daemon.shoe_memory.shoe_memory (what the daemon reads for the
checks: the openings of the last `integrity.history_shoes` shoes or decks, the one before whole,
the one in play) for several caps, and the real daemon's start-up (`tablectl run` against the
simulated devices: the rig's start to READY=1) with the default cap (1,000) and with none
(history_shoes = 0): the difference is what the history costs a start.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.daemon.shoe_memory import shoe_memory  # noqa: E402
from controller.journal import Journal, read_tail  # noqa: E402
from controller.table import Table  # noqa: E402
from controller.table import inputs as i  # noqa: E402
from controller.table import machine as m  # noqa: E402
from controller.table.effects import Journal as JournalEffect  # noqa: E402
from controller.table.recovery import TableRecovery  # noqa: E402
from games.cards import Card  # noqa: E402
from games.registry import get_game  # noqa: E402
from simulation.rig import Rig  # noqa: E402
from simulation.rig.rig import CUT_CARD_FROM_END  # noqa: E402
from simulation.table_dealer import deal_shoe  # noqa: E402


class Writer:
    """The table's records and each input's own, one commit per round (not fsynced)."""

    def __init__(self, journal: Journal, table: Table):
        self.journal, self.table, self.entries = journal, table, []
        self.counter = 0
        journal.append("daemon_started", {"game": table.game.key, "decks": table.decks, "pid": 0})

    def __getattr__(self, name):  # deal_shoe reads the table through the writer
        return getattr(self.table, name)

    def handle(self, inp) -> list:
        if isinstance(inp, i.Card):  # the shoe's counter runs on across shoes, as a real shoe's does
            self.counter += 1
            inp = i.Card(inp.code, self.counter, inp.double_draw, inp.misread)
            self.entries.append(("device", {"device": "shoe", "event": "CardDrawn", "code": inp.code,
                                            "draw_counter": self.counter}, None, False))
        elif isinstance(inp, i.Command):
            self.entries.append(("command", {"name": inp.name, "args": dict(inp.args), "source": "socket"}, None, False))
        effects = self.table.handle(inp)
        self.entries += [(e.kind, e.payload, None, False) for e in effects if isinstance(e, JournalEffect)]
        if len(self.entries) > 400 or self.table.state in m.ROUND_CLOSED:
            self.flush()
        return effects

    def flush(self) -> None:
        if self.entries:
            self.journal.append_many(self.entries)
            self.entries = []


def fubacc_journal(path: Path, decks: int, rng: random.Random) -> None:
    table = Table("fubacc")
    with Journal(path) as journal:
        writer = Writer(journal, table)
        writer.handle(i.Command("new_shoe"))
        deck = list(table.game.deck_kind.cards)
        for _ in range(decks):
            rng.shuffle(deck)
            cards = iter(deck)
            writer.handle(i.Command("place_bets"))
            writer.handle(i.Command("no_more_bets"))
            while table.state not in m.ROUND_CLOSED:
                if table.state == m.AWAITING:
                    awaited = table.play.awaited()
                    writer.handle(i.Command("decide", {"spot": awaited.spot, "decision": awaited.options[0]}))
                elif table.state == m.RESULT:
                    writer.handle(i.Command("confirm"))
                else:
                    writer.handle(i.Card(next(cards).code))
            assert table.state == m.SETTLED and not table.integrity.blocked, table.snapshot()["integrity"]
        writer.flush()
        journal.anchor()


def fortune6_journal(path: Path, shoes: int, rng: random.Random) -> None:
    table = Table("fortune6")
    with Journal(path) as journal:
        writer = Writer(journal, table)
        shoe: list[Card] = list(table.game.deck_kind.cards) * 8
        for _ in range(shoes):
            rng.shuffle(shoe)
            deal_shoe(writer, shoe, cut_at=len(shoe) - CUT_CARD_FROM_END)
            assert not table.integrity.blocked
        writer.flush()
        journal.anchor()


def time_memory(path: Path, game: str, decks: int, keep: int, runs: int) -> tuple[float, int]:
    with Journal(path) as journal:
        number = TableRecovery.from_tail(read_tail(journal)).shoe
        times, shoes = [], 0
        for _ in range(runs):
            start = time.perf_counter()
            memory = shoe_memory(journal, game, decks, number.number if number else None, keep)
            times.append(time.perf_counter() - start)
            shoes = memory.history.shoes
    return statistics.median(times), shoes


def daemon_start(source: Path, game: str, keep: int, runs: int) -> float:
    """Median seconds from starting the rig (the three simulators, then `tablectl run`) to the
    daemon's READY=1, on a copy of the journal."""
    times = []
    for _ in range(runs):
        directory = Path(tempfile.mkdtemp(prefix="bench-start-", dir="/tmp"))
        for name in os.listdir(source):
            if name.startswith("journal.sqlite"):
                shutil.copy2(source / name, directory / name)
        rig = Rig(game, seed=1, directory=directory, config={"integrity": {"history_shoes": keep}})
        try:
            started = time.monotonic()
            rig.start()
            times.append(time.monotonic() - started)
        finally:
            rig.stop()
            shutil.rmtree(directory, ignore_errors=True)
    return statistics.median(times)


def measure(directory: Path, game: str, count: int, build, rng: random.Random, runs: int) -> None:
    decks = get_game(game).default_decks
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "journal.sqlite"
    if not path.exists():
        started = time.perf_counter()
        build(path, count, rng)
        print(f"{game}: wrote {count} {'decks' if decks == 1 else 'shoes'} in {time.perf_counter() - started:.1f} s, "
              f"{path.stat().st_size / 2**20:.0f} MiB")
    for keep in sorted({0, 100, 1000, count}):
        seconds, shoes = time_memory(path, game, decks, keep, runs)
        print(f"  shoe_memory, history_shoes {keep:>6}: {seconds * 1000:8.1f} ms ({shoes} in the history; "
              f"{seconds / max(shoes, 1) * 1000:.2f} ms each)")
    for keep in (0, 1000):
        print(f"  rig and daemon start to READY, history_shoes {keep:>5}: {daemon_start(directory, game, keep, runs):.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=3000)
    parser.add_argument("--shoes", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="build the journals here and keep them (default: a temp dir)")
    args = parser.parse_args()
    work = Path(args.keep or tempfile.mkdtemp(prefix="bench-integrity-", dir="/tmp"))
    print(f"CPython {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; journals in {work}")
    rng = random.Random(7)
    measure(work / "fubacc", "fubacc", args.decks, fubacc_journal, rng, args.runs)
    measure(work / "fortune6", "fortune6", args.shoes, fortune6_journal, rng, args.runs)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

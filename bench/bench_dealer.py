"""The dealer page's two figures, on a full table: 7 seats x 5 spaces wagered, 20 chips each.

1. The server's work per record: `Desk.apply` of the round's settlement (35 payouts) and of a
   mispay, each followed by `Desk.desk_json()` (what is serialized and sent), `--repeat` times;
   the same for a Fortune 7 round banked by a player-dealer, played by a real Table (a bank of
   1000 and six seats x 5 spaces by command, schedule option 9): its `wagers` record (with the
   fees) and its `settlement` (30 wagers, the bank's walk).
2. Mispay journaled -> update received: `tablectl dealer` as its own process follows a real
   journal and control socket (ControlServer here, publishing as the daemon does); for each of
   `--mispays` mispay records, the time from just before the journal's append to the SSE
   update for that record read by a client here: journal commit -> follower woken by the
   event -> desk folded and serialized -> SSE. After each 35 mispays the round is settled and
   a new one dealt, so that no round holds more alerts than it has spaces.

    python3 bench/bench_dealer.py [--repeat 500] [--mispays 200] [--json]
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "services" / "scoreboard"))
sys.path.insert(0, str(ROOT / "tests" / "services" / "dealer"))
sys.path.insert(0, str(ROOT / "tests" / "controller" / "table"))

from california_script import BankedTable  # noqa: E402
from kiosk import EventReader  # noqa: E402
from money_script import MoneyTable, stakes_of  # noqa: E402
from test_dealer_page import DealerProcess, Table  # noqa: E402

from controller.journal import Journal, iter_records, open_readonly  # noqa: E402
from games.cards import parse_cards  # noqa: E402
from games.money import MoneyRules, settle  # noqa: E402
from games.registry import get_game  # noqa: E402
from games.replay import run_round  # noqa: E402
from services.dealer.desk import Desk  # noqa: E402

SPACES = ("player", "banker", "tie", "player_pair", "banker_pair")
STAKE = 100  # 20 chips of 5 on every space


def full_table(table: MoneyTable):
    """A fortune6 round with every space of every seat wagered, to its result and settlement."""
    game = get_game("fortune6")
    stakes = stakes_of([f"{seat}:{bet}={STAKE}" for seat in range(1, 8) for bet in SPACES])
    _, result = run_round(game, parse_cards("2s 3h Kd 3c 9s".split()))
    table.open()
    table.wagers(stakes)
    return table.result(result.to_json(), settle(game, result, stakes, MoneyRules()))


def summary(times_ms: list[float]) -> dict:
    times_ms.sort()
    return {"n": len(times_ms), "p50_ms": round(statistics.median(times_ms), 3),
            "p99_ms": round(times_ms[min(len(times_ms) - 1, int(len(times_ms) * 0.99))], 3)}


def fold_figures(repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        table = Table(Path(directory))
        try:
            full_table(table.money)
            table.money.mispay(1, "banker", expected="200", found="195")
            with open_readonly(table.journal.path) as conn:
                records = list(iter_records(conn, 0))
        finally:
            table.close()
    *before, settlement, mispay = records
    figures = {}
    for name, record in (("settlement", settlement), ("mispay", mispay)):
        times = []
        for _ in range(repeat):
            desk = Desk("fortune6")
            for earlier in before:
                desk.apply(earlier)
            if record is mispay:
                desk.apply(settlement)
            started = time.perf_counter()
            desk.apply(record)
            text = json.dumps(desk.desk_json(), separators=(",", ":"))
            times.append((time.perf_counter() - started) * 1e3)
        figures[f"fold_and_serialize_{name}"] = {**summary(times), "bytes": len(text)}
    return figures


BANKED = {1: ("bank=1000",), **{seat: ("player=100", "banker=100", "tie=25", "one_up=25", "fortune7=25")
                                  for seat in range(2, 8)}}


def banked_fold_figures(repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        with Journal(Path(directory) / "journal.sqlite") as journal:
            table = BankedTable(journal, option=9)
            table.bets(BANKED)
            table.deal()
            with open_readonly(journal.path) as conn:
                records = list(iter_records(conn, 0))
    wagers = next(n for n, r in enumerate(records) if r.kind == "wagers")
    settlement = next(n for n, r in enumerate(records) if r.kind == "settlement")
    figures = {}
    for name, at in (("banked_wagers", wagers), ("banked_settlement", settlement)):
        times = []
        for _ in range(repeat):
            desk = Desk("fortune7")
            for earlier in records[:at]:
                desk.apply(earlier)
            started = time.perf_counter()
            desk.apply(records[at])
            text = json.dumps(desk.desk_json(), separators=(",", ":"))
            times.append((time.perf_counter() - started) * 1e3)
        assert not desk.problems, desk.problems
        figures[f"fold_and_serialize_{name}"] = {**summary(times), "bytes": len(text)}
    return figures


def live_figures(mispays: int) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        table = Table(Path(directory))
        page = DealerProcess(table.config, directory=directory)
        try:
            full_table(table.money)
            reader = EventReader(page.host, page.port)
            reader.next_update()  # the snapshot
            times = []
            for n in range(mispays):
                if n and n % len(SPACES * 7) == 0:  # a round has at most one mispay a space: the next round
                    table.money.settled()
                    full_table(table.money)
                started = time.perf_counter()
                record = table.money.mispay(1 + n % 7, SPACES[n % 5], expected="200", found=str(195 - n % 3))
                while int(reader.next_update()[0]) < record.seq:
                    pass
                times.append((time.perf_counter() - started) * 1e3)
            reader.close()
        finally:
            page.stop()
            table.close()
    return {"mispay_journaled_to_update_received": summary(times)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=500)
    parser.add_argument("--mispays", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
               "load_average": os.getloadavg()[0], **fold_figures(args.repeat), **banked_fold_figures(args.repeat),
               **live_figures(args.mispays)}
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

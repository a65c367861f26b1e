"""Money in the pure table: the payout check's verdict, and a round's CPU with every space wagered.

    python3 bench/bench_table_money.py [--rounds 200] [--confirms 2000] [--seed 1]

1. confirm -> mispay verdict: a Fortune 7 table, 7 seats x 5 spaces x 20 chips each, the result
   shown and one space mispaid; each `confirm` is one Table.handle (the check of all 35 spaces,
   the mispay record, the refusal, the lamp picture): its latency p50/p99. The space's reading
   alternates between two wrong amounts so every confirm journals a fresh mispay.
2. CPU per round, every space wagered against none: whole rounds (place bets, the spaces read,
   no more bets, the cards, the payouts read, confirm) through Table.handle, process CPU time
   per round; the ratio is the table's share of the daemon's goal (<= 1.2x).
"""
from __future__ import annotations

import argparse
import pathlib
import platform
import random
import statistics
import sys
import time
from fractions import Fraction

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from controller.table import inputs as i  # noqa: E402
from controller.table import machine as m  # noqa: E402
from controller.table.effects import Journal  # noqa: E402
from controller.table.table import Table  # noqa: E402

GAME, SEATS, CHIPS = "fortune7", tuple(range(1, 8)), 20


class Layout:
    def __init__(self, table):
        self.table = table
        self.spaces = {(seat, bet): n for n, (seat, bet) in enumerate((s, b) for s in SEATS for b in table.game.wagers)}
        self.serial = 0
        table.handle(i.BetLayoutHeard(tuple((n, s, b) for (s, b), n in self.spaces.items())))

    def chips(self, count: int, tag: int) -> tuple[tuple[str, int], ...]:
        out = []
        for _ in range(count):
            self.serial += 1
            out.append((f"04{self.serial:012x}", tag))
        return tuple(out)

    def read(self, seat: int, bet: str, chips: tuple[tuple[str, int], ...]) -> None:
        self.table.handle(i.SpaceChips(self.spaces[(seat, bet)], seat, bet, chips))


def shoe_cards(table: Table, rng: random.Random) -> list[str]:
    cards = [str(card) for card, n in table.shoe.composition.items() for _ in range(n)]
    rng.shuffle(cards)
    return cards


class CpuTable:
    """The real Table; adds up the process CPU time of its handle() calls only."""

    def __init__(self, table: Table):
        self.table, self.cpu = table, 0.0

    def handle(self, inp):
        start = time.process_time()
        effects = self.table.handle(inp)
        self.cpu += time.process_time() - start
        return effects

    def __getattr__(self, name):
        return getattr(self.table, name)


def play_round(table, layout: Layout | None, cards: list[str], counter: list[int]) -> None:
    from games.cards import parse_card

    table.handle(i.Command("place_bets"))
    if layout is not None:  # the line wagers: 20 chips of 5 at every seat's banker and player
        for seat in SEATS:
            for bet in ("player", "banker"):
                layout.read(seat, bet, layout.chips(CHIPS, 500))
    table.handle(i.Command("no_more_bets"))
    while table.state not in (m.RESULT, m.VOID):
        counter[0] += 1
        table.handle(i.Card(parse_card(cards.pop()).code, counter[0]))
    if layout is not None and table.state == m.RESULT:  # the dealer pays and collects
        owed = table.wagers.expected()
        for (seat, bet) in layout.spaces:
            back = owed.get((seat, bet), 0)
            if back or (seat, bet) in owed:
                layout.read(seat, bet, layout.chips(int(back / 5), 500))
    table.handle(i.Command("confirm"))


def rounds_cpu(wagered: bool, rounds: int, seed: int) -> float:
    rng = random.Random(seed)
    total, done, counter = 0.0, 0, [0]
    while done < rounds:
        table = CpuTable(Table(GAME))
        table.handle(i.Command("new_shoe"))
        cards = shoe_cards(table, rng)
        while table.shoe.burning:
            counter[0] += 1
            from games.cards import parse_card
            table.handle(i.Card(parse_card(cards.pop()).code, counter[0]))
        layout = Layout(table) if wagered else None
        while done < rounds and len(cards) > 20:
            before = table.cpu
            play_round(table, layout, cards, counter)
            total += table.cpu - before
            done += 1
    return total / rounds


def confirm_latency(confirms: int, seed: int) -> list[float]:
    table = Table(GAME)
    table.handle(i.Command("new_shoe"))
    rng, counter = random.Random(seed), [0]
    cards = shoe_cards(table, rng)
    from games.cards import parse_card
    while table.shoe.burning:
        counter[0] += 1
        table.handle(i.Card(parse_card(cards.pop()).code, counter[0]))
    layout = Layout(table)
    table.handle(i.Command("place_bets"))
    for (seat, bet) in layout.spaces:
        layout.read(seat, bet, layout.chips(CHIPS, 500))
    table.handle(i.Command("no_more_bets"))
    while table.state != m.RESULT:
        counter[0] += 1
        table.handle(i.Card(parse_card(cards.pop()).code, counter[0]))
    for (seat, bet), back in table.wagers.expected().items():
        layout.read(seat, bet, layout.chips(int(back / 5), 500) if back else ())
    wrong = [layout.chips(CHIPS, 500), layout.chips(CHIPS + 1, 500)]
    times = []
    for n in range(confirms):
        layout.read(1, "tie", wrong[n % 2])
        start = time.perf_counter()
        effects = table.handle(i.Command("confirm"))
        times.append(time.perf_counter() - start)
        assert any(isinstance(e, Journal) and e.payload.get("kind") == "mispay" for e in effects)
    assert table.state == m.RESULT and Fraction(1) > 0
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--confirms", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, {GAME}, {len(SEATS)} seats")
    times = sorted(confirm_latency(args.confirms, args.seed))
    p50, p99 = statistics.median(times), times[int(len(times) * 0.99) - 1]
    print(f"confirm -> mispay verdict (35 spaces x {CHIPS} chips): p50 {p50 * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms "
          f"over {len(times)} confirms")
    none = rounds_cpu(False, args.rounds, args.seed)
    every = rounds_cpu(True, args.rounds, args.seed)
    print(f"CPU per round: no wagers {none * 1e3:.2f} ms, 14 line wagers of {CHIPS} chips read and paid "
          f"{every * 1e3:.2f} ms: {every / none:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

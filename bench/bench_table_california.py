"""Fortune 7's California money in the pure table: a round's CPU with the player-dealer's bank
against the same wagers settled by the house.

    python3 bench/bench_table_california.py [--rounds 300] [--seed 1]

Whole rounds through Table.handle (place bets, a bank of 500 and 14 line wagers given by command,
no more bets with the fees taken, the cards, the bank walked at the result, confirm), process CPU
time per round, at a table with collection schedule 9 and at one without a schedule (Fortune 7's
wagers settled against the house, as the other games'). The difference is the bank's share: the
fees, the rules' settlement order and the walk.
"""
from __future__ import annotations

import argparse
import pathlib
import platform
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from controller.table import inputs as i  # noqa: E402
from controller.table import machine as m  # noqa: E402
from controller.table.settings import TableSettings  # noqa: E402
from controller.table.table import Table  # noqa: E402
from games.cards import parse_card  # noqa: E402
from games.registry import get_game  # noqa: E402

GAME, OPTION, BANK = "fortune7", 9, 500


def new_table(option: int | None, rng: random.Random) -> tuple[Table, list[str], list[int]]:
    settings = TableSettings.for_game(get_game(GAME), collection_schedule=option, player_dealer_seats=(1,))
    table = Table(GAME, settings=settings)
    table.handle(i.Command("new_shoe"))
    cards = [str(card) for card, n in table.shoe.composition.items() for _ in range(n)]
    rng.shuffle(cards)
    counter = [0]
    while table.shoe.burning:
        counter[0] += 1
        table.handle(i.Card(parse_card(cards.pop()).code, counter[0]))
    return table, cards, counter


def rounds_cpu(option: int | None, rounds: int, seed: int) -> float:
    rng = random.Random(seed)
    total, done = 0.0, 0
    while done < rounds:
        table, cards, counter = new_table(option, rng)
        while done < rounds and len(cards) > 20:
            start = time.process_time()
            table.handle(i.Command("place_bets"))
            if option is not None:  # a house-settled table has no bank to give
                table.handle(i.Command("wagers", {"seat": 1, "stakes": [f"bank={BANK}"]}))
            for seat in range(2, 8):
                table.handle(i.Command("wagers", {"seat": seat, "stakes": ["player=25", "banker=50"]}))
            table.handle(i.Command("no_more_bets"))
            assert table.state == m.BETS_CLOSED, table.state
            while table.state not in (m.RESULT, m.VOID):
                counter[0] += 1
                table.handle(i.Card(parse_card(cards.pop()).code, counter[0]))
            table.handle(i.Command("confirm"))
            total += time.process_time() - start
            done += 1
    return total / rounds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, {GAME}, a bank and 12 line wagers by command")
    house = rounds_cpu(None, args.rounds, args.seed)
    banked = rounds_cpu(OPTION, args.rounds, args.seed)
    print(f"CPU per round: house-settled {house * 1e3:.2f} ms, the player-dealer's bank (schedule {OPTION}) "
          f"{banked * 1e3:.2f} ms: {banked / house:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

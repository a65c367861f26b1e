"""A bet sensor and a dealer for table-level money tests: chips placed on spaces as the sensor
would report them (SpaceChips, whole), a registry of house chips, and rounds dealt to the result
from a shuffled shoe (the table is pure: no device is mocked, the inputs are the table's own)."""
from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from table_helpers import Run

from controller.table import inputs as i
from controller.table import machine as m
from games.money import format_amount

CHIP_UNIT = Fraction(1, 100)  # tags carry cents (TableSettings.chip_unit's default)
DENOMINATIONS = (Fraction(100), Fraction(25), Fraction(5), Fraction(1))


class Sensor:
    """The chips on every space, by (seat, bet); `place` and `take` report the space whole."""

    def __init__(self, run: Run, seats: tuple[int, ...] | None = None, registry: bool = True):
        self.run = run
        game = run.game
        seats = seats or (tuple(range(1, 8)) if not game.uses_spots else tuple(range(1, game.max_spots + 1)))
        self.spaces = {}
        for seat in seats:
            for bet in game.wagers:
                self.spaces[(seat, bet)] = len(self.spaces)
        self.chips: dict[tuple[int, str], list[tuple[str, int]]] = {key: [] for key in self.spaces}
        self.serial = 0
        self.house: list[str] = []  # the rows imported
        self.registry = registry
        self.session()

    def session(self) -> None:
        """The sensor's session comes up: its layout, then every space whole (PROTOCOL.md §10)."""
        self.run.send(i.BetLayoutHeard(tuple((space, seat, bet) for (seat, bet), space in self.spaces.items())))
        for seat, bet in self.spaces:
            self.report(seat, bet)

    def chip(self, value: Fraction) -> tuple[str, int]:
        """A new house chip of `value` (in the registry once `import_chips` is called)."""
        self.serial += 1
        uid = f"04{self.serial:012x}"
        self.house.append(f"{uid},{format_amount(value)},house")
        return uid, int(value / CHIP_UNIT)

    def import_chips(self) -> None:
        if self.registry and self.house:
            reply = self.run.cmd("chips_import", chips=self.house)
            assert reply.ok, reply.message
            self.house = []

    def chips_for(self, amount: Fraction) -> list[tuple[str, int]]:
        out = []
        for value in DENOMINATIONS:
            while amount >= value:
                out.append(self.chip(value))
                amount -= value
        assert amount == 0, f"no chips make {amount}"
        return out

    def report(self, seat: int, bet: str, overflow: bool = False) -> list:
        return self.run.send(i.SpaceChips(self.spaces[(seat, bet)], seat, bet, tuple(self.chips[(seat, bet)]), overflow))

    def place(self, seat: int, bet: str, amount: Fraction | int, raw: list[tuple[str, int]] | None = None) -> list:
        chips = raw if raw is not None else self.chips_for(Fraction(amount))
        self.import_chips()
        self.chips[(seat, bet)] += chips
        return self.report(seat, bet)

    def take(self, seat: int, bet: str, count: int = 1) -> list:
        del self.chips[(seat, bet)][-count:]
        return self.report(seat, bet)

    def set_to(self, seat: int, bet: str, amount: Fraction) -> list:
        """The dealer pays or collects until the space holds `amount` (new chips for a payout)."""
        self.chips[(seat, bet)] = []
        chips = self.chips_for(amount)
        self.import_chips()
        self.chips[(seat, bet)] = chips
        return self.report(seat, bet)

    def pay_out(self, settlement: dict) -> None:
        """Every space as the settlement says it must stand (Envy on its Fortune Bonus space)."""
        owed: Counter = Counter()
        for row in settlement["wagers"]:
            bet = "fortune_bonus" if row["bet"] == "envy" else row["bet"]
            owed[(row["seat"], bet)] += Fraction(row["back"])
        for key in self.spaces:
            if self.chips[key] or owed[key]:
                self.set_to(key[0], key[1], owed[key])


def fresh_shoe(run: Run) -> list:
    """A shoe in play; the cards left in it, shuffled (the burn's taken out)."""
    if run.game.uses_spots:
        run.new_shoe()
    else:
        run.baccarat_shoe()
    return []


def deal_to_result(run: Run, rng: random.Random) -> str:
    """Cards from what the shoe holds, in a random order, and a random decision where one is
    awaited, until the round has its result (or is void)."""
    while run.state not in (m.RESULT, m.VOID):
        if run.state == m.AWAITING:
            awaited = run.table.play.awaited()
            assert run.cmd("decide", spot=awaited.spot, decision=rng.choice(awaited.options)).ok
            continue
        assert run.state in (m.BETS_CLOSED, m.DEALING, m.DRAWING), run.state
        left = [card for card, count in run.table.shoe.composition.items() for _ in range(count)]
        run.card(str(rng.choice(left)))
    return run.state

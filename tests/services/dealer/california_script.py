"""Fortune 7 rounds banked by a player-dealer, played by a real Table (controller/table, the
table is pure: its inputs are the daemon's own) and written into a real journal with the
journal's own writer, every record as the daemon writes the table's Journal effects. The fees
and the bank's walk are the table's, never numbers typed here."""
from __future__ import annotations

from fractions import Fraction

from money_helpers import Sensor
from table_helpers import Run

from controller.journal import Journal
from controller.table.effects import Journal as JournalEffect

PLAYER_WINS = ("As", "Kh", "8h", "Ks")  # Player 9, Banker 0: naturals, no third card
# seat 1 banks 100; seat 2's Player wins 100 and empties the bank, every later wager is returned untouched
EXHAUSTED = {1: ("bank=100",), 2: ("player=100",), 3: ("player=25",), 4: ("banker=50", "one_up=5")}
# seat 1 banks 100; seat 2's Player wins 50, seat 3's Banker and Tie lose: the bank ends at 115
WALKED = {1: ("bank=100",), 2: ("player=50",), 3: ("banker=60", "tie=5")}


class BankedTable:
    """A Fortune 7 table with collection schedule `option`, its wagers given by command or, with
    `sensor`, read by a bet sensor whose layout has each seat's spaces and its bank space; its
    journal effects are appended to `journal` as they happen (`publish` sees each, as the
    daemon's event stream would)."""

    def __init__(self, journal: Journal, option: int = 3, sensor: bool = False, publish=None) -> None:
        self.journal, self.publish = journal, publish or (lambda event: None)
        self.run = Run("fortune7", collection_schedule=option)
        self.written = 0
        self.run.baccarat_shoe()
        self.sensor: Sensor | None = None
        if sensor:
            self.sensor = Sensor(self.run)
            for seat in range(1, 8):
                self.sensor.spaces[(seat, "bank")] = len(self.sensor.spaces)
                self.sensor.chips[(seat, "bank")] = []
            self.sensor.session()  # the layout with the bank spaces, then every space whole
        self.flush()

    def flush(self) -> list:
        """Write the table's journal effects not written yet; the records written."""
        effects = [e for e in self.run.effects[self.written:] if isinstance(e, JournalEffect)]
        self.written = len(self.run.effects)
        records = [self.journal.append(e.kind, dict(e.payload), durable=e.durable) for e in effects]
        for record in records:
            self.publish({"event": record.kind, "seq": record.seq})
        return records

    def bets(self, wagers: dict[int, tuple[str, ...]]) -> dict:
        """Bets open, each seat's wagers given, no more bets: the `wagers` record."""
        assert self.run.cmd("place_bets").ok
        for seat, stakes in wagers.items():
            if self.sensor is None:
                reply = self.run.cmd("wagers", seat=seat, stakes=list(stakes))
                assert reply.ok, reply.message
                continue
            for stake in stakes:
                bet, _, amount = stake.partition("=")
                self.sensor.place(seat, bet, Fraction(amount))
        reply = self.run.cmd("no_more_bets")
        assert reply.ok, reply.message
        self.flush()
        return self.run.journal("wagers")[-1]

    def deal(self, cards: tuple[str, ...] = PLAYER_WINS) -> dict:
        """The cards to the result: the `settlement` record."""
        self.run.cards(*cards)
        self.flush()
        return self.run.journal("settlement")[-1]

    def void(self) -> dict:
        """A card, then the supervisor voids the round: the void's `settlement` record."""
        self.run.cards(PLAYER_WINS[0])
        self.run.key()
        assert self.run.cmd("void", kind="order_altered").ok
        self.run.key(False)
        self.flush()
        return self.run.journal("settlement")[-1]

    def pay_out(self, bank: Fraction | None = None) -> None:
        """The dealer pays and collects every wager's space as the settlement says; the bank's
        space is left holding `bank` (None: as it must stand)."""
        assert self.sensor is not None
        money = self.run.journal("settlement")[-1]
        self.sensor.pay_out(money)
        pd = money["player_dealer"]
        self.sensor.set_to(pd["seat"], "bank", Fraction(pd["back"]) if bank is None else bank)
        self.flush()

    def confirm(self) -> bool:
        """Confirm: True when the round settled (False: refused, a mispay journaled)."""
        reply = self.run.cmd("confirm")
        self.flush()
        return reply.ok

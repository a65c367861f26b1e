"""Whole shoes in a real journal for the board's layout tests and the bench's screenshot.

`deal_fair_shoe` deals a fairly shuffled 8-deck shoe through the table itself (controller.table:
the burn, the Table of Play, the cut card, the last round) and appends its journal effects as the
daemon appends them, so the board folds exactly what a real shoe leaves in the journal.
`write_alternating_shoe` is the big road's worst case, B P B P ... (a new column every round),
written record by record (journal_script.TableScript): no real shoe deals 80 naturals in a row.
A control socket publishes as the daemon does, so the board shows *Table online*."""
from __future__ import annotations

import random

from journal_script import HANDS, TableScript

from controller.control import ControlServer
from controller.journal import Journal
from controller.table import inputs as i
from controller.table.effects import Journal as JournalEffect
from controller.table.table import Table
from games.registry import get_game
from simulation.table_dealer import DealtShoe, deal_shoe

CUT_CARD_FROM_END = 16  # where dealers put the cut card in an 8-deck baccarat shoe


class TableWriter:
    """A Table whose Journal effects go into a real journal in one commit per input, as the
    daemon writes them; each record is published on the control socket as the daemon does."""

    def __init__(self, journal: Journal, game: str, server: ControlServer | None = None) -> None:
        self.journal, self.table, self.server = journal, Table(game), server
        self._append("daemon_started", {"game": game, "decks": self.table.decks, "pid": 1})

    def __getattr__(self, name):  # deal_shoe reads the table's state through the writer
        return getattr(self.table, name)

    def _append(self, kind: str, payload: dict) -> None:
        self.journal.append(kind, payload)
        self._publish(kind)

    def _publish(self, kind: str) -> None:
        if self.server is not None:
            self.server.publish({"event": kind, "seq": self.journal.head_seq})

    def handle(self, inp: object) -> list:
        effects = self.table.handle(inp)
        records = [(e.kind, e.payload, None, e.durable) for e in effects if isinstance(e, JournalEffect)]
        if records:
            self.journal.append_many(records)
            self._publish(records[-1][0])
        return effects


def fair_shoe(game: str, seed: int) -> list:
    spec = get_game(game)
    cards = list(spec.deck_kind.cards) * spec.default_decks
    random.Random(seed).shuffle(cards)
    return cards


def deal_fair_shoe(writer: TableWriter, seed: int) -> DealtShoe:
    """One shoe, dealt to the round after its cut card; the shoe ends `finished`."""
    cards = fair_shoe(writer.table.game.key, seed)
    dealt = deal_shoe(writer, cards, cut_at=len(cards) - CUT_CARD_FROM_END)
    if writer.table.shoe.state != "finished":
        raise AssertionError(f"shoe {seed} did not finish: {writer.table.shoe.snapshot()}")
    return dealt


def open_round(writer: TableWriter) -> None:
    """A new round, betting open (the round in progress shows it)."""
    writer.handle(i.Command("place_bets"))


def write_alternating_shoe(journal: Journal, shoe: int, rounds: int, server: ControlServer | None = None) -> None:
    """A shoe of `rounds` results alternating Player, Banker: `rounds` big-road columns."""
    def publish(event: dict) -> None:
        if server is not None:
            server.publish(event)

    script = TableScript(journal, publish=publish)
    script.round = journal.connection.execute("SELECT COALESCE(MAX(round), 0) FROM records").fetchone()[0]
    script.new_shoe(shoe)
    for number in range(rounds):
        winner = "P" if number % 2 == 0 else "B"
        script.play(winner, *HANDS[winner])

"""What the daemon hands the table's integrity checks at start-up (controller/daemon/shoe_memory.py),
from a real SQLite journal written with the table's own records: the shoes dealt before, the shoe
in play fed again, an alarm never answered still blocking; the history cap; a changed game."""
import random

from controller.daemon.shoe_memory import shoe_memory
from controller.journal import Journal, read_tail
from controller.table import inputs as i
from controller.table.effects import Journal as JournalEffect
from controller.table.recovery import TableRecovery
from controller.table.table import Table
from games.cards import DeckKind, parse_card
from simulation.table_dealer import deal_shoe


class Writer:
    """A Table whose Journal effects go into a real journal, as the daemon writes them."""

    def __init__(self, journal: Journal, game: str = "fortune6", table: Table | None = None):
        self.journal, self.table = journal, table or Table(game)
        journal.append("daemon_started", {"game": self.table.game.key, "decks": self.table.decks, "pid": 1})
        self.counter = journal_counter(journal)

    def __getattr__(self, name):  # deal_shoe reads the table's state through the writer
        return getattr(self.table, name)

    def handle(self, inp) -> list:
        effects = self.table.handle(inp)
        self.journal.append_many([(e.kind, e.payload, None, e.durable) for e in effects if isinstance(e, JournalEffect)])
        return effects

    def card(self, token: str) -> None:
        self.counter += 1
        self.handle(i.Card(parse_card(token).code, self.counter))


def journal_counter(journal: Journal) -> int:
    counters = [r.payload.get("draw_counter") for r in read_tail(journal).records if r.kind == "card"]
    return max([c for c in counters if c is not None], default=0)


def restarted(journal: Journal, game: str = "fortune6", keep: int = 1000) -> Table:
    table = Table(game)
    recovery = TableRecovery.from_tail(read_tail(journal))
    start = shoe_memory(journal, table.game.key, table.decks, recovery.shoe.number if recovery.shoe else None, keep)
    effects = table.restore(recovery, start)
    journal.append_many([(e.kind, e.payload, None, e.durable) for e in effects if isinstance(e, JournalEffect)])
    return table


def fair_shoe(seed: int) -> list:
    cards = list(DeckKind.STANDARD52.cards) * 8
    random.Random(seed).shuffle(cards)
    return cards


def test_the_shoes_dealt_before_and_the_shoe_in_play_are_handed_in(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        writer = Writer(journal)
        for seed in (1, 2):
            deal_shoe(writer, fair_shoe(seed)[:120])  # two shoes, cut short
        table = restarted(journal)
        integrity = table.integrity
        assert integrity.watch.history.shoes == 1 and integrity.watch.label == "shoe 2"
        assert len(integrity.watch.cards) == 120 and not integrity.blocked
        # shoe 3 opens like shoe 1: replayed, within 12 cards, against what the journal held
        writer = Writer(journal, table=table)
        assert writer.handle(i.Command("new_shoe"))
        for card in fair_shoe(1)[:12]:
            writer.card(str(card))
        assert [a.check.value for a in integrity.watch.alarms] == ["replayed"] and integrity.blocked


def test_an_alarm_never_answered_still_blocks_after_a_restart(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        writer = Writer(journal)
        writer.handle(i.Command("new_shoe"))
        for token in ("Ks", "Qs", "Js", "Ts", "9s", "8s", "7s"):  # the burn, in factory order: called on card 7
            writer.card(token)
        assert writer.table.integrity.blocked
        table = restarted(journal)
        assert table.integrity.blocked and [a.check.value for a in table.integrity.watch.alarms] == ["unshuffled"]
        irregularities = [r for r in read_tail(journal).records if r.kind == "irregularity"]
        assert len(irregularities) == 1  # fed again, the shoe raised nothing the journal did not hold
        writer = Writer(journal, table=table)
        writer.handle(i.SupervisorKey(True))
        writer.handle(i.Command("accept_shoe"))
        assert not restarted(journal).integrity.blocked


def test_the_history_cap_and_a_shoe_of_another_game(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        writer = Writer(journal)
        for seed in range(4):
            deal_shoe(writer, fair_shoe(seed)[:60])
        assert restarted(journal, keep=2).integrity.watch.history.shoes == 2
        assert restarted(journal, keep=0).integrity.watch.history.shoes == 0
        fafa = restarted(journal, game="fafa4")  # the config changed: shoe 4 (fortune6) is history now
        assert fafa.integrity.watch.label is None and fafa.integrity.watch.history.shoes == 4

"""The table's records through the real journal (SQLite, hash chain): every record is
accepted, the chain verifies, recall and the journal's own recovery read them, and the
table restores from what comes back out of the file."""
from table_helpers import Run

from controller.journal import Journal, last_rounds, recover, verify
from controller.table import inputs as i
from controller.table import machine as m
from controller.table.effects import Journal as JournalEffect
from controller.table.recovery import TableRecovery
from controller.table.table import Table


def write(run: Run, path) -> None:
    with Journal(path) as journal:
        for effect in run.effects:
            if isinstance(effect, JournalEffect):
                journal.append(effect.kind, dict(effect.payload), durable=effect.durable)


def session() -> Run:
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.cards("9h", "Kh", "Kd", "8d")
    run.cmd("confirm")
    run.open_round()
    run.card("2c")
    run.card("??", misread=True)
    run.key()
    run.cmd("reconstruct", card="3d")
    run.cards("Qh", "Qs", "5c")  # player 2+Q = 2 draws 5c; banker 3+Q = 3 then draws
    run.card("7s")
    run.cmd("confirm")
    run.open_round()
    run.card("4c")
    run.send(i.ShoeDoor(open=True))  # void, §5.4
    run.send(i.ShoeDoor(open=False))
    run.open_round()
    run.cards("6d", "7d")
    return run


def test_the_journal_accepts_verifies_and_recalls_the_tables_records(tmp_path):
    run = session()
    path = tmp_path / "journal.sqlite"
    write(run, path)
    assert verify(path).ok
    views = {view.round: view for view in last_rounds(path, 10)}
    assert [views[n].status for n in (1, 2, 3, 4)] == ["settled", "settled", "void", "open"]
    assert views[3].void["clause"] == "fortune6 §5.4"
    assert views[2].result["hands"]["banker"]["cards"] == ["3d", "Qs", "7s"]
    keyed = [c for c in views[2].cards if c.reconstructed]
    assert [c.card for c in keyed] == ["3d"]


def test_the_journals_recovery_agrees_with_the_table_on_the_shoe(tmp_path):
    run = session()
    path = tmp_path / "journal.sqlite"
    write(run, path)
    recovery = recover(path)
    assert recovery.last_round == 4 and recovery.interrupted.round == 4
    assert recovery.shoe.number == run.table.shoe.number
    assert recovery.shoe.cards_dealt == run.table.shoe.drawn
    assert recovery.shoe.last_draw_counter == run.table.counter.last


def test_the_table_restores_from_what_the_file_gives_back(tmp_path):
    run = session()
    path = tmp_path / "journal.sqlite"
    write(run, path)
    with Journal(path) as journal:
        records = [(r.kind, r.payload) for r in journal.records()]
    table = Table("fortune6")
    table.restore(TableRecovery.from_journal(records))
    assert table.state == m.HELD and table.round_no == 4
    assert table.shoe.composition == run.table.shoe.composition and table.shoe.drawn == run.table.shoe.drawn
    table.handle(i.ShoeLinkRestored(draw_counter=run.table.counter.last))
    assert table.state == m.DEALING and table.play.hands() == {"player": ["6d"], "banker": ["7d"]}

"""The `shift` command: shifts opened and closed between hands, each a durable `shift` record
the meters sum by (controller/journal/meters.py), carried across a restart."""
from table_helpers import Run

from controller.journal import Journal, read_tail
from controller.table import inputs as i
from controller.table.effects import Journal as JournalEffect
from controller.table.effects import Reply
from controller.table.recovery import TableRecovery


def shift(run: Run, action: str, name: str | None = None) -> Reply:
    args = {"action": action} if name is None else {"action": action, "name": name}
    run.send(i.Command("shift", args))
    [reply] = [e for e in run.last if isinstance(e, Reply)]
    return reply


def test_open_and_close_a_shift():
    run = Run("fortune6")
    reply = shift(run, "open", "day")
    assert reply.ok and reply.message == "shift 1 (day) opened" and reply.fields["shift"] == 1
    [record] = [e for e in run.last if isinstance(e, JournalEffect)]
    assert (record.kind, dict(record.payload), record.durable) == (
        "shift", {"action": "open", "shift": 1, "name": "day"}, True)
    assert run.events("shift")[-1]["shift"] == 1
    assert shift(run, "close").message == "shift 1 (day) closed"
    assert run.journal("shift")[-1] == {"action": "close", "shift": 1, "name": "day"}
    assert shift(run, "open").message == "shift 2 opened"


def test_bad_shift_commands_are_refused():
    run = Run("fortune6")
    assert shift(run, "close").message == "shift: no shift is open"
    assert shift(run, "pause").message == "shift: action 'pause': expected open or close"
    assert "up to 64 printable" in shift(run, "open", "x" * 65).message
    assert "up to 64 printable" in shift(run, "open", "a\nb").message
    shift(run, "open", "day")
    assert shift(run, "open").message == "shift: shift 1 (day) is open: close it first"
    run.baccarat_shoe()
    run.open_round()
    reply = shift(run, "close")
    assert not reply.ok and "shifts change between hands; round 1 is" in reply.message, reply.message
    assert run.journal("shift") == [{"action": "open", "shift": 1, "name": "day"}]


def test_shifts_carry_on_after_a_restart(tmp_path):
    """The last shift record is found however far back it lies (the journal's tail for a restart)."""
    run = Run("fortune6")
    shift(run, "open", "day")
    run.baccarat_shoe()
    for zero in "KQ":
        run.open_round()
        run.cards("As", zero + "h", "8h", zero + "s")
        assert run.cmd("confirm").ok
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal.append_many([(e.kind, dict(e.payload), None, False) for e in run.effects
                             if isinstance(e, JournalEffect)])
        recovery = TableRecovery.from_tail(read_tail(journal))
    assert recovery.shift == {"action": "open", "shift": 1, "name": "day"}
    again = Run("fortune6")
    again.table.restore(recovery)
    assert shift(again, "open").message == "shift: shift 1 (day) is open: close it first"
    assert shift(again, "close").ok and shift(again, "open").message == "shift 2 opened"

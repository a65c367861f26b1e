"""The loop's ack path (PROTOCOL.md §9): a device message posted as AckWhenDurable is
acknowledged (its `release` called) only after the commit that holds its record, made durable:
never before, never while the journal is locked, never when the daemon stops first. A real
Table and a real SQLite journal (loop_rig.LoopRig)."""
import os
import sqlite3
import threading

from loop_rig import LoopRig

from controller.daemon.loop import Stop
from drivers import events as ev
from games.cards import parse_card

WAIT = 20.0  # a guard against hanging, not a measure of speed


class Receipt:
    """A release that records what the journal held (read through another connection) when it
    was called, and whether an fsync had covered its record by then: the ack must follow the
    commit and the fsync."""

    def __init__(self, rig: LoopRig, counter: int, durable_through: list[int] | None = None) -> None:
        self.rig, self.counter, self.durable_through = rig, counter, durable_through
        self.journaled_at_release: bool | None = None
        self.durable_at_release: bool | None = None

    def __call__(self) -> None:
        seqs = [r.seq for r in self.rig.records() if r.kind == "device" and r.payload.get("draw_counter") == self.counter]
        self.journaled_at_release = bool(seqs)
        if self.durable_through is not None:
            self.durable_at_release = bool(seqs) and seqs[0] <= self.durable_through[0]


def card_with_receipt(rig: LoopRig, card: str, durable_through: list[int] | None = None) -> Receipt:
    rig.counter += 1
    receipt = Receipt(rig, rig.counter, durable_through)
    event = ev.CardDrawn(device="shoe", at=0.0, code=parse_card(card).code, draw_counter=rig.counter, device_time=0)
    rig.loop.post(ev.AckWhenDurable(event, receipt))
    return receipt


def watch_fsyncs(rig: LoopRig, monkeypatch) -> list[int]:
    """[the last record an fsync of the journal's WAL has covered] (os.fsync observed, not
    replaced: it still runs)."""
    durable_through = [0]
    real_fsync, wal = os.fsync, f"{rig.journal.path.resolve()}-wal"

    def fsync(fd: int) -> None:
        real_fsync(fd)
        if os.readlink(f"/proc/self/fd/{fd}") == wal:
            durable_through[0] = rig.journal.head_seq

    monkeypatch.setattr(os, "fsync", fsync)
    return durable_through


def test_a_card_is_released_after_its_commit_and_its_record_is_durable(tmp_path, monkeypatch):
    rig = LoopRig(tmp_path)
    durable_through = watch_fsyncs(rig, monkeypatch)
    rig.press("new_shoe")
    receipts = [card_with_receipt(rig, c, durable_through) for c in ("9h", "8d", "As")]
    assert all(r.journaled_at_release is None for r in receipts)  # posted: nothing committed, nothing acked
    assert rig.loop.reactor.run_until(lambda: all(r.journaled_at_release is not None for r in receipts), WAIT)
    assert [r.journaled_at_release for r in receipts] == [True, True, True]
    assert [r.durable_at_release for r in receipts] == [True, True, True]  # fsynced before the ack
    rig.close()


def test_a_locked_journal_holds_the_ack_until_the_commit(tmp_path):
    rig = LoopRig(tmp_path)
    rig.press("new_shoe")
    rig.journal.connection.execute("PRAGMA busy_timeout = 0")
    other = sqlite3.connect(rig.journal_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN EXCLUSIVE")
    receipt = card_with_receipt(rig, "9h")
    rig.loop.reactor.run_until(lambda: rig.loop.journal_waiting, WAIT)
    rig.loop.reactor.run_until(lambda: False, 0.3)  # retried a few times, still locked
    assert receipt.journaled_at_release is None
    unlock = threading.Timer(0.1, lambda: other.execute("ROLLBACK"))
    unlock.start()
    try:
        assert rig.loop.reactor.run_until(lambda: receipt.journaled_at_release is not None, WAIT)
    finally:
        unlock.join(WAIT)
        other.close()
    assert receipt.journaled_at_release is True
    rig.close()


def test_a_message_behind_a_stop_is_never_acknowledged(tmp_path):
    """Stop taken before the card: the card is not handled, not journaled, not acked: the shoe
    keeps it for the next daemon."""
    rig = LoopRig(tmp_path)
    rig.press("new_shoe")
    rig.loop.stop_requested = "SIGTERM"
    rig.loop.inbox.post(Stop("SIGTERM"))  # what request_stop posts, ahead of the card
    receipt = card_with_receipt(rig, "9h")
    assert rig.loop.run() == "SIGTERM"
    assert receipt.journaled_at_release is None
    assert not any(r.payload.get("event") == "CardDrawn" for r in rig.records())
    rig.close()


def test_an_fsync_that_fails_acknowledges_nothing_and_stops_the_daemon(tmp_path, monkeypatch):
    """os.fsync raising EIO stands for a disk whose fsync fails: no real disk here can be made
    to fail one on cue. The card's commit is not durable: its ack is never released, and the
    loop ends DaemonFatal."""
    import errno

    from controller.daemon.committer import DaemonFatal

    rig = LoopRig(tmp_path)
    rig.press("new_shoe")

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    receipt = card_with_receipt(rig, "9h")
    try:
        rig.loop.reactor.run_until(lambda: False, 1.0)
        raised = None
    except DaemonFatal as error:
        raised = error
    monkeypatch.undo()
    assert raised is not None and "Input/output error" in str(raised)
    assert receipt.journaled_at_release is None  # committed, never acknowledged
    rig.close()

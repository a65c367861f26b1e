"""The loop's ack path (PROTOCOL.md §9): a device message posted as AckWhenDurable is
acknowledged (its `release` called) only after the commit that holds its record, made durable:
never before, never while the journal is locked, never when the daemon stops first. A real
Table and a real SQLite journal (loop_rig.LoopRig)."""
import sqlite3
import threading

from loop_rig import LoopRig

from controller.daemon.loop import Stop
from drivers import events as ev
from games.cards import parse_card

WAIT = 20.0  # a guard against hanging, not a measure of speed


class Receipt:
    """A release that records what the journal held (read through another connection) when it
    was called: the ack must follow the commit."""

    def __init__(self, rig: LoopRig, counter: int) -> None:
        self.rig, self.counter = rig, counter
        self.journaled_at_release: bool | None = None

    def __call__(self) -> None:
        self.journaled_at_release = any(
            r.kind == "device" and r.payload.get("draw_counter") == self.counter for r in self.rig.records())


def card_with_receipt(rig: LoopRig, card: str) -> Receipt:
    rig.counter += 1
    receipt = Receipt(rig, rig.counter)
    event = ev.CardDrawn(device="shoe", at=0.0, code=parse_card(card).code, draw_counter=rig.counter, device_time=0)
    rig.loop.post(ev.AckWhenDurable(event, receipt))
    return receipt


def test_a_card_is_released_after_its_commit_and_its_record_is_durable(tmp_path, monkeypatch):
    rig = LoopRig(tmp_path)
    durable: list[bool] = []
    append = rig.journal.append_batch
    monkeypatch.setattr(rig.journal, "append_batch",
                        lambda entries: (durable.append(any(e[3] for e in entries)), append(entries))[1])
    rig.press("new_shoe")
    receipts = [card_with_receipt(rig, c) for c in ("9h", "8d", "As")]
    assert all(r.journaled_at_release is None for r in receipts)  # posted: nothing committed, nothing acked
    assert rig.loop.reactor.run_until(lambda: all(r.journaled_at_release is not None for r in receipts), WAIT)
    assert [r.journaled_at_release for r in receipts] == [True, True, True]
    assert durable[-1]  # the commit that held them was asked to be fsynced
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

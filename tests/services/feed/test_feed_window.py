"""AckWindow: the cursor moves over a record only once every message of it and of every record
before it is acknowledged; records sent together in one message move it at once; the limit
counts records, not messages. PUBACKs are fed in as paho's network thread would."""
from __future__ import annotations

from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from services.feed.cursor import Cursor
from services.feed.window import AckWindow

OK = ReasonCode(PacketTypes.PUBACK, identifier=0)
REFUSED = ReasonCode(PacketTypes.PUBACK, identifier=0x87)  # Not authorized


def ack(window: AckWindow, mid: int, reason: ReasonCode = OK) -> None:
    window.on_publish(None, None, mid, reason, None)


def message(n: int) -> tuple[str, bytes]:
    return ("t/record", b"%d" % n)


def test_a_batch_moves_the_cursor_over_all_its_records_once_its_messages_are_acknowledged():
    window = AckWindow(Cursor(0, None), limit=250)
    window.register(100, "h100", [(1, message(1)), (2, message(2))], records=100)  # records 1-100 and a round summary
    window.register(101, "h101", [(3, message(3))])
    assert window.in_flight() == 101
    ack(window, 3)
    assert window.acked == Cursor(0, None)  # 101 waits for 1-100
    ack(window, 1)
    assert window.acked == Cursor(0, None) and window.in_flight() == 101  # the summary is not acknowledged yet
    ack(window, 2)
    assert window.acked == Cursor(101, "h101") and window.in_flight() == 0


def test_the_limit_counts_records_and_a_batch_waits_for_room():
    window = AckWindow(Cursor(0, None), limit=250)
    assert window.wait_for_room(0, 250)
    window.register(200, "h200", [(1, message(1))], records=200)
    assert window.wait_for_room(0, 50) and not window.wait_for_room(0.01, 51)
    ack(window, 1)
    assert window.wait_for_room(0, 250)
    assert window.wait_for_room(0, 400)  # nothing in flight: a batch larger than the limit still goes


def test_an_early_acknowledgement_and_a_refused_batch_keep_the_rule():
    window = AckWindow(Cursor(0, None), limit=1000)
    ack(window, 7)  # the PUBACK came before the publish was registered
    window.register(50, "h50", [(7, message(7))], records=50)
    assert window.acked == Cursor(50, "h50")
    window.register(100, "h100", [(8, message(8))], records=50)
    ack(window, 8, REFUSED)
    assert window.acked == Cursor(50, "h50")
    [(seq, mid, sent, reason)] = window.take_refused()
    assert (seq, mid, sent) == (100, 8, message(8)) and "Not authorized" in reason
    window.replace(100, 8, (9, message(8)))  # published again
    assert window.in_flight() == 50
    ack(window, 9)
    assert window.acked == Cursor(100, "h100") and window.in_flight() == 0

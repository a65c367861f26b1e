"""Protocol 1.2 (PROTOCOL.md §9) on the sans-IO link: the host acknowledges a message only once
it is released as durable, and a 1.2 device drops nothing it has not had acknowledged: the
retry limit ends the session, the messages go again in order in the next one; while no host
listens they wait in a bounded queue. Time is explicit, nothing sleeps."""
from fb_wire import HOST_HELLO, SHOE_HELLO, Wire

from firmware_bridge.link import Link
from firmware_bridge.link_events import Connected, SendFailed, SessionFailed
from firmware_bridge.messages import CardRead, Message

CARDS = [CardRead(0x0101 + i, draw_counter=i + 1, device_ms=1000 * i) for i in range(70)]


def durable_wire(queue_limit: int | None = None, **options) -> Wire:
    host = Link(HOST_HELLO, hold_acks=True, **options)
    device = Link(SHOE_HELLO, keep_unacked=True, queue_limit=queue_limit, **options)
    wire = Wire(host, device)
    wire.connect()
    assert wire.take("host") == [Connected(SHOE_HELLO)]
    assert wire.take("device") == [Connected(HOST_HELLO)]
    return wire


def receipts(events: list) -> list:
    """The messages delivered: each is its own receipt (Link.release takes it)."""
    return [e for e in events if isinstance(e, Message)]


def release_as_delivered(wire: Wire) -> list:
    """What the daemon does: every delivered message is released (its commit fsynced) at once."""
    delivered = []
    while events := [e for e in wire.take("host") if isinstance(e, Message)]:
        for event in events:
            wire.host.release(event, wire.now)
        delivered += events
        wire.pump()
    return delivered


def test_a_delivered_card_is_acknowledged_only_once_released():
    wire = durable_wire()
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    (receipt,) = receipts(wire.take("host"))
    assert receipt is not None
    assert [p.msg for p in wire.device.tx.inflight] == [CARDS[0]]  # delivered, not acknowledged
    assert wire.host.release(receipt, wire.now)
    wire.pump()
    assert not wire.device.tx.inflight
    assert not wire.host.release(receipt, wire.now)  # once only


def test_the_delivered_message_itself_is_its_receipt():
    """Only the very object the link delivered releases it: an equal message (the same card
    decoded again, or made up) acknowledges nothing."""
    wire = durable_wire()
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    (card,) = receipts(wire.take("host"))
    assert card == CARDS[0] and card is not CARDS[0]  # decoded from the wire: a new object
    assert not wire.host.release(CardRead(**vars(card)), wire.now)
    assert not wire.host.release(None, wire.now)
    wire.pump()
    assert [p.msg for p in wire.device.tx.inflight] == [CARDS[0]]
    assert wire.host.release(card, wire.now)
    wire.pump()
    assert not wire.device.tx.inflight


def test_a_held_card_costs_the_shoe_no_frame_until_released():
    """An ack that could not move (the card is held) is not sent: it would tell the shoe
    nothing. The release sends one."""
    wire = durable_wire(heartbeat_interval=None)
    wire.device.send(CARDS[0], wire.now)
    (card,) = wire.host.receive(wire.device.outgoing(), wire.now)
    assert card == CARDS[0] and wire.host.outgoing_frames() == []
    assert wire.host.release(card, wire.now)
    (ack,) = wire.host.outgoing_frames()
    wire.device.receive(ack, wire.now)
    assert not wire.device.tx.inflight


def test_the_ack_never_passes_a_card_not_yet_released():
    wire = durable_wire()
    for card in CARDS[:3]:
        wire.device.send(card, wire.now)
    wire.pump()
    first, second, third = receipts(wire.take("host"))
    wire.host.release(third, wire.now)  # released out of order: nothing may be acked yet
    wire.host.release(second, wire.now)
    wire.pump()
    assert [p.msg for p in wire.device.tx.inflight] == CARDS[:3]
    wire.host.release(first, wire.now)
    wire.pump()
    assert not wire.device.tx.inflight


def test_a_slow_release_is_a_retransmission_delivered_once():
    wire = durable_wire(ack_timeout=0.25, heartbeat_interval=None, silence_timeout=None)
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    (receipt,) = receipts(wire.take("host"))
    wire.advance(0.3)  # the commit took longer than the device's ack timeout
    assert wire.device.link_stats()["retransmissions"] == 1
    assert wire.delivered("host") == []  # the resend is the same SEQ: not delivered again
    wire.host.release(receipt, wire.now)
    wire.pump()
    assert not wire.device.tx.inflight


def test_the_retry_limit_ends_the_session_and_the_cards_go_again_in_order():
    """The daemon gone (nothing acked) past the device's retry limit: a 1.1 device would drop
    the cards (SendFailed); a 1.2 device keeps them and sends them in the next session."""
    wire = durable_wire(ack_timeout=0.25, retries=5, heartbeat_interval=None, silence_timeout=None)
    wire.manipulate = lambda name, frames: []  # the host hears nothing, says nothing
    for card in CARDS[:3]:
        wire.device.send(card, wire.now)
    wire.pump()
    wire.advance(2.0)  # > 6 x 0.25 s
    events = wire.take("device")
    assert events == [SessionFailed(3)] and not any(isinstance(e, SendFailed) for e in events)
    assert not wire.device.connected
    wire.device.send(CARDS[3], wire.now)  # drawn while no host listens: it waits
    wire.manipulate = lambda name, frames: frames
    restarted = Link(HOST_HELLO, hold_acks=True)  # a new daemon: a new host link, nothing received
    wire.host = restarted
    wire.connect()
    delivered = [e for e in wire.take("host") if isinstance(e, Message)]
    assert delivered == CARDS[:4]
    for event in delivered:
        restarted.release(event, wire.now)
    wire.pump()
    assert wire.device.queued() == 0


def test_a_receipt_from_before_a_new_session_acknowledges_nothing():
    """The host's request of a new session carries only what is durable; a card delivered but
    not yet released comes again, renumbered, and its old receipt is void."""
    wire = durable_wire()
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    (old,) = receipts(wire.take("host"))
    wire.host.start(wire.now)  # e.g. the host restarts the session on the same port
    wire.pump()
    assert not wire.host.release(old, wire.now)
    again = [e for e in wire.take("host") if isinstance(e, Message)]
    assert again == [CARDS[0]]  # the shoe driver drops it as a repeat
    wire.host.release(again[0], wire.now)
    wire.pump()
    assert wire.device.queued() == 0


def test_the_queue_is_bounded_and_says_when_it_is_full():
    wire = durable_wire(queue_limit=64, heartbeat_interval=None, silence_timeout=None)
    wire.manipulate = lambda name, frames: []
    accepted = [wire.device.send(card, wire.now) for card in CARDS[:66]]
    assert accepted == [True] * 64 + [False] * 2
    assert wire.device.link_stats()["queue_full"] == 2
    wire.advance(3.0)  # the session fails meanwhile
    assert wire.take("device") == [SessionFailed(64)]
    wire.manipulate = lambda name, frames: frames
    wire.connect()  # the host's next HELLO brings the device back
    assert release_as_delivered(wire) == CARDS[:64]
    assert wire.device.queued() == 0


def test_a_host_without_hold_acks_acks_at_once_and_a_1_1_device_still_works():
    host = Link(HOST_HELLO, hold_acks=True)
    device = Link(SHOE_HELLO)  # 1.1 behaviour: no keep_unacked
    wire = Wire(host, device)
    wire.connect()
    device.send(CARDS[0], wire.now)
    wire.pump()
    (receipt,) = receipts(wire.take("host"))
    host.release(receipt, wire.now)
    wire.pump()
    assert not device.tx.inflight
    plain = Wire()
    plain.connect()
    plain.device.send(CARDS[0], plain.now)
    plain.pump()
    (card,) = receipts(plain.take("host"))
    assert not plain.host.release(card, plain.now) and not plain.device.tx.inflight  # acknowledged on arrival, nothing held


def test_a_refused_session_drops_nothing_on_a_1_2_device():
    """A keyed shoe whose request the host refuses (another key) keeps its cards for the session
    that follows once the keys agree."""
    from firmware_bridge.link_events import SessionRefused

    key, other = bytes(range(32)), bytes(32)
    device = Link(SHOE_HELLO, keep_unacked=True, key=key)
    wire = Wire(Link(HOST_HELLO, hold_acks=True, key=other), device)
    device.send(CARDS[0], wire.now)
    device.start(wire.now)
    wire.pump()
    assert any(isinstance(e, SessionRefused) for e in wire.take("device"))
    assert device.queued() == 1
    wire.host = Link(HOST_HELLO, hold_acks=True, key=key)
    wire.connect()
    assert release_as_delivered(wire) == [CARDS[0]]

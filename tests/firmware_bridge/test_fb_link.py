"""The sans-IO link, host and device joined by a controlled wire; time is explicit, nothing sleeps."""
import random

import pytest
from fb_wire import HOST_HELLO, SHOE_HELLO, Wire

from firmware_bridge.enums import LampPattern, NakReason
from firmware_bridge.frame import SYNC, Frame, encode_frame
from firmware_bridge.link import Link
from firmware_bridge.link_events import (
    Connected,
    PeerRebooted,
    PeerSilent,
    ProtocolViolation,
    SendFailed,
)
from firmware_bridge.messages import Ack, CardRead, Hello, LampSet, Message, Nak, ShoeStatus, StatusQuery

CARDS = [CardRead(0x0101 + i, draw_counter=i + 1, device_ms=1000 * i) for i in range(12)]


def connected_wire(**options) -> Wire:
    wire = Wire(**options)
    wire.connect()
    assert wire.take("host") == [Connected(SHOE_HELLO)]
    assert wire.take("device") == [Connected(HOST_HELLO)]
    return wire


def drop_first(kind: str, direction: str, count: int = 1):
    """A manipulator dropping the first ``count`` frames of message ``kind`` going ``direction``."""
    left = [count]

    def manipulate(name, frames):
        from fb_wire import frame_types
        kept = []
        for frame, msg_name in zip(frames, frame_types(frames)):
            if name == direction and msg_name == kind and left[0] > 0:
                left[0] -= 1
                continue
            kept.append(frame)
        return kept
    return manipulate


def test_handshake_host_speaks_first():
    wire = Wire()
    wire.pump()
    assert wire.sent == {"host": [], "device": []}  # a device never speaks before the host
    wire.connect()
    assert wire.sent["host"][0] == "Hello" and wire.sent["device"][0] == "Hello"
    assert wire.host.connected and wire.device.connected
    assert wire.take("host") == [Connected(SHOE_HELLO)]


def test_card_delivered_and_acked():
    wire = connected_wire()
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[0]]
    assert not wire.device.tx.inflight
    assert wire.sent["host"][-1] == "Ack"


def test_messages_before_the_session_wait_for_it():
    wire = Wire()
    wire.device.send(CARDS[0], 0.0)
    wire.host.send(LampSet(1, LampPattern.ON), 0.0)
    wire.pump()
    assert wire.sent == {"host": [], "device": []}
    wire.connect()
    assert wire.delivered("host") == [CARDS[0]]
    assert wire.delivered("device") == [LampSet(1, LampPattern.ON)]


def test_dropped_card_is_retransmitted_after_the_timeout():
    wire = connected_wire(ack_timeout=0.25)
    wire.manipulate = drop_first("CardRead", "device")
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == []
    wire.advance(0.24)
    assert wire.delivered("host") == []
    wire.advance(0.02)
    assert wire.delivered("host") == [CARDS[0]]
    assert wire.device.link_stats()["retransmissions"] == 1


def test_duplicated_frame_delivered_once():
    wire = connected_wire()
    wire.manipulate = lambda name, frames: frames + frames if name == "device" else frames
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[0]]
    assert wire.host.link_stats()["duplicates"] == 1


def test_lost_ack_means_a_retransmission_that_is_delivered_once():
    wire = connected_wire(ack_timeout=0.25)
    wire.manipulate = drop_first("Ack", "host")
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    wire.advance(1.0)
    assert wire.delivered("host") == [CARDS[0]]
    assert wire.device.link_stats()["retransmissions"] == 1
    assert wire.host.link_stats()["duplicates"] == 1
    assert not wire.device.tx.inflight


def test_retry_limit_then_send_failed():
    wire = connected_wire(ack_timeout=0.25, retries=3, heartbeat_interval=None, silence_timeout=None)
    wire.manipulate = lambda name, frames: [] if name == "device" else frames  # device -> host cut
    wire.device.send(CARDS[0], wire.now)
    wire.device.send(CARDS[1], wire.now)
    wire.pump()
    wire.advance(0.25 * 4 - 0.01)
    assert wire.take("device") == []
    wire.advance(0.02)
    assert wire.take("device") == [SendFailed(CARDS[0]), SendFailed(CARDS[1])]
    assert not wire.device.connected
    assert wire.device.link_stats()["retransmissions"] == 6  # 3 rounds of 2 frames


def test_after_send_failed_the_link_restarts_when_the_peer_is_heard():
    wire = connected_wire(ack_timeout=0.25, retries=2, heartbeat_interval=None, silence_timeout=None)
    wire.manipulate = lambda name, frames: []  # both directions cut
    wire.host.send(LampSet(3, LampPattern.ON), wire.now)
    wire.pump()
    wire.advance(1.0)
    assert wire.take("host") == [SendFailed(LampSet(3, LampPattern.ON))]
    wire.manipulate = lambda name, frames: frames
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[0]]
    assert wire.host.connected
    wire.host.send(LampSet(4, LampPattern.OFF), wire.now)
    wire.pump()
    assert wire.delivered("device") == [LampSet(4, LampPattern.OFF)]


def test_gap_in_sequence_naks_and_go_back_n_delivers_in_order_once():
    wire = connected_wire()
    wire.manipulate = drop_first("CardRead", "device")
    for card in CARDS[:4]:
        wire.device.send(card, wire.now)
    wire.pump()
    assert wire.delivered("host") == CARDS[:4]  # no timeout needed: the NAK asked for them
    assert wire.sent["host"].count("Nak") == 1
    assert wire.host.link_stats()["out_of_order"] == 3


def test_window_limits_frames_in_flight():
    wire = connected_wire(window=3)
    wire.manipulate = lambda name, frames: [] if name == "device" else frames
    for card in CARDS[:5]:
        wire.device.send(card, wire.now)
    wire.pump()
    assert len(wire.device.tx.inflight) == 3 and len(wire.device.tx.unsent) == 2
    wire.manipulate = lambda name, frames: frames
    wire.advance(0.3)
    assert wire.delivered("host") == CARDS[:5]


def test_sequence_numbers_wrap():
    wire = connected_wire()
    sent = [ShoeStatus(draw_counter=i, device_ms=i) for i in range(600)]
    for msg in sent:
        wire.device.send(msg, wire.now)
        wire.pump()
    assert wire.delivered("host") == sent


def test_device_reboot_is_reported_and_pending_host_messages_survive():
    wire = connected_wire(ack_timeout=0.25)
    wire.manipulate = lambda name, frames: [] if name == "host" else frames  # host's lamp is lost
    wire.host.send(LampSet(2, LampPattern.FAST_BLINK), wire.now)
    wire.pump()
    wire.manipulate = lambda name, frames: frames
    wire.device.reset(boot_id=0x5555)
    wire.device.start(wire.now)  # a rebooted device announces itself
    wire.pump()
    events = wire.take("host")
    assert events == [PeerRebooted(Hello(**{**SHOE_HELLO.__dict__, "boot_id": 0x5555}), SHOE_HELLO.boot_id)]
    assert wire.delivered("device") == [LampSet(2, LampPattern.FAST_BLINK)]


def test_stale_acks_from_before_a_reboot_do_not_ack_the_new_session():
    """The rebooted device restarts at SEQ 0; an ack the host sent before hearing its HELLO
    must not acknowledge the device's new frames."""
    wire = connected_wire()
    for card in CARDS[:3]:
        wire.device.send(card, wire.now)
    wire.pump()
    stale_ack = encode_frame(Frame(0x02, seq=wire.host.tx.next_seq, ack=2, flags=0x02))
    wire.take("host")
    wire.device.reset(boot_id=77)
    wire.device.start(wire.now)
    hello_out = wire.device.outgoing()
    assert [p.seq for p in wire.device.tx.inflight] == [0]
    wire.device.receive(stale_ack, wire.now)
    assert len(wire.device.tx.inflight) == 1  # its HELLO is still waiting for the real answer
    wire.events["host"] += wire.host.receive(hello_out, wire.now)
    wire.pump()
    assert isinstance(wire.take("host")[0], PeerRebooted)
    assert wire.device.connected and not wire.device.tx.inflight


def test_host_reconnect_same_device_is_connected_not_rebooted():
    wire = connected_wire()
    wire.host.reset()
    wire.connect()
    assert wire.take("host") == [Connected(SHOE_HELLO)]
    assert isinstance(wire.take("device")[0], PeerRebooted)  # the host's session id changed


def test_reconnect_resends_what_the_old_session_never_acked():
    wire = connected_wire(ack_timeout=0.25)
    wire.manipulate = lambda name, frames: [] if name == "device" else frames
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    wire.manipulate = lambda name, frames: frames
    wire.host.reset()  # e.g. the cable was pulled and the host reopened the port
    wire.connect()
    assert wire.delivered("host") == [CARDS[0]]


def test_lost_hello_reply_is_resent_without_duplicating_what_followed():
    wire = Wire(ack_timeout=0.25)
    wire.device.send(CARDS[0], 0.0)
    wire.manipulate = drop_first("Hello", "device")
    wire.connect()
    assert wire.take("host") == []
    wire.advance(0.3)  # the host's HELLO times out and goes again; the device answers again
    assert wire.take("host") == [Connected(SHOE_HELLO), CARDS[0]]
    wire.advance(1.0)
    assert wire.delivered("host") == []


def test_crossing_hellos_settle_into_one_session():
    wire = Wire()
    wire.host.start(0.0)
    wire.device.start(0.0)
    wire.pump()
    assert wire.host.connected and wire.device.connected
    wire.device.send(CARDS[0], wire.now)
    wire.host.send(StatusQuery(), wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[0]]
    assert wire.delivered("device") == [StatusQuery()]
    wire.advance(2.0)
    assert not wire.host.tx.inflight and not wire.device.tx.inflight


def test_frame_without_a_session_gets_not_connected_and_the_host_says_hello():
    wire = connected_wire()
    wire.device.reset()  # rebooted silently (its announcement was lost)
    wire.host.send(LampSet(1, LampPattern.ON), wire.now)
    wire.pump()
    assert wire.sent["device"].count("Nak") == 1
    assert any(isinstance(e, ProtocolViolation) and "no session" in e.detail for e in wire.take("host"))
    assert wire.delivered("device") == [LampSet(1, LampPattern.ON)]
    assert wire.host.connected and wire.device.connected


def _raw(wire: Wire, side: str, frame: Frame) -> list:
    link = wire.host if side == "host" else wire.device
    return link.receive(encode_frame(frame), wire.now)


def test_unknown_type_is_consumed_naked_and_reported_and_the_link_goes_on():
    wire = connected_wire()
    seq = wire.host.rx_expected
    events = _raw(wire, "host", Frame(0x7E, seq=seq, flags=0x01, payload=b"new"))
    assert events == [ProtocolViolation(f"seq {seq}: unknown message type 0x7e")]
    assert wire.host.rx_expected == (seq + 1) % 256
    frames = wire.host.outgoing_frames()
    from fb_wire import frame_types
    assert frame_types(frames) == ["Nak"]  # the NAK carries the ack: no separate ACK
    wire.device.tx.next_seq = (seq + 1) % 256  # as if the device had sent that frame
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[0]]


def test_malformed_payload_is_consumed_and_reported():
    wire = connected_wire()
    seq = wire.host.rx_expected
    (event,) = _raw(wire, "host", Frame(0x10, seq=seq, flags=0x01, payload=b"\x01"))
    assert isinstance(event, ProtocolViolation) and "malformed CARD payload" in event.detail
    assert wire.host.rx_expected == (seq + 1) % 256


def test_peer_reports_of_rejected_frames_name_the_message():
    wire = connected_wire()
    wire.host.send(LampSet(1, LampPattern.ON), wire.now)
    seq = wire.host.tx.inflight[0].seq
    wire.host.outgoing()
    nak = encode_frame(Frame(0x03, flags=0, payload=Nak(seq, NakReason.MALFORMED).encode()))
    assert wire.host.receive(nak, wire.now) == [ProtocolViolation(f"peer rejected seq {seq} (LampSet): MALFORMED")]


def test_other_protocol_versions_are_refused_with_a_nak():
    wire = connected_wire()
    (event,) = _raw(wire, "host", Frame(0x10, seq=wire.host.rx_expected, flags=1, version=2))
    assert event == ProtocolViolation("frame of protocol version 2, we speak 1")
    from fb_wire import frame_types
    assert frame_types(wire.host.outgoing_frames()) == ["Nak"]
    hello_v2 = Hello(SHOE_HELLO.kind, 9, protocol=(2, 0), reply_requested=True)
    (event,) = _raw(wire, "host", Frame(0x01, seq=0, flags=1, payload=hello_v2.encode()))
    assert "protocol 2.0" in event.detail and wire.host.peer == SHOE_HELLO


def test_unknown_flag_bits_are_reported():
    wire = connected_wire()
    (event,) = _raw(wire, "host", Frame(0x02, flags=0x40))
    assert "unknown flag bits 0x40" in event.detail


def test_heartbeat_when_idle_and_silence_reported():
    wire = connected_wire(heartbeat_interval=1.0, silence_timeout=3.5)
    wire.advance(1.01)
    assert wire.sent["host"].count("Heartbeat") == 1 and wire.sent["device"].count("Heartbeat") == 1
    wire.manipulate = lambda name, frames: [] if name == "device" else frames  # the device stalls
    wire.advance(3.4)
    assert [e for e in wire.take("host") if isinstance(e, PeerSilent)] == []
    wire.advance(0.2)
    (silent,) = [e for e in wire.take("host") if isinstance(e, PeerSilent)]
    assert silent.silent_for == pytest.approx(3.5, abs=0.01)


def test_false_header_in_garbage_is_flushed_after_an_idle_moment():
    wire = connected_wire(idle_flush=0.05)
    wire.device.send(CARDS[0], wire.now)
    card = wire.device.outgoing()
    garbage = SYNC + bytes([200, 200 ^ 0xFF])
    assert wire.host.receive(garbage + card, wire.now) == []
    assert wire.host.next_deadline() == pytest.approx(wire.now + 0.05)
    assert wire.host.poll(wire.now + 0.05) == [CARDS[0]]


def test_link_owned_messages_cannot_be_sent_by_the_caller():
    link = Link(HOST_HELLO)
    for msg in (HOST_HELLO, Ack(), Nak(1, NakReason.OUT_OF_ORDER)):
        with pytest.raises(ValueError, match="sent by the link itself"):
            link.send(msg, 0.0)


@pytest.mark.parametrize("seed", range(12))
def test_lossy_wire_delivers_everything_exactly_once_in_order(seed):
    """Random drops, repeats, corruption and garbage both ways: every message arrives once."""
    rng = random.Random(seed)

    def manipulate(name, frames):
        out = []
        for frame in frames:
            roll = rng.random()
            if roll < 0.15:
                continue
            if roll < 0.25:
                out += [frame, frame]
            elif roll < 0.35:
                bad = bytearray(frame)
                bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
                out.append(bytes(bad))
            elif roll < 0.40:
                out += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20))), frame]
            else:
                out.append(frame)
        return out

    wire = Wire(ack_timeout=0.25, retries=50)
    wire.manipulate = manipulate
    wire.connect()
    cards = [CardRead(0x0101, draw_counter=i, device_ms=i) for i in range(1, 61)]
    lamps = [LampSet(i % 32, LampPattern(i % 4)) for i in range(40)]
    for i in range(60):
        wire.device.send(cards[i], wire.now)
        if i < 40:
            wire.host.send(lamps[i], wire.now)
        wire.pump()
        wire.advance(0.05)
    wire.advance(30.0)
    assert [m for m in wire.delivered("host") if isinstance(m, CardRead)] == cards
    assert wire.delivered("device") == lamps
    assert not wire.device.tx.inflight and not wire.host.tx.inflight


@pytest.mark.parametrize("seed", range(6))
def test_reconnects_and_reboots_under_loss_every_card_is_delivered_or_a_gap(seed):
    """Host reconnects and device reboots drop what was queued; the draw counter (checked at
    the end with a final SHOE_STATUS) accounts for every card: delivered once or reported missing.
    The host's checks are the shoe driver's (a card it delivered already, resent, is dropped)
    and the table's DrawCounter (controller/table/draw_counter.py) for the rest."""
    from controller.table.draw_counter import DrawCounter, Unheard
    rng = random.Random(seed)

    def manipulate(name, frames):
        return [f for f in frames if rng.random() > 0.15]

    wire = Wire(ack_timeout=0.25, retries=100)
    wire.manipulate = manipulate
    wire.connect()
    counter, delivered, missing, seen = DrawCounter(), [], set(), {}
    counter.stands_at(0)

    def take(events):
        for event in events:
            if isinstance(event, PeerRebooted):
                seen.clear()  # as the driver does: a new boot
            if not isinstance(event, Message) or seen.get(event.draw_counter) == event:
                continue  # a resend of a card already delivered: the driver drops it
            n = event.draw_counter
            seen[n] = event
            verdict = counter.check_card(n)
            assert verdict is None or isinstance(verdict, Unheard)  # the count never goes back
            if isinstance(verdict, Unheard):
                missing.update(range(verdict.last + 1, n))
            counter.saw(n)
            delivered.append(n)

    for n in range(1, 81):
        wire.device.send(CardRead(0x0101, draw_counter=n, device_ms=n), wire.now)
        if rng.random() < 0.04:
            wire.host.reset()
            wire.host.start(wire.now)
        if rng.random() < 0.03:
            wire.device.reset(rng.randrange(1 << 32))
            wire.device.start(wire.now)
        wire.pump()
        wire.advance(rng.choice([0.0, 0.05, 0.3]))
        take(wire.take("host"))
    wire.advance(60.0)
    take(wire.take("host"))
    final = counter.check_status(80)
    if isinstance(final, Unheard):
        missing.update(range(final.last + 1, 81))
    assert delivered == sorted(delivered)
    assert set(delivered) | missing == set(range(1, 81))
    assert not set(delivered) & missing

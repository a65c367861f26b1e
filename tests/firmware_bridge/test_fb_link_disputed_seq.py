"""Without a key a CRC is no proof of origin: a frame with a SEQ already taken and other
contents than the frame taken with it is tamper (PROTOCOL.md §2, §8.1), reported with both
frames, never delivered; a true retransmission stays a silent duplicate."""
from fb_wire import Wire

from firmware_bridge.enums import Msg
from firmware_bridge.frame import Frame, FrameDecoder, encode_frame
from firmware_bridge.link_events import Connected, DisputedSeq, Tampered
from firmware_bridge.messages import CardRead, pack

GENUINE = CardRead(0x0101, draw_counter=42, device_ms=74250)  # A♠
FORGED = CardRead(0x010D, draw_counter=42, device_ms=74250)  # K♠ in its place


def connected_wire() -> Wire:
    wire = Wire(heartbeat_interval=None, silence_timeout=None)
    wire.connect()
    assert any(isinstance(e, Connected) for e in wire.take("host"))
    wire.take("device")
    return wire


def with_payload(data: bytes, msg) -> bytes:
    """The frame `data` with another message's payload: same SEQ, ACK and flags, a good CRC."""
    (frame,) = FrameDecoder().feed(data)
    msg_type, payload = pack(msg)
    return encode_frame(Frame(msg_type, frame.seq, frame.ack, frame.flags, payload))


def card_frames(wire: Wire) -> list[bytes]:
    """What the shoe writes when it sends GENUINE (one CARD frame)."""
    wire.device.send(GENUINE, wire.now)
    frames = wire.device.outgoing_frames()
    assert len(frames) == 1
    return frames


def test_a_forged_card_then_the_genuine_one_is_tamper_with_both_frames():
    wire = connected_wire()
    (genuine,) = card_frames(wire)
    forged = with_payload(genuine, FORGED)
    events = wire.host.receive(forged, wire.now) + wire.host.receive(genuine, wire.now)
    seq = FrameDecoder().feed(genuine)[0].seq
    assert events[0] == FORGED  # it came first with the expected SEQ: nothing on the wire tells
    (tamper,) = events[1:]
    assert isinstance(tamper, Tampered)
    assert tamper.disputed == DisputedSeq(seq, Msg.CARD, pack(FORGED)[1], Msg.CARD, pack(GENUINE)[1])
    assert f"repeats seq {seq} with other contents" in tamper.detail
    assert wire.host.link_stats()["disputed"] == 1 and wire.host.link_stats()["duplicates"] == 0


def test_the_genuine_card_then_a_forged_repeat_is_tamper_and_the_repeat_is_not_delivered():
    wire = connected_wire()
    (genuine,) = card_frames(wire)
    events = wire.host.receive(genuine, wire.now) + wire.host.receive(with_payload(genuine, FORGED), wire.now)
    assert events[0] == GENUINE
    assert len(events) == 2 and isinstance(events[1], Tampered) and events[1].disputed is not None
    assert events[1].disputed.repeat_payload == pack(FORGED)[1]


def test_a_disputed_seq_is_reported_once_then_its_repeats_fold_into_the_burst_count():
    wire = connected_wire()
    (genuine,) = card_frames(wire)
    forged = with_payload(genuine, FORGED)
    events = wire.host.receive(genuine, wire.now)
    for _ in range(5):
        events += wire.host.receive(forged, wire.now)
    assert len([e for e in events if isinstance(e, Tampered) and e.disputed is not None]) == 1
    assert wire.host.link_stats()["tampered"] == 5  # every one counted, the first reported whole


def test_a_retransmission_with_the_same_contents_is_a_silent_duplicate():
    wire = connected_wire()
    (genuine,) = card_frames(wire)
    events = wire.host.receive(genuine, wire.now) + wire.host.receive(genuine, wire.now)
    assert events == [GENUINE]
    assert wire.host.link_stats()["duplicates"] == 1 and wire.host.link_stats()["disputed"] == 0


def test_a_new_session_reuses_seqs_for_other_messages_without_a_dispute():
    wire = connected_wire()
    wire.device.send(GENUINE, wire.now)
    wire.pump()
    assert wire.delivered("host") == [GENUINE]
    wire.device.reset(boot_id=0xABCD0002)  # the shoe reboots: its SEQs start again from 0
    wire.device.start(wire.now)
    wire.pump()
    for counter in range(1, 4):
        wire.device.send(CardRead(0x0102 + counter, draw_counter=42 + counter, device_ms=0), wire.now)
    wire.pump()
    assert not [e for e in wire.take("host") if isinstance(e, Tampered)]
    assert wire.host.link_stats()["disputed"] == 0

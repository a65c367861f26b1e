"""What PROTOCOL.md §8 promises a device author on the points a device emulator written from
the page had to guess at, each checked against two real keyed Links on a controlled wire (the
host as the driver runs it, a device as a firmware would)."""
from __future__ import annotations

from dataclasses import replace

from fb_wire import HOST_HELLO, SHOE_HELLO, Wire, frame_types

from firmware_bridge.enums import NakReason
from firmware_bridge.frame import FLAG_ACK_VALID, FLAG_AUTH, FLAG_RELIABLE, MAC_SIZE, Frame, FrameDecoder, encode_frame
from firmware_bridge.link import Link
from firmware_bridge.link_events import (
    Connected,
    PeerSilent,
    ProtocolViolation,
    SessionRefused,
    Tampered,
)
from firmware_bridge.messages import Ack, CardRead, Message, Nak, StatusQuery, pack

KEY = bytes(range(32))
CARD = CardRead(0x0101, draw_counter=42, device_ms=74250)


def decoded(data: bytes) -> Frame:
    (frame,) = FrameDecoder().feed(data)
    return frame


def keyed(**options) -> Wire:
    return Wire(Link(HOST_HELLO, key=KEY, **options), Link(SHOE_HELLO, key=KEY, **options))


def test_a_retransmitted_hello_answer_keeps_its_bytes():
    """Its CTR is its nonce, not a frame counter: the answer's retransmissions are the same
    frame, as the request's are (§8.5, §8.6)."""
    wire = keyed(heartbeat_interval=None, silence_timeout=None)
    wire.host.start(0.0)
    request = wire.host.outgoing_frames()
    wire.device.receive(b"".join(request), 0.0)
    (answer,) = wire.device.outgoing_frames()  # lost on its way to the host
    wire.device.poll(0.25)  # not acknowledged in time: sent again
    (again,) = wire.device.outgoing_frames()
    assert again == answer
    wire.host.poll(0.25)
    assert wire.host.outgoing_frames() == request  # the request again, byte for byte
    wire.device.receive(b"".join(request), 0.3)  # a repeated request: the same answer again
    out = wire.device.outgoing_frames()
    assert out[0] == answer and frame_types(out[1:]) == ["Ack"]  # (and an ack of the request)


def test_a_recorded_request_from_an_earlier_session_gets_a_new_nonce():
    """Same boot_id, SEQ and nonce as the last request answered: a repeat, answered with the
    same answer. Any other request, a recording of an older one included: a new answer with a
    new nonce, so a new session key the recorder cannot have."""
    nonces = iter(range(1000, 2000))
    device = Link(SHOE_HELLO, key=KEY, nonces=lambda: next(nonces))
    wire = Wire(Link(HOST_HELLO, key=KEY), device)
    wire.connect()
    wire.host.reset()
    wire.host.start(wire.now)
    old = wire.host.outgoing_frames()
    wire.device.receive(b"".join(old), wire.now)
    first_answer = wire.device.outgoing_frames()
    wire.host.receive(b"".join(first_answer), wire.now)
    wire.pump()
    key_then = wire.device.auth.session.key
    wire.host.reset()
    wire.host.start(wire.now)
    wire.pump()
    assert wire.device.auth.session.key != key_then
    wire.device.receive(b"".join(old), wire.now)  # the recording of the older request
    replayed_answer = wire.device.outgoing_frames()
    assert decoded(replayed_answer[0]).counter != decoded(first_answer[0]).counter  # a new nonce
    assert wire.device.auth.session.key != key_then


def test_a_copy_of_the_answer_after_it_was_taken_is_acked_and_no_sign_of_life():
    """The answerer's ack was lost, so it sends its answer again: the requester acknowledges it
    (a bare ACK under K_s), delivers nothing, and does not count it as hearing the peer: a
    recording replayed every second cannot hide a device that is gone."""
    wire = keyed(silence_timeout=3.5)
    wire.host.start(0.0)
    wire.device.receive(b"".join(wire.host.outgoing_frames()), 0.0)
    (answer,) = wire.device.outgoing_frames()
    assert wire.host.receive(answer, 0.0) == [Connected(SHOE_HELLO)]
    wire.host.outgoing_frames()
    events = wire.host.receive(answer, 0.1)  # the copy
    assert events == [] and frame_types(wire.host.outgoing_frames()) == ["Ack"]
    silent = []
    for second in range(1, 6):  # the device is gone; someone plays the answer once a second
        silent += wire.host.receive(answer, float(second))
        silent += wire.host.poll(float(second) + 0.5)
        wire.host.outgoing_frames()
    assert [type(e) for e in silent if isinstance(e, PeerSilent)] == [PeerSilent]
    assert not [e for e in silent if isinstance(e, (Tampered, Message))]


def test_the_answerer_sends_its_queue_under_the_session_key_right_after_its_answer():
    """§4.2 holds with keys: what the answerer had queued follows its answer at once, under K_s
    (CTR 1, 2, ...), before the requester's first frame; the requester checks it with the key
    the answer gave it."""
    wire = keyed()
    wire.device.send(CARD, 0.0)  # queued: no session yet
    wire.host.start(0.0)
    wire.device.receive(b"".join(wire.host.outgoing_frames()), 0.0)
    out = wire.device.outgoing_frames()
    assert frame_types(out) == ["Hello", "CardRead"] and decoded(out[1]).counter == 1
    events = wire.host.receive(b"".join(out), 0.0)
    assert [type(e) for e in events] == [Connected, CardRead]


def test_a_plain_not_connected_restarts_only_a_session_with_that_seq_unacknowledged():
    wire = keyed(heartbeat_interval=None, silence_timeout=None)
    wire.connect()
    wire.take("host")
    msg_type, payload = pack(Nak(200, NakReason.NOT_CONNECTED))
    stale = encode_frame(Frame(msg_type, 0, 0, 0, payload))
    events = wire.host.receive(stale, wire.now)  # names nothing in flight: not the peer's, restarts nothing
    assert [type(e) for e in events] == [Tampered] and "unauthenticated NAK" in events[0].detail
    assert wire.host.connected and wire.host.outgoing_frames() == []
    wire.device.reset(0x77)  # the device lost the session (a reboot, say)
    wire.host.send(StatusQuery(), wire.now)
    (query,) = wire.host.outgoing_frames()
    wire.device.receive(query, wire.now)
    (nak,) = wire.device.outgoing_frames()  # plain: it has no session key to sign with
    frame = decoded(nak)
    assert not frame.authenticated and Nak.decode(frame.payload) == Nak(decoded(query).seq, NakReason.NOT_CONNECTED)
    assert (frame.seq, frame.ack, frame.flags) == (0, 0, 0)  # its next SEQ (0 after a reboot), no ACK
    events = wire.host.receive(nak, wire.now)
    assert [type(e) for e in events] == [ProtocolViolation]  # "peer has no session: sent HELLO"
    assert frame_types(wire.host.outgoing_frames()) == ["Hello"]


def test_a_keyless_device_drops_signed_frames_other_than_hello_without_an_answer():
    wire = keyed()
    wire.connect()
    keyless = Link(SHOE_HELLO)
    msg_type, payload = pack(StatusQuery())
    signed = encode_frame(Frame(msg_type, 1, 0, FLAG_RELIABLE | FLAG_ACK_VALID | FLAG_AUTH, payload,
                                counter=1, mac=bytes(MAC_SIZE)))
    events = keyless.receive(signed, 0.0)
    assert [type(e) for e in events] == [ProtocolViolation] and keyless.outgoing_frames() == []


def test_a_devices_request_carries_the_ack_of_its_last_session_and_a_keyed_host_ignores_it():
    wire = keyed(heartbeat_interval=None, silence_timeout=None)
    wire.connect()
    wire.host.send(StatusQuery(), wire.now)
    wire.pump()
    last = (wire.device.rx_expected - 1) % 256
    wire.device.start(wire.now)
    (request,) = wire.device.outgoing_frames()
    frame = decoded(request)
    assert frame.ack_valid and frame.ack == last
    wire.device.poll(wire.now + 0.25)
    assert wire.device.outgoing_frames() == [request]  # its retransmissions carry the same ACK


def test_a_plain_refusal_nak_names_the_request_and_carries_the_senders_next_seq():
    host = Link(HOST_HELLO)  # no key: a plain request
    shoe = Link(SHOE_HELLO, key=KEY)
    host.start(0.0)
    events = shoe.receive(host.outgoing(), 0.0)
    assert [type(e) for e in events] == [Tampered]
    (nak,) = shoe.outgoing_frames()
    frame = decoded(nak)
    assert (frame.seq, frame.ack, frame.flags, frame.authenticated) == (0, 0, 0, False)
    assert Nak.decode(frame.payload) == Nak(0, NakReason.AUTH_REQUIRED)
    assert [type(e) for e in host.receive(nak, 0.0)] == [SessionRefused]


def test_a_device_whose_request_loses_sends_its_queue_after_its_answer_to_the_host():
    wire = keyed(heartbeat_interval=None, silence_timeout=None)
    wire.connect()
    wire.take("host")
    wire.host.reset()
    wire.device.reset(0x5150)
    wire.device.send(CARD, wire.now)  # queued behind the device's own request
    wire.device.start(wire.now)
    wire.host.start(wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARD]
    assert wire.host.auth.session.key == wire.device.auth.session.key


def test_a_refused_device_waits_for_the_hosts_next_request():
    """After a refusal a device sends nothing of its own, whatever it hears: it answers the
    host's next request (the host retries after its backoff)."""
    host = Link(HOST_HELLO)  # the host has no key for it
    shoe = Link(SHOE_HELLO, key=KEY)
    shoe.start(0.0)
    host.receive(shoe.outgoing(), 0.0)
    (refusal,) = host.outgoing_frames()
    assert [type(e) for e in shoe.receive(refusal, 0.0)] == [SessionRefused]
    ack_type, empty = pack(Ack())
    shoe.receive(encode_frame(Frame(ack_type, 1, 0, 0, empty)), 0.1)
    for t in (0.5, 1.0, 3.0, 10.0):
        shoe.poll(t)
        assert shoe.outgoing_frames() == []
    keyed_host = Link(replace(HOST_HELLO, boot_id=101), key=KEY)
    keyed_host.start(10.0)
    shoe.receive(keyed_host.outgoing(), 10.0)
    assert frame_types(shoe.outgoing_frames()) == ["Hello"]  # its answer


def test_a_device_whose_sends_failed_asks_again_on_any_frame_with_a_good_crc():
    wire = keyed(heartbeat_interval=None, silence_timeout=None)
    wire.connect()
    wire.manipulate = lambda name, frames: []  # the line is cut
    wire.device.send(CARD, wire.now)
    wire.advance(1.6)
    assert wire.device._down and not wire.device.connected
    msg_type, payload = pack(StatusQuery())
    forged = encode_frame(Frame(msg_type, 9, 0, FLAG_RELIABLE | FLAG_AUTH, payload, counter=999, mac=bytes(MAC_SIZE)))
    wire.device.receive(forged, wire.now)  # it does not verify: still, asking is safe
    (request,) = wire.device.outgoing_frames()
    assert frame_types([request]) == ["Hello"] and decoded(request).authenticated


def test_a_late_answer_to_the_request_before_a_reset_is_dropped_not_refused():
    """The host reopens the port (a reset: its next request has SEQ 0 again, as the last one
    had); the shoe's answer to that last request, still being retransmitted, names SEQ 0 too.
    It binds the earlier request: a late answer, dropped silently, not a forgery."""
    wire = keyed(heartbeat_interval=None, silence_timeout=None)
    wire.host.start(0.0)
    wire.device.receive(wire.host.outgoing(), 0.0)
    late = wire.device.outgoing()  # lost on the way
    wire.host.reset()
    wire.host.start(0.5)
    request = wire.host.outgoing()
    assert decoded(request).seq == decoded(late).ack == 0
    assert wire.host.receive(late, 0.5) == []
    assert wire.host.awaiting_reply and wire.host.stats["tampered"] == 0
    wire.device.receive(request, 0.6)
    assert [type(e) for e in wire.host.receive(wire.device.outgoing(), 0.6)] == [Connected]

"""Protocol 1.1, authenticated frames (PROTOCOL.md §8): two keyed links on a controlled wire,
and an attacker on it who can record, drop, replay and inject frames with good CRCs."""
from __future__ import annotations

from dataclasses import replace

import pytest
from fb_wire import HOST_HELLO, SHOE_HELLO, Wire, frame_types

from firmware_bridge.enums import NakReason
from firmware_bridge.frame import FLAG_ACK_VALID, FLAG_AUTH, FLAG_RELIABLE, MAC_SIZE, Frame, FrameDecoder, encode_frame
from firmware_bridge.link import TAMPER_REPORT_INTERVAL, Link
from firmware_bridge.link_auth import COUNTER_RENEW_AT
from firmware_bridge.link_events import (
    Connected,
    PeerRebooted,
    ProtocolViolation,
    SessionRefused,
    Tampered,
)
from firmware_bridge.messages import CardRead, Hello, Message, Nak, StatusQuery, pack

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))
CARDS = [CardRead(0x0101 + i % 13, draw_counter=i + 1, device_ms=1000 * i) for i in range(300)]


def keyed_wire(host_key: bytes | None = KEY, device_key: bytes | None = KEY) -> Wire:
    return Wire(Link(HOST_HELLO, key=host_key), Link(SHOE_HELLO, key=device_key))


def connected(wire: Wire | None = None) -> Wire:
    wire = wire or keyed_wire()
    wire.connect()
    assert wire.take("host") == [Connected(SHOE_HELLO)]
    assert wire.take("device") == [Connected(HOST_HELLO)]
    return wire


class Tap:
    """The attacker's recorder: every frame each side wrote, as bytes."""

    def __init__(self, wire: Wire) -> None:
        self.frames: dict[str, list[bytes]] = {"host": [], "device": []}

        def manipulate(name, frames):
            self.frames[name] += frames
            return frames
        wire.manipulate = manipulate

    def last(self, name: str, kind: str) -> bytes:
        return [f for f, t in zip(self.frames[name], frame_types(self.frames[name])) if t == kind][-1]


def a_card_dealt() -> tuple[Wire, bytes]:
    """A keyed session in which the shoe dealt CARDS[0] (delivered), and that card's frame as
    someone at the line recorded it."""
    wire = connected()
    tap = Tap(wire)
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[0]]
    return wire, tap.last("device", "CardRead")


def decoded(data: bytes) -> Frame:
    (frame,) = FrameDecoder().feed(data)
    return frame


def forged_card(wire: Wire, card: CardRead, authenticated: bool) -> bytes:
    """A CARD with a good CRC and exactly the SEQ the host expects next: without a MAC, or
    with a made-up one and a counter above the last."""
    msg_type, payload = pack(card)
    flags = FLAG_RELIABLE | FLAG_ACK_VALID
    if not authenticated:
        return encode_frame(Frame(msg_type, wire.host.rx_expected, 0, flags, payload))
    return encode_frame(Frame(msg_type, wire.host.rx_expected, 0, flags | FLAG_AUTH, payload,
                              counter=wire.host.auth.rx_counter + 1, mac=bytes(MAC_SIZE)))


def tampered(events) -> list[Tampered]:
    return [e for e in events if isinstance(e, Tampered)]


def test_a_keyed_session_delivers_and_every_frame_is_authenticated():
    wire = connected()
    tap = Tap(wire)
    for card in CARDS[:20]:
        wire.device.send(card, wire.now)
    wire.host.send(StatusQuery(), wire.now)
    wire.pump()
    wire.advance(2.5)  # heartbeats both ways
    assert wire.delivered("host") == CARDS[:20]
    assert wire.delivered("device") == [StatusQuery()]
    frames = [decoded(f) for side in ("host", "device") for f in tap.frames[side]]
    assert {"Heartbeat", "Ack", "CardRead"} <= set(frame_types(tap.frames["host"] + tap.frames["device"]))
    assert all(f.authenticated for f in frames)
    counters = [decoded(f).counter for f in tap.frames["device"]]
    assert counters == sorted(counters) and len(set(counters)) == len(counters)
    assert wire.host.stats["tampered"] == wire.device.stats["tampered"] == 0


def test_without_a_key_an_injected_card_displaces_the_real_one():
    """The attack protocol 1.1 exists for (1.0, no key): the injected card is taken; the real
    one with the same SEQ is dropped, and reported as tamper (test_fb_link_disputed_seq.py)."""
    wire = Wire()
    wire.connect()
    wire.take("host")
    msg_type, payload = pack(CardRead(0x0213, 1, 0))
    wire.events["host"] += wire.host.receive(
        encode_frame(Frame(msg_type, wire.host.rx_expected, 0, FLAG_RELIABLE | FLAG_ACK_VALID, payload)), wire.now)
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    events = wire.take("host")
    assert [e for e in events if isinstance(e, Message)] == [CardRead(0x0213, 1, 0)]
    assert [e.disputed.seq for e in events if isinstance(e, Tampered) and e.disputed] == [1]


def test_an_injected_card_without_a_valid_mac_is_never_delivered():
    wire = connected()
    plain = wire.host.receive(forged_card(wire, CardRead(0x0213, 1, 0), authenticated=False), wire.now)
    (report,) = plain
    assert isinstance(report, Tampered) and "unauthenticated CARD" in report.detail
    made_up = wire.host.receive(forged_card(wire, CardRead(0x0213, 1, 0), authenticated=True), wire.now)
    assert made_up == []  # the same second: held, then reported with the count
    wire.advance(TAMPER_REPORT_INTERVAL)
    (held,) = tampered(wire.take("host"))
    assert held.count == 1 and "MAC does not verify" in held.detail
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[0]]  # the real card, with the SEQ the forgeries took
    assert wire.host.stats["tampered"] == 2 and not wire.device.tx.inflight


def test_a_frame_played_again_in_the_session_is_a_replay():
    wire, recorded = a_card_dealt()
    events = wire.host.receive(recorded, wire.now)
    (report,) = tampered(events)
    assert "replay" in report.detail and not [e for e in events if isinstance(e, Message)]


def test_a_recorded_card_is_refused_when_its_seq_comes_round_again():
    """SEQ is 8 bits: after 256 frames the same number is expected again, but not the counter."""
    wire, old = a_card_dealt()
    for card in CARDS[1:256]:
        wire.device.send(card, wire.now)
        wire.pump()
    assert wire.host.rx_expected == decoded(old).seq
    wire.take("host")
    events = wire.host.receive(old, wire.now)
    assert tampered(events) and not [e for e in events if isinstance(e, Message)]


def test_a_recorded_card_cannot_be_replayed_into_a_later_session():
    wire, recorded = a_card_dealt()
    wire.host.reset()  # the host reopens: a new boot id, a new session key
    wire.connect()
    assert [type(e) for e in wire.take("host")] == [Connected]
    forged = encode_frame(replace(decoded(recorded), seq=wire.host.rx_expected))  # even with the SEQ fixed up
    for data in (recorded, forged):
        events = wire.host.receive(data, wire.now)
        assert not [e for e in events if isinstance(e, Message)]
    assert wire.host.stats["tampered"] == 2


def test_a_recorded_hello_request_played_to_the_host_is_no_reboot():
    """A device's request from an earlier boot, replayed: the host answers (it cannot know),
    but reports nothing until the requester proves it holds the session key, which it cannot."""
    wire = connected()
    tap = Tap(wire)
    wire.device.reset(0xFEED)  # the device reboots and asks for a session itself
    wire.device.start(wire.now)
    wire.pump()
    assert [type(e) for e in wire.take("host")] == [PeerRebooted]
    old_request = tap.last("device", "Hello")
    wire.device.reset(0xBEEF)
    wire.device.start(wire.now)
    wire.pump()
    wire.take("host")
    events = wire.host.receive(old_request, wire.now)
    assert events == []  # answered, but no PeerRebooted for boot 0xFEED
    wire.advance(1.0)
    assert not [e for e in wire.take("host") if isinstance(e, (PeerRebooted, Connected, Message))]


def test_the_answering_side_reports_the_session_only_when_the_requester_is_heard():
    wire = connected()
    wire.device.reset(0xFEED)
    wire.device.start(wire.now)
    request = wire.device.outgoing_frames()
    assert wire.host.receive(b"".join(request), wire.now) == []  # answered, not yet trusted
    answer = wire.host.outgoing_frames()
    device_events = wire.device.receive(b"".join(answer), wire.now)
    assert [type(e) for e in device_events] == [Connected]
    ack = wire.device.outgoing_frames()  # the device acks the answer under the session key
    assert [type(e) for e in wire.host.receive(b"".join(ack), wire.now)] == [PeerRebooted]


def test_a_device_without_a_key_is_refused_with_a_reason():
    wire = keyed_wire(device_key=None)
    wire.connect()
    (refused,) = [e for e in wire.take("host") if isinstance(e, SessionRefused)]
    assert "no key" in refused.reason
    assert not wire.host.connected and not wire.host.awaiting_reply
    assert [type(e) for e in wire.take("device")] == [ProtocolViolation]  # "asks for authenticated frames"
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == []


def test_a_device_that_answers_without_authentication_is_refused():
    """A downgrade: the answer names our request but carries no MAC."""
    wire = keyed_wire()
    wire.host.start(wire.now)
    request = decoded(wire.host.outgoing())
    answer = Frame(1, 0, request.seq, FLAG_RELIABLE | FLAG_ACK_VALID, SHOE_HELLO.encode())
    events = wire.host.receive(encode_frame(answer), wire.now)
    assert [type(e) for e in events] == [Tampered, SessionRefused]
    assert "without authentication" in events[1].reason and not wire.host.connected


@pytest.mark.parametrize("host_key, device_key, host_reason, device_report", [
    (KEY, OTHER_KEY, "key differs", "does not verify"),  # another key: each side sees it
    (None, KEY, "configure its key", "without authentication"),  # a host without the key is told
])
def test_mismatched_keys_are_refused_on_both_sides(host_key, device_key, host_reason, device_report):
    wire = keyed_wire(host_key, device_key)
    wire.connect()
    (refused,) = [e for e in wire.take("host") if isinstance(e, SessionRefused)]
    assert host_reason in refused.reason
    (report,) = tampered(wire.take("device"))
    assert device_report in report.detail
    assert not wire.host.connected and not wire.device.connected


def test_a_frame_reflected_back_to_its_sender_is_refused():
    wire, recorded = a_card_dealt()
    events = wire.device.receive(recorded, wire.now)
    assert tampered(events) and not [e for e in events if isinstance(e, Message)]


def test_a_flood_of_forgeries_is_reported_once_a_second_with_its_count():
    wire = connected()
    reports = []
    for i in range(100):
        reports += tampered(wire.host.receive(forged_card(wire, CardRead(0x0213, 1, 0), True), wire.now + i * 0.005))
    assert len(reports) == 1 and reports[0].count == 1
    wire.now += 0.5
    wire.advance(TAMPER_REPORT_INTERVAL)
    held = tampered(wire.take("host"))
    assert [r.count for r in held] == [99]
    assert wire.host.stats["tampered"] == 100


def test_the_session_key_is_renewed_before_the_counter_runs_out():
    wire = connected()
    old_key = wire.host.auth.session.key
    wire.host.auth.tx_counter = COUNTER_RENEW_AT
    wire.advance(0.01)
    assert wire.host.connected and wire.host.auth.session.key != old_key
    assert wire.host.auth.tx_counter < 10
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[0]]


def test_lost_frames_are_retransmitted_under_new_counters_and_delivered_once():
    wire = connected()
    dropped = []

    def lossy(name, frames):
        kept = []
        for frame, kind in zip(frames, frame_types(frames)):
            if name == "device" and kind == "CardRead" and len(dropped) < 2:
                dropped.append(frame)
                continue
            kept.append(frame)
        return kept
    wire.manipulate = lossy
    for card in CARDS[:5]:
        wire.device.send(card, wire.now)
    wire.pump()
    wire.advance(1.0)
    assert wire.delivered("host") == CARDS[:5]
    assert wire.host.stats["tampered"] == 0


def test_both_asking_at_once_makes_one_session():
    """The host's request wins: the device answers it; both derive the same session key."""
    wire = connected()
    wire.host.reset()
    wire.device.reset(0x5150)
    wire.host.start(wire.now)
    wire.device.start(wire.now)
    wire.pump()
    wire.advance(1.0)
    assert wire.host.connected and wire.device.connected
    assert wire.host.auth.session.key == wire.device.auth.session.key
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[0]]
    assert wire.host.stats["tampered"] == wire.device.stats["tampered"] == 0


def test_an_injected_refusal_can_only_stop_an_attempt():
    """A plain NAK AUTH_FAILED is believed only as the answer to our own outstanding request;
    in a session it is ignored (and its ACK field never used)."""
    wire = connected()
    msg_type, payload = pack(Nak(0, NakReason.AUTH_FAILED))
    events = wire.host.receive(encode_frame(Frame(msg_type, 0, 200, FLAG_ACK_VALID, payload)), wire.now)
    assert wire.host.connected and not [e for e in events if isinstance(e, SessionRefused)]


def test_a_keyed_link_refuses_a_plain_hello_request_and_keeps_its_session():
    wire = connected()
    msg_type, payload = pack(replace(HOST_HELLO, boot_id=999, reply_requested=True))
    events = wire.device.receive(encode_frame(Frame(msg_type, 0, 0, FLAG_RELIABLE, payload)), wire.now)
    assert tampered(events) and wire.device.connected
    assert frame_types(wire.device.outgoing_frames()) == ["Nak"]
    wire.device.send(CARDS[0], wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[0]]


def test_hello_requests_are_retransmitted_with_the_same_nonce():
    host = Link(HOST_HELLO, key=KEY)
    host.start(0.0)
    first = decoded(host.outgoing())
    host.poll(0.25)
    again = decoded(host.outgoing())
    assert again == first and first.counter != 0  # the same request: same SEQ, nonce and MAC


def test_a_requester_sends_nothing_but_its_hello_before_the_answer():
    wire = keyed_wire()
    wire.device.send(CARDS[0], 0.0)
    wire.host.start(0.0)
    out = wire.host.outgoing_frames()
    assert frame_types(out) == ["Hello"] and all(decoded(f).authenticated for f in out)
    assert isinstance(Hello.decode(decoded(out[0]).payload), Hello)


def test_a_device_whose_sends_failed_starts_a_new_authenticated_session():
    wire = connected()
    cut = [True]
    wire.manipulate = lambda name, frames: [] if cut[0] else frames
    wire.device.send(CARDS[0], wire.now)
    wire.advance(1.6)  # the device's 5 retransmissions go nowhere: its sends fail
    assert wire.device._down and not wire.device.connected
    old_key = wire.host.auth.session.key
    cut[0] = False
    wire.advance(1.5)  # the host's heartbeat wakes it: a new request, a new session key
    assert wire.device.connected and wire.host.auth.session.key == wire.device.auth.session.key != old_key
    assert [type(e) for e in wire.take("host") if isinstance(e, (Connected, PeerRebooted))] == [Connected]
    wire.device.send(CARDS[1], wire.now)
    wire.pump()
    assert wire.delivered("host") == [CARDS[1]]  # the failed card was dropped (PROTOCOL.md §2)
    assert wire.host.stats["tampered"] == wire.device.stats["tampered"] == 0

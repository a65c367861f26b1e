"""Property (hypothesis): whatever someone at the line makes of a recorded authenticated
session — frames dropped, repeated, reordered, bytes changed with the CRC fixed up, frames
forged with any header and a made-up MAC, fed in any chunks — the host delivers only cards
the shoe sent, each at most once, in the order it sent them."""
from __future__ import annotations

import zlib

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.enums import DeviceKind
from firmware_bridge.frame import FLAG_AUTH, MAC_SIZE, MAX_PAYLOAD, Frame, encode_frame
from firmware_bridge.link import Link
from firmware_bridge.messages import CardRead, Hello, Message

KEY = bytes(range(32))
HOST = Hello(DeviceKind.HOST, 0x1A2B3C4D, "tablectl")
SHOE = Hello(DeviceKind.SHOE, 0x0BADCAFE, "SHOE-0042")
CARDS = [CardRead(0x0101 + i, i + 1, 1000 * i) for i in range(10)]


def record() -> list[bytes]:
    host = Link(HOST, key=KEY, nonces=lambda: 1)
    shoe = Link(SHOE, key=KEY, nonces=lambda: 2)
    host.start(0.0)
    shoe.receive(host.outgoing(), 0.0)
    frames = []
    for card in [None, *CARDS]:
        if card is not None:
            shoe.send(card, 0.0)
        out = shoe.outgoing_frames()
        frames += out
        host.receive(b"".join(out), 0.0)
        shoe.receive(host.outgoing(), 0.0)
    return frames


GENUINE = record()


def with_crc(frame: bytes | bytearray) -> bytes:
    """Someone at the line can always make the CRC right."""
    return bytes(frame[:-4]) + zlib.crc32(bytes(frame[2:-4])).to_bytes(4, "little")


def flipped(frame: bytes, at: int, bit: int) -> bytes:
    """One bit changed anywhere from LEN to the MAC, the CRC fixed up."""
    buf = bytearray(frame)
    buf[2 + at % (len(frame) - 6)] ^= 1 << bit
    return with_crc(buf)


def stripped_of_its_mac(frame: bytes) -> bytes:
    """The same frame as protocol 1.0 would carry it: AUTH clear, no counter, no MAC."""
    return with_crc(frame[:8] + bytes([frame[8] & ~FLAG_AUTH]) + frame[9:-24] + bytes(4))


def forged(msg_type: int, seq: int, ack: int, flags: int, payload: bytes, counter: int, mac: bytes) -> bytes:
    return encode_frame(Frame(msg_type, seq, ack, flags | FLAG_AUTH, payload, 1, counter, mac))


def changes(source):
    return st.builds(flipped, source, st.integers(0, 10_000), st.integers(0, 7))


def forgeries(types):
    return st.builds(forged, st.sampled_from(types), st.integers(0, 255), st.integers(0, 255), st.integers(0, 7),
                     st.binary(max_size=MAX_PAYLOAD // 8), st.integers(0, 0xFFFFFFFF),
                     st.binary(min_size=MAC_SIZE, max_size=MAC_SIZE))


genuine = st.sampled_from(GENUINE)
anything = st.one_of(genuine, changes(genuine), forgeries([0x01, 0x02, 0x03, 0x04, 0x10, 0x11]),
                     st.builds(stripped_of_its_mac, genuine))
# Junk that is not a HELLO: a HELLO answer that fails (or comes unauthenticated) ends the host's
# attempt by design (PROTOCOL.md §8.7), so only such junk may cost the session itself.
cards = st.sampled_from(GENUINE[1:])
not_hello = st.one_of(changes(cards), forgeries([0x02, 0x03, 0x04, 0x10, 0x11]), st.builds(stripped_of_its_mac, cards))


def attacked(ops: list[tuple[str, bytes]]) -> bytes:
    """The genuine stream, each frame kept, dropped, replaced by `junk` or preceded by it."""
    out = []
    for frame, (op, junk) in zip(GENUINE, ops):
        if op == "keep":
            out.append(frame)
        elif op == "replace":
            out.append(junk)
        elif op == "before":
            out += [junk, frame]
        elif op == "after":  # this frame, then the junk (a genuine frame there is a replay)
            out += [frame, junk]
    return b"".join(out)


op = st.tuples(st.sampled_from(["keep", "keep", "drop", "replace", "before", "after"]), anything)


@settings(max_examples=300, deadline=None)
@given(st.lists(op, min_size=len(GENUINE), max_size=len(GENUINE)), st.integers(1, 64))
def test_only_sent_cards_are_delivered_once_and_in_order(ops, chunk):
    host = Link(HOST, key=KEY, nonces=lambda: 1)
    host.start(0.0)
    host.outgoing()
    data = attacked(ops)
    events = []
    for at in range(0, len(data), chunk):
        events += host.receive(data[at:at + chunk], 0.0)
        host.outgoing()
    events += host.poll(0.5)
    delivered = [e for e in events if isinstance(e, Message)]
    assert all(card in CARDS for card in delivered)
    counters = [card.draw_counter for card in delivered]
    assert counters == sorted(set(counters))


@settings(max_examples=100, deadline=None)
@given(st.lists(not_hello, min_size=1, max_size=10))
def test_a_genuine_session_with_forgeries_mixed_in_still_delivers_every_card(junk):
    """Forgeries in front of each genuine frame are dropped and the genuine ones still count,
    in order (a forgery never consumes a SEQ or a counter)."""
    host = Link(HOST, key=KEY, nonces=lambda: 1)
    host.start(0.0)
    host.outgoing()
    delivered = []
    for i, frame in enumerate(GENUINE):
        for event in host.receive(junk[i % len(junk)] + frame, 0.0):
            if isinstance(event, Message):
                delivered.append(event)
        host.outgoing()
    delivered += [e for e in host.poll(0.5) if isinstance(e, Message)]
    assert delivered == CARDS

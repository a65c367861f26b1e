"""The frame codec: round trips, garbage, splits at every point, bad CRC tables (pymodbus style)."""
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.frame import (
    FLAG_ACK_VALID,
    FLAG_AUTH,
    FLAG_RELIABLE,
    MAC_SIZE,
    MAX_PAYLOAD,
    OVERHEAD,
    SYNC,
    TRAILER_SIZE,
    Frame,
    FrameDecoder,
    decode,
    encode_frame,
    plain_frame_bytes,
    scan,
    signed_part,
)


@st.composite
def _frames(draw) -> Frame:
    """Any frame; with FLAG_AUTH set it carries a counter and a MAC (protocol 1.1)."""
    flags = draw(st.integers(0, 255))
    auth = bool(flags & FLAG_AUTH)
    return Frame(draw(st.integers(0, 255)), draw(st.integers(0, 255)), draw(st.integers(0, 255)), flags,
                 draw(st.binary(max_size=MAX_PAYLOAD)), draw(st.integers(0, 255)),
                 draw(st.integers(0, 0xFFFFFFFF)) if auth else 0, draw(st.binary(min_size=MAC_SIZE, max_size=MAC_SIZE)) if auth else b"")


frames = _frames()
SAMPLE = Frame(0x10, seq=7, ack=3, flags=FLAG_RELIABLE | FLAG_ACK_VALID, payload=bytes(range(11)))


def _feed_all(decoder: FrameDecoder, chunks) -> list[Frame]:
    out = []
    for chunk in chunks:
        out += decoder.feed(chunk)
    return out


def test_layout_is_as_documented():
    data = encode_frame(SAMPLE)
    assert data[:2] == SYNC
    assert data[2] == 11 and data[3] == 11 ^ 0xFF
    assert tuple(data[4:9]) == (1, 0x10, 7, 3, FLAG_RELIABLE | FLAG_ACK_VALID)
    assert data[9:20] == bytes(range(11))
    assert struct.unpack("<I", data[20:])[0] == zlib.crc32(data[2:20])
    assert len(data) == OVERHEAD + 11


@given(frames)
def test_round_trip_whole(frame):
    data = encode_frame(frame)
    assert decode(data) == (len(data), frame)


@given(frames)
@settings(max_examples=60)
def test_split_at_every_point(frame):
    data = encode_frame(frame)
    for cut in range(len(data) + 1):
        decoder = FrameDecoder()
        assert _feed_all(decoder, [data[:cut], data[cut:]]) == [frame]
        assert decoder.pending == 0


@given(st.lists(frames, min_size=1, max_size=4))
def test_byte_at_a_time(batch):
    data = b"".join(encode_frame(f) for f in batch)
    decoder = FrameDecoder()
    assert _feed_all(decoder, [data[i:i + 1] for i in range(len(data))]) == batch
    assert decoder.garbage_bytes == 0 and decoder.bad_crcs == 0


@given(st.binary(max_size=300), frames, st.binary(max_size=300), st.data())
def test_inside_garbage(before, frame, after, data):
    """Garbage around a frame, fed in random chunks: the frame comes out exactly once."""
    stream = before + encode_frame(frame) + after
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=6)))
    chunks = [stream[a:b] for a, b in zip([0] + cuts, cuts + [len(stream)])]
    decoder = FrameDecoder()
    assert _feed_all(decoder, chunks) + decoder.flush() == [frame]
    assert decoder.pending == 0


@given(st.binary(max_size=2000))
def test_random_bytes_never_make_a_frame(data):
    decoder = FrameDecoder()
    assert decoder.feed(data) == []
    assert decoder.pending < OVERHEAD + MAX_PAYLOAD


def _corrupt(data: bytes, index: int, xor: int) -> bytes:
    out = bytearray(data)
    out[index] ^= xor
    return bytes(out)


GOOD = encode_frame(SAMPLE)
CRC_AT = len(GOOD) - 4


@pytest.mark.parametrize("name, bad, counter", [
    ("payload bit", _corrupt(GOOD, 12, 0x01), "bad_crcs"),
    ("payload byte", _corrupt(GOOD, 15, 0xFF), "bad_crcs"),
    ("type", _corrupt(GOOD, 5, 0x20), "bad_crcs"),
    ("seq", _corrupt(GOOD, 6, 0x80), "bad_crcs"),
    ("ack", _corrupt(GOOD, 7, 0x01), "bad_crcs"),
    ("flags", _corrupt(GOOD, 8, 0x08), "bad_crcs"),
    # the AUTH bit promises 20 more bytes: the candidate waits for them until the line idles
    ("flags: the AUTH bit", _corrupt(GOOD, 8, FLAG_AUTH), "truncated"),
    ("version", _corrupt(GOOD, 4, 0x02), "bad_crcs"),
    ("crc low byte", _corrupt(GOOD, CRC_AT, 0x01), "bad_crcs"),
    ("crc high byte", _corrupt(GOOD, CRC_AT + 3, 0x80), "bad_crcs"),
    ("crc zeroed", GOOD[:CRC_AT] + bytes(4), "bad_crcs"),
    ("crc of the wrong range", GOOD[:CRC_AT] + struct.pack("<I", zlib.crc32(GOOD[:CRC_AT])), "bad_crcs"),
    ("length and its check both changed", _corrupt(_corrupt(GOOD, 2, 0x01), 3, 0x01), "bad_crcs"),
    ("length only", _corrupt(GOOD, 2, 0x01), "bad_headers"),
    ("length check only", _corrupt(GOOD, 3, 0x10), "bad_headers"),
    ("length over the maximum", GOOD[:2] + bytes([241, 241 ^ 0xFF]) + GOOD[4:], "bad_headers"),
])
def test_bad_frames_table(name, bad, counter):
    """Each corruption is refused, counted, and the good frame behind it still arrives (at
    once, or when the line goes idle)."""
    decoder = FrameDecoder()
    follow = Frame(0x04, seq=1, payload=b"\x01\x02\x03\x04")
    assert decoder.feed(bad + encode_frame(follow)) + decoder.flush() == [follow], name
    assert getattr(decoder, counter) >= 1, decoder.stats()
    assert decoder.garbage_bytes == len(bad)


def test_truncated_frame_waits_then_yields_to_the_next():
    """A frame cut short by a pulled cable is abandoned once the next frame proves it bad."""
    decoder = FrameDecoder()
    assert decoder.feed(GOOD[:-5]) == []
    assert decoder.pending == len(GOOD) - 5
    assert decoder.feed(GOOD) == [SAMPLE]


def test_false_header_in_garbage_is_abandoned_when_the_line_goes_idle():
    """Garbage that reads as a header for 200 bytes holds back the short frame behind it."""
    false_header = SYNC + bytes([200, 200 ^ 0xFF])
    ack = Frame(0x02, seq=4, ack=9, flags=FLAG_ACK_VALID)
    decoder = FrameDecoder()
    assert decoder.feed(false_header + encode_frame(ack)) == []
    assert decoder.flush() == [ack]
    assert decoder.truncated == 1 and decoder.pending == 0


def test_repeated_sync_is_never_a_header():
    decoder = FrameDecoder()
    assert decoder.feed(SYNC + SYNC + GOOD) == [SAMPLE]
    assert decoder.garbage_bytes == 4


def test_decode_is_pure_and_reports_what_it_used():
    garbage = b"\x00\xf5\x13" + SYNC[:1]
    buf = garbage + GOOD
    assert decode(buf) == (len(buf), SAMPLE)
    assert decode(buf) == (len(buf), SAMPLE)  # same input, same answer
    used, frame = decode(garbage)
    assert frame is None and used == len(garbage) - 1  # keeps the lone F5: it may begin a frame
    result = scan(buf)
    assert result.garbage == len(garbage)


@pytest.mark.parametrize("field, value", [
    ("msg_type", 256), ("seq", -1), ("ack", 300), ("flags", 1.5), ("version", None),
])
def test_encode_refuses_fields_that_do_not_fit(field, value):
    kwargs = {"msg_type": 1, field: value}
    with pytest.raises(ValueError, match=field):
        encode_frame(Frame(**kwargs))


def test_encode_refuses_oversize_payload():
    with pytest.raises(ValueError, match="MAX_PAYLOAD"):
        encode_frame(Frame(1, payload=bytes(MAX_PAYLOAD + 1)))


AUTH_SAMPLE = Frame(0x10, seq=7, ack=3, flags=FLAG_RELIABLE | FLAG_ACK_VALID | FLAG_AUTH, payload=bytes(range(11)),
                    counter=0x01020304, mac=bytes(range(100, 116)))


def test_authenticated_layout_is_as_documented():
    """LEN counts the payload only; the counter and the MAC follow it; the CRC covers them."""
    data = encode_frame(AUTH_SAMPLE)
    assert data[2] == 11 and data[8] == FLAG_RELIABLE | FLAG_ACK_VALID | FLAG_AUTH
    assert data[9:20] == bytes(range(11))
    assert data[20:24] == bytes([4, 3, 2, 1]) and data[24:40] == bytes(range(100, 116))
    assert struct.unpack("<I", data[40:])[0] == zlib.crc32(data[2:40])
    assert len(data) == OVERHEAD + 11 + TRAILER_SIZE
    assert signed_part(AUTH_SAMPLE) == data[2:24]  # what a MAC covers: LEN .. the counter
    assert decode(data) == (len(data), AUTH_SAMPLE)


def test_encode_signs_with_the_given_function():
    seen = []

    def sign(signed: bytes) -> bytes:
        seen.append(signed)
        return bytes(MAC_SIZE)

    data = encode_frame(Frame(0x04, flags=FLAG_AUTH, payload=b"abcd", counter=9), sign)
    assert seen == [data[2:2 + 7 + 4 + 4]] and data[-4 - MAC_SIZE:-4] == bytes(MAC_SIZE)


def test_encode_refuses_a_mac_of_the_wrong_size():
    with pytest.raises(ValueError, match="MAC of 3 bytes"):
        encode_frame(Frame(0x04, flags=FLAG_AUTH, mac=b"abc"))


def test_a_flipped_auth_flag_is_a_bad_crc_not_a_misread_frame():
    data = bytearray(encode_frame(AUTH_SAMPLE))
    data[8] ^= FLAG_AUTH
    decoder = FrameDecoder()
    assert decoder.feed(bytes(data)) + decoder.flush() == [] and decoder.bad_crcs + decoder.truncated >= 1


@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255),
       st.sampled_from([0, FLAG_RELIABLE, FLAG_ACK_VALID, FLAG_RELIABLE | FLAG_ACK_VALID]),
       st.binary(max_size=MAX_PAYLOAD))
def test_plain_frame_bytes_are_the_frames_bytes(msg_type, seq, ack, flags, payload):
    """The link's own frames, encoded straight from their fields, are byte for byte what
    encode_frame makes of the same Frame, and decode back to it."""
    frame = Frame(msg_type, seq, ack, flags, payload)
    data = plain_frame_bytes(msg_type, seq, ack, flags, payload)
    assert data == encode_frame(frame)
    assert decode(data) == (len(data), frame)


def test_plain_frame_bytes_refuse_what_does_not_fit():
    with pytest.raises(ValueError, match="exceeds MAX_PAYLOAD"):
        plain_frame_bytes(1, 0, 0, 0, bytes(MAX_PAYLOAD + 1))
    with pytest.raises(struct.error):
        plain_frame_bytes(1, 256, 0, 0, b"")

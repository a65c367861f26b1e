"""The bet sensor's messages (protocol 1.3, PROTOCOL.md §10): round trips whole, split at every
point and byte by byte through the frame decoder; lists longer than a frame split into parts
and put together again; every count bounded before it is parsed; bad payloads named."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.enums import Msg
from firmware_bridge.frame import MAX_PAYLOAD, Frame, FrameDecoder, encode_frame
from firmware_bridge.messages import (
    ALL_SPACES,
    MAX_CHIPS_REPORTED,
    BetSpace,
    Chip,
    Layout,
    MalformedPayload,
    Space,
    SpaceQuery,
    layout_messages,
    pack,
    space_messages,
    unpack,
)
from firmware_bridge.sim.bets import game_layout
from games.registry import GAME_KEYS

chips = st.builds(Chip, st.binary(min_size=4, max_size=10), st.integers(0, 2**32 - 1))
names = st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=24)


@st.composite
def layouts(draw) -> tuple[BetSpace, ...]:
    ids = draw(st.lists(st.integers(0, 254), unique=True, max_size=254))
    return tuple(BetSpace(i, draw(st.integers(0, 255)), draw(names)) for i in ids)


def _frames_of(messages) -> bytes:
    return b"".join(encode_frame(Frame(pack(m)[0], seq=i % 256, payload=pack(m)[1])) for i, m in enumerate(messages))


def _decoded(chunks) -> list:
    decoder = FrameDecoder()
    frames = [frame for chunk in chunks for frame in decoder.feed(chunk)]
    return [unpack(frame.msg_type, frame.payload) for frame in frames]


@settings(max_examples=60, deadline=None)
@given(layouts())
def test_a_layout_of_any_size_splits_into_frames_and_comes_back_whole(spaces):
    parts = layout_messages(spaces)
    assert all(len(pack(part)[1]) <= MAX_PAYLOAD for part in parts)
    assert [p.part for p in parts] == list(range(len(parts)))
    assert [p.more for p in parts] == [True] * (len(parts) - 1) + [False]
    back = _decoded([_frames_of(parts)])
    assert back == parts and sum((p.spaces for p in back), ()) == spaces


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 254), st.integers(0, 2**32 - 1), st.lists(chips, max_size=200))
def test_a_stack_of_any_size_splits_and_caps(space, change, stack):
    parts = space_messages(space, change, 1234, tuple(stack))
    assert all(len(pack(part)[1]) <= MAX_PAYLOAD for part in parts)
    assert [p.part for p in parts] == list(range(len(parts)))
    assert sum((p.chips for p in parts), ()) == tuple(stack[:MAX_CHIPS_REPORTED])
    assert [p.overflow for p in parts] == [False] * (len(parts) - 1) + [len(stack) > MAX_CHIPS_REPORTED]
    assert {(p.space, p.change) for p in parts} == {(space, change)}


@pytest.mark.parametrize("game", GAME_KEYS)
def test_every_games_layout_fits_and_round_trips(game):
    spaces = game_layout(game)
    parts = layout_messages(spaces)
    data = _frames_of(parts)
    assert _decoded([data]) == parts  # whole
    for cut in range(1, len(data)):  # split at every point
        assert _decoded([data[:cut], data[cut:]]) == parts
    assert _decoded([data[i:i + 1] for i in range(len(data))]) == parts  # byte by byte


def test_a_full_stack_byte_by_byte_and_split_everywhere():
    stack = tuple(Chip(bytes([7, i]) + bytes(5), 100 * i) for i in range(40))
    parts = space_messages(9, 3, 77, stack) + [SpaceQuery(9), SpaceQuery()]
    data = _frames_of(parts)
    assert _decoded([data[i:i + 1] for i in range(len(data))]) == parts
    for cut in range(1, len(data), 7):
        assert _decoded([data[:cut], data[cut:]]) == parts


def test_space_payload_layout():
    msg = Space(2, change=0x01020304, device_ms=0x0A0B0C0D, chips=(Chip(b"\x04\x7b\x01\x02\x03\x04\x05", 500),),
                more=True, part=1)
    assert pack(msg) == (Msg.SPACE, bytes([2, 0x01, 1, 4, 3, 2, 1, 0x0D, 0x0C, 0x0B, 0x0A, 1,
                                           7, 0x04, 0x7B, 1, 2, 3, 4, 5, 0xF4, 0x01, 0, 0]))
    assert pack(Layout((BetSpace(5, 3, "tie"),))) == (Msg.LAYOUT, bytes([0, 0, 1, 5, 3, 3]) + b"tie")
    assert pack(SpaceQuery()) == (Msg.SPACE_QUERY, bytes([ALL_SPACES]))


def _space(count: int, body: bytes, flags: int = 0) -> bytes:
    return bytes([1, flags, 0]) + bytes(8) + bytes([count]) + body


CHIP = bytes([4, 1, 2, 3, 4]) + (500).to_bytes(4, "little")


@pytest.mark.parametrize("msg_type, payload, words", [
    (Msg.LAYOUT, b"\x00\x00", ["LAYOUT", "2 bytes, at least 3"]),
    (Msg.LAYOUT, b"\x02\x00\x00", ["LAYOUT", "unknown bits 0x02"]),
    (Msg.LAYOUT, b"\x00\x00\xff" + bytes(20), ["LAYOUT", "255 spaces need at least 1020 bytes, 20 left"]),
    (Msg.LAYOUT, b"\x00\x00\x01\x00\x01\x05tie", ["LAYOUT", "name of 5 bytes is cut short"]),
    (Msg.LAYOUT, b"\x00\x00\x01\x00\x01\x03TIE", ["LAYOUT", "a-z, 0-9, _"]),
    (Msg.LAYOUT, b"\x00\x00\x01\x00\x01\x00", ["LAYOUT", "need at least 4 bytes"]),
    (Msg.LAYOUT, b"\x00\x00\x01\x00\x01\x03ti\xe9", ["LAYOUT", "not ASCII"]),
    (Msg.LAYOUT, b"\x00\x00\x01\xff\x01\x03tie", ["LAYOUT", "reserved"]),
    (Msg.LAYOUT, b"\x00\x00\x01\x00\x01\x03tiex", ["LAYOUT", "10 bytes, expected 9"]),
    (Msg.SPACE, bytes(11), ["SPACE", "11 bytes, at least 12"]),
    (Msg.SPACE, _space(0, b"", flags=0x04), ["SPACE", "unknown bits 0x04"]),
    (Msg.SPACE, _space(200, CHIP * 2), ["SPACE", "200 chips need at least 1800 bytes, 18 left"]),
    (Msg.SPACE, _space(1, bytes([3, 1, 2, 3]) + bytes(5)), ["SPACE", "chip 0: uid of 3 bytes"]),
    (Msg.SPACE, _space(1, bytes([11]) + bytes(14)), ["SPACE", "chip 0: uid of 11 bytes"]),
    (Msg.SPACE, _space(2, CHIP + bytes([10]) + bytes(9)), ["SPACE", "chip 1 is cut short"]),
    (Msg.SPACE, _space(1, CHIP + b"\x00"), ["SPACE", "22 bytes, expected 21"]),
    (Msg.SPACE, bytes([0xFF]) + _space(0, b"")[1:], ["SPACE", "reserved"]),
    (Msg.SPACE_QUERY, b"", ["SPACE_QUERY", "0 bytes, expected 1"]),
    (Msg.SPACE_QUERY, b"\x01\x02", ["SPACE_QUERY", "2 bytes, expected 1"]),
])
def test_malformed_bet_payloads_are_named(msg_type, payload, words):
    with pytest.raises(MalformedPayload) as info:
        unpack(msg_type, payload)
    for word in words:
        assert word in str(info.value)
    assert info.value.msg_type == msg_type


@pytest.mark.parametrize("lengths", [(7,) * 19, (4,), (10,) * 15, (7, 6, 8), (6, 8, 7), (7, 7, 4, 10)])
def test_a_list_of_one_uid_length_and_a_mixed_one_decode_alike(lengths):
    # One UID length throughout is read by one struct over the list; (7, 6, 8) has the size of
    # three 7-byte chips and its first length byte, but not the others: read chip by chip.
    stack = tuple(Chip(bytes([n]) * n, 1000 + n) for n in lengths)
    msg = unpack(*pack(Space(3, 9, 77, stack)))
    assert msg == Space(3, 9, 77, stack) and all(type(c) is Chip for c in msg.chips)
    assert [(c.uid, c.value) for c in msg.chips] == [(bytes([n]) * n, 1000 + n) for n in lengths]


def test_a_uniform_list_with_one_length_byte_wrong_is_malformed_not_misread():
    payload = bytearray(pack(Space(3, 1, 0, tuple(Chip(bytes(7), 5) for _ in range(3))))[1])
    payload[12 + 2 * 12] = 4  # the third chip's UID length
    with pytest.raises(MalformedPayload, match="48 bytes, expected 45"):
        unpack(Msg.SPACE, bytes(payload))


@pytest.mark.parametrize("build, field", [
    (lambda: BetSpace(255, 1, "tie"), "reserved"),
    (lambda: BetSpace(1, 256, "tie"), "seat"),
    (lambda: BetSpace(1, 1, "x" * 25), "space name"),
    (lambda: BetSpace(1, 1, ""), "space name"),
    (lambda: Chip(b"\x01\x02\x03", 5), "chip uid"),
    (lambda: Chip(bytes(4), -1), "chip value"),
    (lambda: Chip(bytes(4), 2**32), "chip value"),
    (lambda: Space(1, 2**32, 0), "change"),
    (lambda: Space(1, 0, 0, tuple([Chip(bytes(4), 1)] * 27)), "do not fit"),
    (lambda: Layout((), part=256), "part"),
    (lambda: SpaceQuery(256), "space"),
    (lambda: layout_messages((BetSpace(1, 1, "a"), BetSpace(1, 2, "b"))), "each id once"),
])
def test_constructors_name_the_bad_field(build, field):
    with pytest.raises(ValueError, match=field):
        build()


def test_a_space_list_that_does_not_fit_one_frame_is_refused_by_pack():
    big = Space(1, 0, 0, tuple([Chip(bytes(10), 1)] * 20))  # 20 x 15 bytes: beyond 240
    with pytest.raises(ValueError, match="at most 240"):
        pack(big)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([Msg.LAYOUT, Msg.SPACE, Msg.SPACE_QUERY]), st.binary(max_size=MAX_PAYLOAD))
def test_any_payload_is_a_message_or_named_malformed(msg_type, payload):
    try:
        msg = unpack(msg_type, payload)
    except MalformedPayload as error:
        assert error.msg_type == msg_type
        return
    assert pack(msg) == (msg_type, payload)  # what parses is exactly what it encodes to


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 254), st.lists(chips, min_size=1, max_size=15), st.data())  # 15 chips of 15 bytes fit 240
def test_a_flipped_count_or_length_byte_never_parses_as_another_list(space, stack, data):
    """Corrupt the chip count or one UID length: either MALFORMED, or (when the bytes happen to
    line up) a message that re-encodes to exactly those bytes, never a silent misread."""
    msg_type, payload = pack(Space(space, 1, 0, tuple(stack)))
    at = data.draw(st.sampled_from([11, 12]))
    bad = bytearray(payload)
    bad[at] = data.draw(st.integers(0, 255).filter(lambda v: v != payload[at]))
    try:
        msg = unpack(msg_type, bytes(bad))
    except MalformedPayload:
        return
    assert pack(msg) == (msg_type, bytes(bad))

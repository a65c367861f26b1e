"""Messages: every one round-trips through pack/unpack and a frame; bad payloads are named."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.enums import DeviceKind, ErrorCode, LampPattern, Msg, NakReason
from firmware_bridge.frame import Frame, decode, encode_frame
from firmware_bridge.messages import (
    MESSAGE_TYPES,
    Ack,
    AllOff,
    BetSpace,
    Button,
    CardRead,
    Chip,
    Error,
    Heartbeat,
    Hello,
    Key,
    LampQuery,
    LampReport,
    LampSet,
    Layout,
    MalformedPayload,
    Nak,
    PanelStatus,
    ShoeStatus,
    Space,
    SpaceQuery,
    StatusQuery,
    UnknownMessageType,
    pack,
    unpack,
)
from games.cards import DeckKind, parse_card

EXAMPLES = [
    Hello(DeviceKind.SHOE, boot_id=0xDEADBEEF, serial="SHOE-0042", firmware=(2, 1, 7), reply_requested=True),
    Hello(DeviceKind.HOST, boot_id=0),
    Ack(),
    Nak(200, NakReason.OUT_OF_ORDER),
    Heartbeat(123456789),
    Error(ErrorCode.BAD_LAMP, "lamp 40 does not exist (0-31)"),
    Error(ErrorCode.HARDWARE, "capteur optique défaillant"),
    StatusQuery(),
    CardRead(parse_card("Td").code, draw_counter=17, device_ms=99_000),
    CardRead(parse_card("4-gold").code, draw_counter=2**32 - 1, device_ms=0, double_draw=True),
    CardRead(0, draw_counter=3, device_ms=5, misread=True),
    ShoeStatus(draw_counter=12, device_ms=7, door_open=True, cut_card_seen=True),
    ShoeStatus(draw_counter=0, device_ms=0, present=False, empty=True),
    Button(3, True),
    Button(255, False),
    Key(True),
    PanelStatus(key_on=True, pressed=(1, 4)),
    PanelStatus(key_on=False),
    LampSet(31, LampPattern.SLOW_BLINK),
    AllOff(),
    LampQuery(),
    LampReport(tuple(LampPattern(i % 4) for i in range(32))),
    Layout((BetSpace(0, 1, "player"), BetSpace(1, 1, "banker")), more=True),
    Space(3, change=7, device_ms=1000, chips=(Chip(bytes(7), 500), Chip(b"\x04\x7b\x00\x00\x00\x00\x01", 100))),
    SpaceQuery(4),
]


def test_every_message_type_has_an_example():
    assert {type(m) for m in EXAMPLES} == set(MESSAGE_TYPES.values())
    assert set(MESSAGE_TYPES) == set(Msg)


@pytest.mark.parametrize("msg", EXAMPLES, ids=lambda m: type(m).__name__)
def test_round_trip_through_a_frame(msg):
    msg_type, payload = pack(msg)
    data = encode_frame(Frame(msg_type, seq=1, payload=payload))
    used, frame = decode(data)
    assert used == len(data)
    assert unpack(frame.msg_type, frame.payload) == msg


def test_card_payload_layout():
    _, payload = pack(CardRead(0x0123, draw_counter=0x01020304, device_ms=0x0A0B0C0D, double_draw=True))
    assert payload == bytes([0x23, 0x01, 4, 3, 2, 1, 0x0D, 0x0C, 0x0B, 0x0A, 0x01])


def test_every_deck_card_code_survives_the_wire():
    for kind in DeckKind:
        for card in kind.cards:
            msg = unpack(*pack(CardRead(card.code, 1, 0)))
            assert msg.code == card.code


@given(st.integers(0, 255), st.binary(max_size=64))
def test_unpack_raises_only_the_two_named_errors(msg_type, payload):
    try:
        msg = unpack(msg_type, payload)
    except (UnknownMessageType, MalformedPayload):
        return
    assert unpack(*pack(msg)) == msg


def test_unknown_type_is_named():
    with pytest.raises(UnknownMessageType, match="0x7f") as info:
        unpack(0x7F, b"")
    assert info.value.msg_type == 0x7F


@pytest.mark.parametrize("msg_type, payload, words", [
    (Msg.CARD, b"\x01\x01", ["CARD", "2 bytes, expected 11"]),
    (Msg.CARD, bytes(10) + b"\x02", ["CARD"]),  # misread flag with code 0: fine, so check below
    (Msg.CARD, b"\x01\x01" + bytes(8) + b"\x04", ["CARD", "unknown bits 0x04"]),
    (Msg.CARD, b"\x00\x00" + bytes(9), ["CARD", "misread"]),
    (Msg.CARD, b"\x01\x01" + bytes(8) + b"\x02", ["CARD", "misread"]),
    (Msg.LAMP_SET, b"\x01\x07", ["LAMP_SET", "pattern=7"]),
    (Msg.LAMP_REPORT, b"\x02\x00", ["LAMP_REPORT", "2 bytes, expected 3"]),
    (Msg.LAMP_REPORT, b"\x02\x00\x09", ["LAMP_REPORT", "lamp 1 pattern=9"]),
    (Msg.BUTTON, b"\x01\x02", ["BUTTON", "pressed=2"]),
    (Msg.KEY, b"", ["KEY", "0 bytes"]),
    (Msg.HELLO, b"\x09" + bytes(11), ["HELLO", "kind=9"]),
    (Msg.HELLO, b"\x01" + bytes(10) + b"\x05abc", ["HELLO", "15 bytes, expected 17"]),
    (Msg.HELLO, b"\x01" + bytes(10) + b"\x01\xff", ["HELLO", "serial number"]),
    (Msg.HELLO, b"\x01" + bytes(9) + b"\x80\x00", ["HELLO", "unknown bits 0x80"]),
    (Msg.HELLO, b"\x01" + bytes(5), ["HELLO", "6 bytes, at least 12"]),
    (Msg.ERROR, b"\x01\x02\xc3\x28", ["ERROR", "not UTF-8"]),
    (Msg.ERROR, b"\x63\x00", ["ERROR", "code=99"]),
    (Msg.NAK, b"\x01\x00", ["NAK", "reason=0"]),
    (Msg.ACK, b"\x00", ["ACK", "1 bytes, expected 0"]),
    (Msg.PANEL_STATUS, b"\x01", ["PANEL_STATUS", "count byte"]),
])
def test_malformed_payloads_are_named(msg_type, payload, words):
    if payload == bytes(10) + b"\x02":
        assert unpack(msg_type, payload).misread
        return
    with pytest.raises(MalformedPayload) as info:
        unpack(msg_type, payload)
    for word in words:
        assert word in str(info.value)
    assert info.value.msg_type == msg_type


@pytest.mark.parametrize("build, field", [
    (lambda: Button(256, True), "button"),
    (lambda: LampSet(1, 9), "pattern"),
    (lambda: CardRead(0x10000, 1, 0), "code"),
    (lambda: CardRead(0, 1, 0), "misread"),
    (lambda: Hello(DeviceKind.SHOE, boot_id=-1), "boot_id"),
    (lambda: Hello(DeviceKind.SHOE, 1, serial="x" * 33), "serial"),
    (lambda: Hello(DeviceKind.SHOE, 1, serial="tab\there"), "serial"),
    (lambda: Hello(7, 1), "kind"),
    (lambda: Error(ErrorCode.HARDWARE, "é" * 40), "detail"),
    (lambda: LampReport(tuple([LampPattern.ON] * 240)), "lamps"),
])
def test_constructors_name_the_bad_field(build, field):
    with pytest.raises(ValueError, match=field):
        build()


def test_reliability_classes():
    unreliable = {m.MSG_TYPE for m in EXAMPLES if not m.RELIABLE}
    assert unreliable == {Msg.ACK, Msg.NAK, Msg.HEARTBEAT}

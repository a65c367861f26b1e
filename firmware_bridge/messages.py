"""One dataclass per message, and `pack` / `unpack` between them and (type, payload).

Payload layouts are in PROTOCOL.md §3; multi-byte integers are little-endian.
Constructing a message checks its fields (ValueError naming the field); `unpack`
raises `UnknownMessageType` or `MalformedPayload`, both naming what is wrong.
Within one major version a type's payload never changes length or meaning, so a
payload of the wrong length is malformed, never "newer".
"""
from __future__ import annotations

import enum
import functools
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, TypeVar

from firmware_bridge.enums import (
    DeviceKind,
    ErrorCode,
    LampPattern,
    Msg,
    NakReason,
    type_name,
)
from firmware_bridge.frame import MAX_PAYLOAD, PROTOCOL_MAJOR, PROTOCOL_MINOR

E = TypeVar("E", bound=enum.IntEnum)
MAX_SERIAL = 32
MAX_DETAIL = 64

CARD_DOUBLE_DRAW = 0x01
CARD_MISREAD = 0x02
SHOE_PRESENT = 0x01
SHOE_DOOR_OPEN = 0x02
SHOE_CUT_CARD_SEEN = 0x04
SHOE_EMPTY = 0x08
HELLO_REPLY_REQUESTED = 0x01


class UnknownMessageType(ValueError):
    def __init__(self, msg_type: int):
        self.msg_type = msg_type
        super().__init__(f"unknown message type 0x{msg_type:02x}")


class MalformedPayload(ValueError):
    def __init__(self, msg_type: int, reason: str):
        self.msg_type = msg_type
        self.reason = reason
        super().__init__(f"malformed {type_name(msg_type)} payload: {reason}")


def _uint(name: str, value: object, bits: int) -> None:
    # a plain int (nearly every value, and every decoded one) is told by its class, without a call
    if value.__class__ is not int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"{name}={value!r} is not a uint{bits}")
    if not 0 <= value < (1 << bits):
        raise ValueError(f"{name}={value!r} is not a uint{bits}")


def _enum(name: str, enum_type: type[E], value: object) -> E:
    try:
        return enum_type(value)  # type: ignore[arg-type]  # any value: the enum refuses what it lacks
    except ValueError:
        allowed = ", ".join(f"{m.value}={m.name}" for m in enum_type)
        raise ValueError(f"{name}={value!r} is not one of {allowed}") from None


def _flag_bits(name: str, value: int, known: int) -> None:
    if value & ~known:
        raise ValueError(f"{name} 0x{value:02x} has unknown bits 0x{value & ~known:02x}")


def _text(name: str, value: str, limit: int, ascii_only: bool) -> bytes:
    if not isinstance(value, str):
        raise ValueError(f"{name}={value!r} is not text")
    if ascii_only and not (value.isascii() and value.isprintable()):
        raise ValueError(f"{name}={value!r} must be printable ASCII")
    data = value.encode("utf-8")
    if len(data) > limit:
        raise ValueError(f"{name} is {len(data)} bytes, at most {limit}")
    return data


class Message:
    """Base of every message: its TYPE byte and whether the link must deliver it reliably."""
    MSG_TYPE: ClassVar[Msg]
    RELIABLE: ClassVar[bool] = True

    def encode(self) -> bytes:
        return b""

    @classmethod
    def decode(cls, payload: bytes) -> Message:
        _exact(cls.MSG_TYPE, payload, 0)
        return cls()


def _exact(msg_type: int, payload: bytes, size: int) -> None:
    if len(payload) != size:
        raise MalformedPayload(msg_type, f"{len(payload)} bytes, expected {size}")


def _fixed(cls: type[Message], fmt: struct.Struct, payload: bytes) -> tuple[Any, ...]:
    _exact(cls.MSG_TYPE, payload, fmt.size)
    return fmt.unpack(payload)


# ---------------------------------------------------------------- link and common


_HELLO = struct.Struct("<BBBBBBIBB")


@dataclass(frozen=True)
class Hello(Message):
    """Identify: sent by whoever starts a session, answered by the peer (PROTOCOL.md §4)."""
    MSG_TYPE: ClassVar[Msg] = Msg.HELLO
    kind: DeviceKind
    boot_id: int  # new at every boot (device) or session (host): a change means a reboot
    serial: str = ""
    firmware: tuple[int, int, int] = (0, 0, 0)
    protocol: tuple[int, int] = (PROTOCOL_MAJOR, PROTOCOL_MINOR)
    reply_requested: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", _enum("kind", DeviceKind, self.kind))
        _uint("boot_id", self.boot_id, 32)
        for name, parts, count in (("firmware", self.firmware, 3), ("protocol", self.protocol, 2)):
            if len(parts) != count:
                raise ValueError(f"{name}={parts!r} needs {count} numbers")
            for part in parts:
                _uint(name, part, 8)
        _text("serial", self.serial, MAX_SERIAL, ascii_only=True)

    def encode(self) -> bytes:
        serial = self.serial.encode("ascii")
        flags = HELLO_REPLY_REQUESTED if self.reply_requested else 0
        return _HELLO.pack(self.kind, *self.protocol, *self.firmware, self.boot_id, flags,
                           len(serial)) + serial

    @classmethod
    def decode(cls, payload: bytes) -> Hello:
        if len(payload) < _HELLO.size:
            raise MalformedPayload(cls.MSG_TYPE, f"{len(payload)} bytes, at least {_HELLO.size}")
        kind, pmaj, pmin, fmaj, fmin, fpatch, boot_id, flags, length = _HELLO.unpack_from(payload)
        _exact(cls.MSG_TYPE, payload, _HELLO.size + length)
        _flag_bits("flags", flags, HELLO_REPLY_REQUESTED)
        serial = payload[_HELLO.size:]
        if not (serial.isascii() and serial.decode("ascii").isprintable()):
            raise MalformedPayload(cls.MSG_TYPE, f"serial number {serial!r} is not printable ASCII")
        return cls(kind, boot_id, serial.decode("ascii"), (fmaj, fmin, fpatch), (pmaj, pmin),
                   bool(flags & HELLO_REPLY_REQUESTED))


@dataclass(frozen=True)
class Ack(Message):
    """Carries nothing: the frame's ACK field is the acknowledgement."""
    MSG_TYPE: ClassVar[Msg] = Msg.ACK
    RELIABLE: ClassVar[bool] = False


_NAK = struct.Struct("<BB")


@dataclass(frozen=True)
class Nak(Message):
    MSG_TYPE: ClassVar[Msg] = Msg.NAK
    RELIABLE: ClassVar[bool] = False
    seq: int
    reason: NakReason

    def __post_init__(self) -> None:
        _uint("seq", self.seq, 8)
        object.__setattr__(self, "reason", _enum("reason", NakReason, self.reason))

    def encode(self) -> bytes:
        return _NAK.pack(self.seq, self.reason)

    @classmethod
    def decode(cls, payload: bytes) -> Nak:
        return cls(*_fixed(cls, _NAK, payload))


_U32 = struct.Struct("<I")


@dataclass(frozen=True)
class Heartbeat(Message):
    MSG_TYPE: ClassVar[Msg] = Msg.HEARTBEAT
    RELIABLE: ClassVar[bool] = False
    uptime_ms: int = 0

    def __post_init__(self) -> None:
        _uint("uptime_ms", self.uptime_ms, 32)

    def encode(self) -> bytes:
        return _U32.pack(self.uptime_ms)

    @classmethod
    def decode(cls, payload: bytes) -> Heartbeat:
        return cls(*_fixed(cls, _U32, payload))


_ERROR = struct.Struct("<BB")


@dataclass(frozen=True)
class Error(Message):
    MSG_TYPE: ClassVar[Msg] = Msg.ERROR
    code: ErrorCode
    detail: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", _enum("code", ErrorCode, self.code))
        _text("detail", self.detail, MAX_DETAIL, ascii_only=False)

    def encode(self) -> bytes:
        detail = self.detail.encode("utf-8")
        return _ERROR.pack(self.code, len(detail)) + detail

    @classmethod
    def decode(cls, payload: bytes) -> Error:
        if len(payload) < _ERROR.size:
            raise MalformedPayload(cls.MSG_TYPE, f"{len(payload)} bytes, at least {_ERROR.size}")
        code, length = _ERROR.unpack_from(payload)
        _exact(cls.MSG_TYPE, payload, _ERROR.size + length)
        try:
            detail = payload[_ERROR.size:].decode("utf-8")
        except UnicodeDecodeError:
            raise MalformedPayload(cls.MSG_TYPE, f"detail {payload[_ERROR.size:]!r} is not UTF-8") from None
        return cls(code, detail)


@dataclass(frozen=True)
class StatusQuery(Message):
    """Host asks a device for its state: shoe -> ShoeStatus, panel -> PanelStatus, lights -> LampReport."""
    MSG_TYPE: ClassVar[Msg] = Msg.STATUS_QUERY


# ---------------------------------------------------------------- shoe


_CARD = struct.Struct("<HIIB")


@dataclass(frozen=True)
class CardRead(Message):
    """A card left the shoe. ``code`` is games.cards' uint16 wire code; 0 with ``misread``."""
    MSG_TYPE: ClassVar[Msg] = Msg.CARD
    code: int
    draw_counter: int  # the shoe's own count of cards drawn, 1 for the first
    device_ms: int  # the shoe's clock, ms since boot
    double_draw: bool = False
    misread: bool = False

    def __post_init__(self) -> None:
        _uint("code", self.code, 16)
        _uint("draw_counter", self.draw_counter, 32)
        _uint("device_ms", self.device_ms, 32)
        if self.misread != (self.code == 0):
            raise ValueError(f"code=0x{self.code:04x} with misread={self.misread}: "
                             "code 0x0000 (no read) goes with the misread flag and only with it")

    def encode(self) -> bytes:
        flags = (CARD_DOUBLE_DRAW if self.double_draw else 0) | (CARD_MISREAD if self.misread else 0)
        return _CARD.pack(self.code, self.draw_counter, self.device_ms, flags)

    @classmethod
    def decode(cls, payload: bytes) -> CardRead:
        code, counter, device_ms, flags = _fixed(cls, _CARD, payload)
        _flag_bits("flags", flags, CARD_DOUBLE_DRAW | CARD_MISREAD)
        return cls(code, counter, device_ms, bool(flags & CARD_DOUBLE_DRAW), bool(flags & CARD_MISREAD))


_SHOE_STATUS = struct.Struct("<BII")


@dataclass(frozen=True)
class ShoeStatus(Message):
    """Sent on every change and on StatusQuery; ``draw_counter`` is the last card's counter."""
    MSG_TYPE: ClassVar[Msg] = Msg.SHOE_STATUS
    draw_counter: int
    device_ms: int
    present: bool = True
    door_open: bool = False
    cut_card_seen: bool = False
    empty: bool = False

    def __post_init__(self) -> None:
        _uint("draw_counter", self.draw_counter, 32)
        _uint("device_ms", self.device_ms, 32)

    def encode(self) -> bytes:
        flags = ((SHOE_PRESENT if self.present else 0) | (SHOE_DOOR_OPEN if self.door_open else 0)
                 | (SHOE_CUT_CARD_SEEN if self.cut_card_seen else 0) | (SHOE_EMPTY if self.empty else 0))
        return _SHOE_STATUS.pack(flags, self.draw_counter, self.device_ms)

    @classmethod
    def decode(cls, payload: bytes) -> ShoeStatus:
        flags, counter, device_ms = _fixed(cls, _SHOE_STATUS, payload)
        _flag_bits("flags", flags, SHOE_PRESENT | SHOE_DOOR_OPEN | SHOE_CUT_CARD_SEEN | SHOE_EMPTY)
        return cls(counter, device_ms, bool(flags & SHOE_PRESENT), bool(flags & SHOE_DOOR_OPEN),
                   bool(flags & SHOE_CUT_CARD_SEEN), bool(flags & SHOE_EMPTY))


# ---------------------------------------------------------------- panel


_BUTTON = struct.Struct("<BB")
_BOOL = struct.Struct("<B")


def _bool_byte(msg_type: int, name: str, value: int) -> bool:
    if value > 1:
        raise MalformedPayload(msg_type, f"{name}={value} is not 0 or 1")
    return bool(value)


@dataclass(frozen=True)
class Button(Message):
    MSG_TYPE: ClassVar[Msg] = Msg.BUTTON
    button: int  # plain uint8: the controller maps names to ids per game
    pressed: bool

    def __post_init__(self) -> None:
        _uint("button", self.button, 8)

    def encode(self) -> bytes:
        return _BUTTON.pack(self.button, int(self.pressed))

    @classmethod
    def decode(cls, payload: bytes) -> Button:
        button, pressed = _fixed(cls, _BUTTON, payload)
        return cls(button, _bool_byte(cls.MSG_TYPE, "pressed", pressed))


@dataclass(frozen=True)
class Key(Message):
    """The supervisor key switch."""
    MSG_TYPE: ClassVar[Msg] = Msg.KEY
    on: bool

    def encode(self) -> bytes:
        return _BOOL.pack(int(self.on))

    @classmethod
    def decode(cls, payload: bytes) -> Key:
        (on,) = _fixed(cls, _BOOL, payload)
        return cls(_bool_byte(cls.MSG_TYPE, "on", on))


def _id_list(msg_type: int, payload: bytes) -> tuple[int, ...]:
    if not payload:
        raise MalformedPayload(msg_type, "empty, expected a count byte")
    _exact(msg_type, payload, 1 + payload[0])
    return tuple(payload[1:])


@dataclass(frozen=True)
class PanelStatus(Message):
    MSG_TYPE: ClassVar[Msg] = Msg.PANEL_STATUS
    key_on: bool
    pressed: tuple[int, ...] = ()  # buttons held down now, ascending

    def __post_init__(self) -> None:
        for button in self.pressed:
            _uint("pressed button", button, 8)
        if len(self.pressed) > MAX_PAYLOAD - 2:
            raise ValueError(f"{len(self.pressed)} pressed buttons do not fit in one frame")

    def encode(self) -> bytes:
        return bytes([int(self.key_on), len(self.pressed), *self.pressed])

    @classmethod
    def decode(cls, payload: bytes) -> PanelStatus:
        if not payload:
            raise MalformedPayload(cls.MSG_TYPE, "empty, expected the key byte")
        return cls(_bool_byte(cls.MSG_TYPE, "key_on", payload[0]),
                   _id_list(cls.MSG_TYPE, payload[1:]))


# ---------------------------------------------------------------- lights


@dataclass(frozen=True)
class LampSet(Message):
    MSG_TYPE: ClassVar[Msg] = Msg.LAMP_SET
    lamp: int  # plain uint8: the controller maps names to ids per game
    pattern: LampPattern

    def __post_init__(self) -> None:
        _uint("lamp", self.lamp, 8)
        object.__setattr__(self, "pattern", _enum("pattern", LampPattern, self.pattern))

    def encode(self) -> bytes:
        return _BUTTON.pack(self.lamp, self.pattern)

    @classmethod
    def decode(cls, payload: bytes) -> LampSet:
        lamp, pattern = _fixed(cls, _BUTTON, payload)
        return cls(lamp, _payload_enum(cls.MSG_TYPE, "pattern", LampPattern, pattern))


def _payload_enum(msg_type: int, name: str, enum_type: type[E], value: object) -> E:
    try:
        return _enum(name, enum_type, value)
    except ValueError as error:
        raise MalformedPayload(msg_type, str(error)) from None


@dataclass(frozen=True)
class AllOff(Message):
    MSG_TYPE: ClassVar[Msg] = Msg.ALL_OFF


@dataclass(frozen=True)
class LampQuery(Message):
    MSG_TYPE: ClassVar[Msg] = Msg.LAMP_QUERY


@dataclass(frozen=True)
class LampReport(Message):
    """Every lamp the device has, by id: ``lamps[i]`` is lamp i's pattern."""
    MSG_TYPE: ClassVar[Msg] = Msg.LAMP_REPORT
    lamps: tuple[LampPattern, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.lamps) > MAX_PAYLOAD - 1:
            raise ValueError(f"{len(self.lamps)} lamps do not fit in one frame")
        object.__setattr__(self, "lamps", tuple(_enum("lamp pattern", LampPattern, p) for p in self.lamps))

    def encode(self) -> bytes:
        return bytes([len(self.lamps), *self.lamps])

    @classmethod
    def decode(cls, payload: bytes) -> LampReport:
        patterns = _id_list(cls.MSG_TYPE, payload)
        return cls(tuple(_payload_enum(cls.MSG_TYPE, f"lamp {i} pattern", LampPattern, p)
                         for i, p in enumerate(patterns)))


# ---------------------------------------------------------------- bet sensor (protocol 1.3)


MAX_SPACES = 255  # space ids 0..254; 0xFF in SPACE_QUERY means every space
ALL_SPACES = 0xFF
MAX_SPACE_NAME = 24
UID_SIZES = range(4, 11)  # ISO 14443 UIDs are 4, 7 or 10 bytes; 4..10 are taken
MAX_CHIPS_REPORTED = 128  # a space reports at most this many chips; more sets OVERFLOW
LAYOUT_MORE = 0x01
SPACE_MORE = 0x01
SPACE_OVERFLOW = 0x02
_SPACE_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
_LAYOUT_HEAD = struct.Struct("<BBB")  # flags, part, count
_LAYOUT_ENTRY = struct.Struct("<BBB")  # space, seat, name length
_SPACE_HEAD = struct.Struct("<BBBIIB")  # space, flags, part, change, device_ms, count
_CHIP_VALUE = struct.Struct("<I")
_MIN_CHIP = 1 + UID_SIZES[0] + _CHIP_VALUE.size
# a chip by its UID's length, the length byte skipped (a pad byte: _decode_chips checks them all at once)
_CHIP_ENTRIES = {size: struct.Struct(f"<x{size}sI") for size in UID_SIZES}
_new = object.__new__
M = TypeVar("M")


def _checked(cls: type[M], **fields: Any) -> M:
    """A frozen dataclass `cls` of fields a decoder has checked, built without __post_init__'s
    checks (they cost more than decoding a SPACE)."""
    made = _new(cls)
    made.__dict__.update(fields)  # frozen stops __setattr__ only; these classes have no slots
    return made


@dataclass(frozen=True)
class BetSpace:
    """One betting space of the layout: its wire id, its seat (or spot; 0: the whole table's)
    and its name, the game's wager key ("banker", "fortune_bonus")."""
    space: int
    seat: int
    name: str

    def __post_init__(self) -> None:
        _uint("space", self.space, 8)
        if self.space == ALL_SPACES:
            raise ValueError(f"space={self.space} is reserved (SPACE_QUERY: every space)")
        _uint("seat", self.seat, 8)
        if not isinstance(self.name, str) or not 1 <= len(self.name) <= MAX_SPACE_NAME \
                or not set(self.name) <= _SPACE_NAME_CHARS:
            raise ValueError(f"space name {self.name!r} must be 1..{MAX_SPACE_NAME} of a-z, 0-9, _")

    def encode(self) -> bytes:
        name = self.name.encode("ascii")
        return _LAYOUT_ENTRY.pack(self.space, self.seat, len(name)) + name


class _ChipFields(NamedTuple):
    uid: bytes
    value: int


class Chip(_ChipFields):
    """A chip on a space: its tag's UID and the value the tag carries, in minor units.

    A named tuple, not a dataclass: a SPACE brings up to 19 chips, and decoding builds them
    with tuple.__new__ straight from struct.iter_unpack's (uid, value) pairs, in C, after
    checking the whole list at once (_decode_chips); the constructor checks its fields."""
    __slots__ = ()

    def __new__(cls, uid: bytes, value: int) -> Chip:
        if not isinstance(uid, bytes) or len(uid) not in UID_SIZES:
            raise ValueError(f"chip uid {uid!r} must be {UID_SIZES[0]}..{UID_SIZES[-1]} bytes")
        _uint("chip value", value, 32)
        return super().__new__(cls, uid, value)

    def encode(self) -> bytes:
        return bytes([len(self.uid)]) + self.uid + _CHIP_VALUE.pack(self.value)


_decoded_chip: Callable[[tuple[bytes, int]], Chip] = functools.partial(tuple.__new__, Chip)  # checked already


def _count_fits(msg_type: int, count: int, left: int, smallest: int, what: str) -> None:
    """Refuse a count the rest of the payload cannot hold, before anything is parsed for it."""
    if count * smallest > left:
        raise MalformedPayload(msg_type, f"{count} {what} need at least {count * smallest} bytes, {left} left")


@dataclass(frozen=True)
class Layout(Message):
    """The sensor's betting spaces, in answer to STATUS_QUERY (PROTOCOL.md §10). A layout longer
    than one frame goes in several, numbered by ``part`` from 0, each but the last with ``more``."""
    MSG_TYPE: ClassVar[Msg] = Msg.LAYOUT
    spaces: tuple[BetSpace, ...] = ()
    more: bool = False
    part: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "spaces", tuple(self.spaces))
        if len(self.spaces) > MAX_SPACES:
            raise ValueError(f"{len(self.spaces)} spaces in one LAYOUT, at most {MAX_SPACES}")
        _uint("part", self.part, 8)

    def encode(self) -> bytes:
        return _LAYOUT_HEAD.pack(LAYOUT_MORE if self.more else 0, self.part, len(self.spaces)) + \
            b"".join(space.encode() for space in self.spaces)

    @classmethod
    def decode(cls, payload: bytes) -> Layout:
        if len(payload) < _LAYOUT_HEAD.size:
            raise MalformedPayload(cls.MSG_TYPE, f"{len(payload)} bytes, at least {_LAYOUT_HEAD.size}")
        flags, part, count = _LAYOUT_HEAD.unpack_from(payload)
        _flag_bits("flags", flags, LAYOUT_MORE)
        at = _LAYOUT_HEAD.size
        _count_fits(cls.MSG_TYPE, count, len(payload) - at, _LAYOUT_ENTRY.size + 1, "spaces")
        spaces: list[BetSpace] = []
        for _ in range(count):
            if len(payload) - at < _LAYOUT_ENTRY.size:
                raise MalformedPayload(cls.MSG_TYPE, f"space {len(spaces)} is cut short")
            space, seat, length = _LAYOUT_ENTRY.unpack_from(payload, at)
            at += _LAYOUT_ENTRY.size
            name = payload[at:at + length]
            if len(name) != length:
                raise MalformedPayload(cls.MSG_TYPE, f"space {space}: name of {length} bytes is cut short")
            at += length
            if not name.isascii():
                raise MalformedPayload(cls.MSG_TYPE, f"space {space}: name {name!r} is not ASCII")
            spaces.append(BetSpace(space, seat, name.decode("ascii")))
        _exact(cls.MSG_TYPE, payload, at)
        return cls(tuple(spaces), bool(flags & LAYOUT_MORE), part)


@dataclass(frozen=True)
class Space(Message):
    """The chips on one space, whole, sent on every change and when asked. ``change`` counts the
    space's changes since boot (its frames all carry it); ``part`` numbers a list's frames from 0;
    ``more``: the list goes on in the next SPACE frame; ``overflow``: more chips lie there than
    the MAX_CHIPS_REPORTED reported."""
    MSG_TYPE: ClassVar[Msg] = Msg.SPACE
    space: int
    change: int
    device_ms: int
    chips: tuple[Chip, ...] = ()
    more: bool = False
    overflow: bool = False
    part: int = 0

    def __post_init__(self) -> None:
        _uint("space", self.space, 8)
        if self.space == ALL_SPACES:
            raise ValueError(f"space={self.space} is reserved (SPACE_QUERY: every space)")
        _uint("part", self.part, 8)
        _uint("change", self.change, 32)
        _uint("device_ms", self.device_ms, 32)
        object.__setattr__(self, "chips", tuple(self.chips))
        if len(self.chips) > MAX_PAYLOAD // _MIN_CHIP:
            raise ValueError(f"{len(self.chips)} chips do not fit in one SPACE frame")

    def encode(self) -> bytes:
        flags = (SPACE_MORE if self.more else 0) | (SPACE_OVERFLOW if self.overflow else 0)
        return _SPACE_HEAD.pack(self.space, flags, self.part, self.change, self.device_ms, len(self.chips)) + \
            b"".join(chip.encode() for chip in self.chips)

    @classmethod
    def decode(cls, payload: bytes) -> Space:
        if len(payload) < _SPACE_HEAD.size:
            raise MalformedPayload(cls.MSG_TYPE, f"{len(payload)} bytes, at least {_SPACE_HEAD.size}")
        space, flags, part, change, device_ms, count = _SPACE_HEAD.unpack_from(payload)
        _flag_bits("flags", flags, SPACE_MORE | SPACE_OVERFLOW)
        if space == ALL_SPACES:
            raise MalformedPayload(cls.MSG_TYPE, f"space={space} is reserved (SPACE_QUERY: every space)")
        at = _SPACE_HEAD.size
        _count_fits(cls.MSG_TYPE, count, len(payload) - at, _MIN_CHIP, "chips")
        chips = _decode_chips(cls.MSG_TYPE, payload, at, count)
        # every field is checked above (u8/u32 by their struct, the chips by _decode_chips, no more
        # than a payload holds): the constructor's checks again would cost more than the decoding
        return _checked(cls, space=space, change=change, device_ms=device_ms, chips=chips,
                        more=bool(flags & SPACE_MORE), overflow=bool(flags & SPACE_OVERFLOW), part=part)


def _decode_chips(msg_type: int, payload: bytes, at: int, count: int) -> tuple[Chip, ...]:
    """The `count` chips from `at` to the payload's end (MalformedPayload for anything else)."""
    if count and at < len(payload) and payload[at] in _CHIP_ENTRIES:
        # a stack is read from one kind of tag, every UID of one length: one struct over the
        # whole list, and one comparison of every length byte, instead of a loop per chip
        entry = _CHIP_ENTRIES[payload[at]]
        body = payload[at:]
        if len(body) == count * entry.size and body[::entry.size] == body[:1] * count:
            return tuple(map(_decoded_chip, entry.iter_unpack(body)))
    chips: list[Chip] = []
    for _ in range(count):
        length = payload[at] if at < len(payload) else 0
        if length not in UID_SIZES:
            raise MalformedPayload(msg_type, f"chip {len(chips)}: uid of {length} bytes, "
                                             f"expected {UID_SIZES[0]}..{UID_SIZES[-1]}")
        end = at + 1 + length + _CHIP_VALUE.size
        if end > len(payload):
            raise MalformedPayload(msg_type, f"chip {len(chips)} is cut short")
        (value,) = _CHIP_VALUE.unpack_from(payload, at + 1 + length)
        chips.append(_decoded_chip((payload[at + 1:at + 1 + length], value)))
        at = end
    _exact(msg_type, payload, at)
    return tuple(chips)


_SPACE_QUERY = struct.Struct("<B")


@dataclass(frozen=True)
class SpaceQuery(Message):
    """The host asks for one space's chips (ALL_SPACES: every space's), answered by SPACE."""
    MSG_TYPE: ClassVar[Msg] = Msg.SPACE_QUERY
    space: int = ALL_SPACES

    def __post_init__(self) -> None:
        _uint("space", self.space, 8)

    def encode(self) -> bytes:
        return _SPACE_QUERY.pack(self.space)

    @classmethod
    def decode(cls, payload: bytes) -> SpaceQuery:
        return cls(*_fixed(cls, _SPACE_QUERY, payload))


def layout_messages(spaces: tuple[BetSpace, ...]) -> list[Layout]:
    """The LAYOUT frames of a whole layout, as many spaces in each as fit, ``more`` on all but
    the last (one frame, empty, for no spaces)."""
    if len(spaces) > MAX_SPACES or len({s.space for s in spaces}) != len(spaces):
        raise ValueError(f"a layout has at most {MAX_SPACES} spaces, each id once")
    frames: list[list[BetSpace]] = [[]]
    size = _LAYOUT_HEAD.size
    for space in spaces:
        entry = len(space.encode())
        if size + entry > MAX_PAYLOAD:
            frames.append([])
            size = _LAYOUT_HEAD.size
        frames[-1].append(space)
        size += entry
    return [Layout(tuple(part), more=i < len(frames) - 1, part=i) for i, part in enumerate(frames)]


def space_messages(space: int, change: int, device_ms: int, chips: tuple[Chip, ...]) -> list[Space]:
    """The SPACE frames of one space's chips: the first MAX_CHIPS_REPORTED (more: ``overflow``),
    as many in each frame as fit, ``more`` on all but the last (one frame, empty, for none)."""
    overflow = len(chips) > MAX_CHIPS_REPORTED
    frames: list[list[Chip]] = [[]]
    size = _SPACE_HEAD.size
    for chip in chips[:MAX_CHIPS_REPORTED]:
        entry = len(chip.encode())
        if size + entry > MAX_PAYLOAD:
            frames.append([])
            size = _SPACE_HEAD.size
        frames[-1].append(chip)
        size += entry
    last = len(frames) - 1
    return [Space(space, change, device_ms, tuple(part), more=i < last, overflow=overflow and i == last, part=i)
            for i, part in enumerate(frames)]


# ---------------------------------------------------------------- pack / unpack


MESSAGE_TYPES: dict[int, type[Message]] = {
    cls.MSG_TYPE: cls for cls in (
        Hello, Ack, Nak, Heartbeat, Error, StatusQuery, CardRead, ShoeStatus,
        Button, Key, PanelStatus, LampSet, AllOff, LampQuery, LampReport, Layout, Space, SpaceQuery,
    )
}


def pack(msg: Message) -> tuple[int, bytes]:
    payload = msg.encode()
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"{type(msg).__name__} payload is {len(payload)} bytes, at most {MAX_PAYLOAD}")
    return int(msg.MSG_TYPE), payload


def unpack(msg_type: int, payload: bytes) -> Message:
    cls = MESSAGE_TYPES.get(msg_type)
    if cls is None:
        raise UnknownMessageType(msg_type)
    try:
        return cls.decode(bytes(payload))
    except MalformedPayload:
        raise
    except (ValueError, UnicodeDecodeError, struct.error) as error:
        raise MalformedPayload(msg_type, str(error)) from None

"""The small numbered vocabularies of the wire (PROTOCOL.md §3): all plain uint8 on the wire."""
from __future__ import annotations

import enum


class DeviceKind(enum.IntEnum):
    HOST = 0
    SHOE = 1
    PANEL = 2
    LIGHTS = 3
    BETS = 4  # protocol 1.3: the bet sensor, RFID antennas under the betting spaces


class LampPattern(enum.IntEnum):
    OFF = 0
    ON = 1
    SLOW_BLINK = 2
    FAST_BLINK = 3


class NakReason(enum.IntEnum):
    OUT_OF_ORDER = 1  # SEQ is the sequence number the receiver expected: resend from there
    UNKNOWN_TYPE = 2  # SEQ was received and consumed, but its type is not known here
    MALFORMED = 3  # SEQ was received and consumed, but its payload did not parse
    UNSUPPORTED_VERSION = 4  # the frame's VER is not our major version
    NOT_CONNECTED = 5  # no HELLO yet in this session: send one
    # protocol 1.1 (PROTOCOL.md §8), each answering a HELLO request (SEQ = the request's):
    AUTH_REQUIRED = 6  # I have a key for you: only an authenticated HELLO opens a session
    AUTH_UNAVAILABLE = 7  # I have no key: I cannot take an authenticated HELLO
    AUTH_FAILED = 8  # your HELLO's MAC does not verify with my key: our keys differ


class ErrorCode(enum.IntEnum):
    UNSUPPORTED = 1  # the message means nothing to this device kind
    BAD_LAMP = 2  # no lamp with that id
    HARDWARE = 3  # a sensor or driver fault inside the device
    SHOE_EMPTY = 4  # a draw was asked of an empty shoe
    BAD_SPACE = 5  # protocol 1.3: no betting space with that id


class Msg(enum.IntEnum):
    """Message type numbers (the frame's TYPE byte)."""
    HELLO = 0x01
    ACK = 0x02
    NAK = 0x03
    HEARTBEAT = 0x04
    ERROR = 0x05
    STATUS_QUERY = 0x06
    CARD = 0x10
    SHOE_STATUS = 0x11
    BUTTON = 0x20
    KEY = 0x21
    PANEL_STATUS = 0x22
    LAMP_SET = 0x30
    ALL_OFF = 0x31
    LAMP_QUERY = 0x32
    LAMP_REPORT = 0x33
    # protocol 1.3: the bet sensor (PROTOCOL.md §10)
    LAYOUT = 0x40
    SPACE = 0x41
    SPACE_QUERY = 0x42


def type_name(msg_type: int) -> str:
    try:
        return Msg(msg_type).name
    except ValueError:
        return f"type 0x{msg_type:02x}"

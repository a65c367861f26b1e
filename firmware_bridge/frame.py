"""Framing: turn frames into bytes and bytes back into frames (see PROTOCOL.md §1, §8).

    offset  size  field
    0       2     SYNC     0xF5 0x5A (0xF5 > MAX_PAYLOAD: a repeated sync is never a valid header)
    2       1     LEN      payload length, 0..MAX_PAYLOAD
    3       1     LENX     LEN ^ 0xFF (a corrupted length is caught before we wait for a body)
    4       1     VER      protocol major version
    5       1     TYPE     message type
    6       1     SEQ      sender's sequence number
    7       1     ACK      last sequence number received in order from the peer
    8       1     FLAGS    bit0 RELIABLE, bit1 ACK_VALID, bit2 AUTH
    9       LEN   PAYLOAD
    (with AUTH: 9+LEN  4  CTR  the sender's frame counter or HELLO nonce, then 16 bytes MAC)
    ...     4     CRC      CRC-32 (zlib / IEEE 802.3), little-endian, over everything from LEN on

`decode` is pure: it hunts past garbage and never returns a frame whose length check
or CRC fails. A candidate that fails is abandoned one byte past its first sync byte,
so a corrupted frame never swallows the good frame behind it. A length-prefixed
frame can still leave a false candidate waiting for bytes that never come (garbage that
happens to look like a header): `scan(..., final=True)` / `FrameDecoder.flush()` treat the
stream as ended, which the link does once the line has been idle for a moment.
Checking the MAC is the link's business (link_auth.py); framing only carries it.
"""
from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass

SYNC = b"\xf5\x5a"
PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 3  # 1.3: the bet sensor's messages (PROTOCOL.md §10); 1.2: durable acks (§9)
MAX_PAYLOAD = 240
HEADER_SIZE = 9
CRC_SIZE = 4
OVERHEAD = HEADER_SIZE + CRC_SIZE
COUNTER_SIZE = 4
MAC_SIZE = 16  # HMAC-SHA-256 truncated to 128 bits (PROTOCOL.md §8 says why)
TRAILER_SIZE = COUNTER_SIZE + MAC_SIZE
MAX_FRAME = OVERHEAD + MAX_PAYLOAD + TRAILER_SIZE

FLAG_RELIABLE = 0x01  # sequence-numbered; the receiver acks it and delivers it once
FLAG_ACK_VALID = 0x02  # the ACK field is meaningful
FLAG_AUTH = 0x04  # a counter and a MAC follow the payload (protocol 1.1)
KNOWN_FLAGS = FLAG_RELIABLE | FLAG_ACK_VALID | FLAG_AUTH

_HEADER = struct.Struct("<2sBBBBBBB")
_CRC = struct.Struct("<I")
_COUNTER = struct.Struct("<I")
BytesLike = bytes | bytearray | memoryview


@dataclass(frozen=True, slots=True)
class Frame:
    msg_type: int
    seq: int = 0
    ack: int = 0
    flags: int = 0
    payload: bytes = b""
    version: int = PROTOCOL_MAJOR
    counter: int = 0  # with FLAG_AUTH: the frame counter (a HELLO's: its nonce)
    mac: bytes = b""  # with FLAG_AUTH: MAC_SIZE bytes

    @property
    def reliable(self) -> bool:
        return bool(self.flags & FLAG_RELIABLE)

    @property
    def ack_valid(self) -> bool:
        return bool(self.flags & FLAG_ACK_VALID)

    @property
    def authenticated(self) -> bool:
        """Carries a counter and a MAC (not yet checked: that is the link's job)."""
        return bool(self.flags & FLAG_AUTH)


def _check_u8(name: str, value: int) -> None:
    if not isinstance(value, int) or not 0 <= value <= 0xFF:
        raise ValueError(f"frame field {name}={value!r} is not a uint8")


def _unsigned(frame: Frame) -> bytes:
    """SYNC, header, payload and (with FLAG_AUTH) the counter: the frame up to its MAC."""
    for name in ("version", "msg_type", "seq", "ack", "flags"):
        _check_u8(name, getattr(frame, name))
    payload = bytes(frame.payload)
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds MAX_PAYLOAD={MAX_PAYLOAD}")
    length = len(payload)
    body = _HEADER.pack(SYNC, length, length ^ 0xFF, frame.version, frame.msg_type,
                        frame.seq, frame.ack, frame.flags) + payload
    if frame.flags & FLAG_AUTH:
        if not isinstance(frame.counter, int) or not 0 <= frame.counter <= 0xFFFFFFFF:
            raise ValueError(f"frame field counter={frame.counter!r} is not a uint32")
        body += _COUNTER.pack(frame.counter)
    return body


def signed_part(frame: Frame) -> bytes:
    """What a MAC covers: every byte from LEN to the end of the counter (PROTOCOL.md §8)."""
    return _unsigned(frame)[2:]


def plain_frame_bytes(msg_type: int, seq: int, ack: int, flags: int, payload: bytes) -> bytes:
    """The bytes of an unauthenticated frame of this protocol version, straight from its fields:
    the link's own frames (acks, lamp frames, heartbeats), which need no Frame on the way out
    and no field-by-field check: the link makes every field itself, in range. A field out of
    range still raises (struct.error), a payload too long ValueError."""
    length = len(payload)
    if length > MAX_PAYLOAD:
        raise ValueError(f"payload of {length} bytes exceeds MAX_PAYLOAD={MAX_PAYLOAD}")
    body = _HEADER.pack(SYNC, length, length ^ 0xFF, PROTOCOL_MAJOR, msg_type, seq, ack, flags) + payload
    return body + _CRC.pack(zlib.crc32(memoryview(body)[2:]))


def encode_frame(frame: Frame, sign: Callable[[bytes], bytes] | None = None) -> bytes:
    """The bytes of one frame; raises ValueError naming a field that does not fit.

    With FLAG_AUTH the MAC is `sign(signed_part)` when `sign` is given, else `frame.mac`.
    """
    body = _unsigned(frame)
    if frame.flags & FLAG_AUTH:
        mac = sign(body[2:]) if sign is not None else bytes(frame.mac)
        if len(mac) != MAC_SIZE:
            raise ValueError(f"frame MAC of {len(mac)} bytes, expected {MAC_SIZE}")
        body += mac
    return body + _CRC.pack(zlib.crc32(memoryview(body)[2:]))


@dataclass(frozen=True, slots=True)
class Scan:
    """One step of the decoder: bytes it is done with, the frame (if any) and why it skipped."""
    used: int
    frame: Frame | None
    garbage: int  # bytes skipped that were not part of a good frame
    bad_crc: int  # candidates with a good header whose CRC failed
    bad_header: int  # sync found but the length check failed
    truncated: int = 0  # candidates abandoned because the stream ended (final=True)


def scan(buf: BytesLike, start: int = 0, final: bool = False) -> Scan:
    """Find the next good frame in ``buf[start:]``.

    ``used`` counts from ``start``: everything before it is garbage or the returned
    frame. With no frame, ``used`` stops at the first byte that could still begin
    one, so the caller keeps the tail and feeds more bytes. With ``final`` no more
    bytes will come: an incomplete candidate is garbage and the hunt goes on past it.
    """
    return Scan(*_scan(buf if isinstance(buf, (bytes, bytearray)) else bytes(buf), start, final))


def _scan(buf: bytes | bytearray, start: int, final: bool) -> tuple[int, Frame | None, int, int, int, int]:
    """`scan` as a plain tuple (used, frame, garbage, bad_crc, bad_header, truncated): the hot path."""
    view = memoryview(buf)
    end = len(view)
    pos = start
    bad_crc = bad_header = truncated = 0
    while True:
        found = buf.find(SYNC, pos)
        if found < 0:
            # keep a lone trailing first sync byte: it may begin a frame
            keep = 1 if not final and end > pos and view[end - 1] == SYNC[0] else 0
            return end - keep - start, None, end - keep - start, bad_crc, bad_header, truncated
        if end - found < 4:
            if final:
                truncated += 1
                pos = found + 1
                continue
            return found - start, None, found - start, bad_crc, bad_header, truncated
        length = view[found + 2]
        if length > MAX_PAYLOAD or view[found + 3] != length ^ 0xFF:
            bad_header += 1
            pos = found + 1
            continue
        if end - found < HEADER_SIZE:  # FLAGS says whether a trailer follows the payload
            if final:
                truncated += 1
                pos = found + 1
                continue
            return found - start, None, found - start, bad_crc, bad_header, truncated
        trailer = TRAILER_SIZE if view[found + 8] & FLAG_AUTH else 0
        total = OVERHEAD + length + trailer
        if end - found < total:
            if final:
                truncated += 1
                pos = found + 1
                continue
            return found - start, None, found - start, bad_crc, bad_header, truncated
        payload_end = found + HEADER_SIZE + length
        crc_at = payload_end + trailer
        if zlib.crc32(view[found + 2:crc_at]) != _CRC.unpack_from(view, crc_at)[0]:
            bad_crc += 1
            pos = found + 1
            continue
        _, _, _, version, msg_type, seq, ack, flags = _HEADER.unpack_from(view, found)
        payload = bytes(view[found + HEADER_SIZE:payload_end])
        if trailer:
            frame = Frame(msg_type, seq, ack, flags, payload, version, _COUNTER.unpack_from(view, payload_end)[0],
                          bytes(view[payload_end + COUNTER_SIZE:crc_at]))
        else:
            frame = Frame(msg_type, seq, ack, flags, payload, version)
        return found + total - start, frame, found - start, bad_crc, bad_header, truncated


def decode(buf: BytesLike) -> tuple[int, Frame | None]:
    """Pure: ``(bytes consumed, frame or None)``; skips garbage, never a frame with a bad CRC."""
    result = scan(buf)
    return result.used, result.frame


class FrameDecoder:
    """Incremental decoder: feed it bytes as they arrive, get the good frames out."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.frames = 0
        self.garbage_bytes = 0
        self.bad_crcs = 0
        self.bad_headers = 0
        self.truncated = 0

    def feed(self, data: BytesLike) -> list[Frame]:
        self._buf += data
        return self._drain(final=False)

    def flush(self) -> list[Frame]:
        """The stream has paused: give up on an incomplete candidate and hunt past it."""
        return self._drain(final=True)

    def _drain(self, final: bool) -> list[Frame]:
        frames = []
        pos = 0
        while True:
            used, frame, garbage, bad_crc, bad_header, truncated = _scan(self._buf, pos, final)
            pos += used
            self.garbage_bytes += garbage
            self.bad_crcs += bad_crc
            self.bad_headers += bad_header
            self.truncated += truncated
            if frame is None:
                break
            frames.append(frame)
            if pos == len(self._buf):  # all taken (a read is usually whole frames): no scan of nothing
                break
        if pos:
            del self._buf[:pos]
        self.frames += len(frames)
        return frames

    @property
    def pending(self) -> int:
        """Bytes held back because they may begin a frame."""
        return len(self._buf)

    def reset(self) -> None:
        self._buf.clear()

    def stats(self) -> dict[str, int]:
        return {"frames": self.frames, "garbage_bytes": self.garbage_bytes,
                "bad_crcs": self.bad_crcs, "bad_headers": self.bad_headers,
                "truncated": self.truncated}

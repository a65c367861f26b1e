"""Wire-level faults a simulator can inject into what it writes (pymodbus' manipulator idea).

Each armed fault hits the next reliable frame (a card, a status, a lamp report),
not an ack or heartbeat, so a test can say "drop the next card" and know which.
`forged_frame` is what someone at the line would inject instead (PROTOCOL.md §8).
"""
from __future__ import annotations

import random
from collections import deque

from firmware_bridge.frame import FLAG_ACK_VALID, FLAG_AUTH, FLAG_RELIABLE, MAC_SIZE, Frame, encode_frame
from firmware_bridge.link import Link
from firmware_bridge.messages import Message, pack
from firmware_bridge.sender import SEQ_MOD

FRAME_FAULTS = ("bad_crc", "drop", "duplicate")
FORGERIES = ("plain", "mac")


def forged_frame(link: Link, msg: Message, how: str, rng: random.Random) -> bytes:
    """`msg` as an injected frame: a good CRC and the SEQ the peer expects next (as if it
    came from `link`'s side), with no MAC ("plain": what works against protocol 1.0) or with
    a made-up MAC and the next counter ("mac")."""
    msg_type, payload = pack(msg)
    flags, ack = FLAG_RELIABLE, 0
    if link.rx_expected is not None:
        flags, ack = flags | FLAG_ACK_VALID, (link.rx_expected - 1) % SEQ_MOD
    if how == "plain":
        return encode_frame(Frame(msg_type, link.tx.next_seq, ack, flags, payload))
    counter = link.auth.tx_counter + 1 if link.auth is not None else 1
    return encode_frame(Frame(msg_type, link.tx.next_seq, ack, flags | FLAG_AUTH, payload,
                              counter=counter, mac=rng.randbytes(MAC_SIZE)))
_FLAGS_AT = 8  # offset of FLAGS in an encoded frame (frame.py)


class WireFaults:
    def __init__(self, rng: random.Random):
        self._rng = rng
        self.armed: deque[str] = deque()
        self.applied: dict[str, int] = {kind: 0 for kind in FRAME_FAULTS + ("garbage",)}
        self.forged = 0  # frames injected by `fault forge`

    def arm(self, kind: str) -> None:
        if kind not in FRAME_FAULTS:
            raise ValueError(f"unknown frame fault {kind!r} (one of {', '.join(FRAME_FAULTS)})")
        self.armed.append(kind)

    def garbage(self, count: int) -> bytes:
        self.applied["garbage"] += 1
        return bytes(self._rng.randrange(256) for _ in range(count))

    def apply(self, frames: list[bytes]) -> list[bytes]:
        out = []
        for frame in frames:
            if not self.armed or not frame[_FLAGS_AT] & FLAG_RELIABLE:
                out.append(frame)
                continue
            kind = self.armed.popleft()
            self.applied[kind] += 1
            if kind == "duplicate":
                out += [frame, frame]
            elif kind == "bad_crc":
                out.append(frame[:-1] + bytes([frame[-1] ^ 0xFF]))
            # "drop": nothing goes out; the link retransmits it after its ack timeout
        return out

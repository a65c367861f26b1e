"""Wire-level faults a simulator can inject into what it writes (pymodbus' manipulator idea).

Each armed fault hits the next reliable frame (a card, a status, a lamp report),
not an ack or heartbeat, so a test can say "drop the next card" and know which.
"""
from __future__ import annotations

import random
from collections import deque

from firmware_bridge.frame import FLAG_RELIABLE

FRAME_FAULTS = ("bad_crc", "drop", "duplicate")
_FLAGS_AT = 8  # offset of FLAGS in an encoded frame (frame.py)


class WireFaults:
    def __init__(self, rng: random.Random):
        self._rng = rng
        self.armed: deque[str] = deque()
        self.applied: dict[str, int] = {kind: 0 for kind in FRAME_FAULTS + ("garbage",)}

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

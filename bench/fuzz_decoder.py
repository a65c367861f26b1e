"""Fuzz the frame decoder and message unpacking: random and corrupted inputs, fixed seed.

    python3 bench/fuzz_decoder.py [--inputs 1000000] [--seed 20250601] [--workers 2]

Each input is one of:
  random      random bytes
  headerish   random bytes salted with a sync and a header that passes the length check
  corrupted   1-4 valid frames, then 1-3 mutations (bit flip, byte change, insert, delete,
              truncate, repeat a slice, swap bytes)
  payload     a random payload for a random type, or a real payload with 1-2 mutations
  auth        a recorded authenticated session (protocol 1.1: a shoe's HELLO answer and 12
              CARDs) attacked the way someone at the line could: one frame's bytes changed
              and its CRC fixed up, an earlier frame played again, a frame stripped of its MAC,
              a CARD forged with the expected SEQ and a made-up MAC; fed in random chunks to
              a fresh host link in the state that recorded it
Each byte input is decoded twice, with the pure `scan` loop and with a FrameDecoder fed
in random chunks then flushed; both must agree. Counted as failures:
  crash         any exception (for payloads: anything but UnknownMessageType/MalformedPayload)
  false frame   a frame that is not one of the frames encoded into the input, or whose
                encoding does not appear whole in the input
  disagreement  the two decodings differ
  lost frame    an untouched input (no mutation) that does not give back all its frames
A message that unpacks must pack back to the same payload. For `auth` inputs:
  auth delivery  the host delivers a message that was never sent, or not the sent ones in
                 order, each once, up to the first frame the attacker touched
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.enums import DeviceKind, ErrorCode, LampPattern, NakReason  # noqa: E402
from firmware_bridge.frame import (  # noqa: E402
    FLAG_AUTH,
    MAC_SIZE,
    MAX_PAYLOAD,
    SYNC,
    Frame,
    FrameDecoder,
    encode_frame,
    scan,
)
from firmware_bridge.link import Link  # noqa: E402
from firmware_bridge.link_events import SessionRefused, Tampered  # noqa: E402
from firmware_bridge.messages import (  # noqa: E402
    Button,
    CardRead,
    Error,
    Heartbeat,
    Hello,
    Key,
    LampReport,
    LampSet,
    MalformedPayload,
    Message,
    Nak,
    PanelStatus,
    ShoeStatus,
    UnknownMessageType,
    pack,
    unpack,
)

KINDS = ("random", "headerish", "corrupted", "payload", "auth")


def random_frame(rng: random.Random) -> Frame:
    """Any frame; with FLAG_AUTH (a random flags byte has it half the time) a counter and a MAC."""
    size = rng.choice((0, 1, 4, 11, 14, rng.randrange(MAX_PAYLOAD + 1)))
    flags = rng.randrange(256)
    trailer = (rng.getrandbits(32), rng.randbytes(MAC_SIZE)) if flags & FLAG_AUTH else (0, b"")
    return Frame(rng.randrange(256), rng.randrange(256), rng.randrange(256), flags,
                 rng.randbytes(size), rng.choice((1, 1, 1, rng.randrange(256))), *trailer)


def headerish(rng: random.Random) -> bytes:
    parts = []
    for _ in range(rng.randrange(1, 4)):
        length = rng.randrange(MAX_PAYLOAD + 1)
        parts.append(rng.randbytes(rng.randrange(8)) + SYNC + bytes([length, length ^ 0xFF])
                     + rng.randbytes(rng.randrange(length + 14)))
    return b"".join(parts)


def mutate(rng: random.Random, data: bytearray) -> None:
    if not data:
        data += rng.randbytes(4)
        return
    at = rng.randrange(len(data))
    kind = rng.randrange(7)
    if kind == 0:
        data[at] ^= 1 << rng.randrange(8)
    elif kind == 1:
        data[at] = rng.randrange(256)
    elif kind == 2:
        data[at:at] = rng.randbytes(rng.randrange(1, 16))
    elif kind == 3:
        del data[at:at + rng.randrange(1, 16)]
    elif kind == 4:
        del data[at:]
    elif kind == 5:
        end = min(len(data), at + rng.randrange(1, 40))
        data[at:at] = data[at:end]
    else:
        other = rng.randrange(len(data))
        data[at], data[other] = data[other], data[at]


def decode_all(data: bytes) -> list[Frame]:
    frames, pos = [], 0
    while True:
        result = scan(data, pos, final=True)
        pos += result.used
        if result.frame is None:
            return frames
        frames.append(result.frame)


def decode_chunked(rng: random.Random, data: bytes) -> list[Frame]:
    decoder, frames, pos = FrameDecoder(), [], 0
    while pos < len(data):
        step = rng.randrange(1, 64)
        frames += decoder.feed(data[pos:pos + step])
        pos += step
    return frames + decoder.flush()


def check_bytes(rng: random.Random, data: bytes, originals: list[Frame], untouched: bool, tally: dict) -> None:
    whole = decode_all(data)
    if decode_chunked(rng, data) != whole:
        tally["disagreement"] += 1
    allowed = set(originals)
    for frame in whole:
        if frame not in allowed or encode_frame(frame) not in data:
            tally["false_frames"] += 1
    if untouched and whole != originals:
        tally["lost_frames"] += 1
    tally["frames_out"] += len(whole)


SAMPLES = [pack(m) for m in (
    Hello(DeviceKind.SHOE, 7, "SN-1", (1, 2, 3)), Nak(3, NakReason.MALFORMED), Heartbeat(9),
    Error(ErrorCode.HARDWARE, "optics"), CardRead(0x0123, 4, 5, double_draw=True), ShoeStatus(3, 4),
    Button(2, True), Key(False), PanelStatus(True, (1, 2)), LampSet(4, LampPattern.ON),
    LampReport((LampPattern.ON, LampPattern.OFF)),
)]


def check_payload(rng: random.Random, tally: dict) -> None:
    if rng.random() < 0.5:
        msg_type = rng.randrange(256)
        payload = rng.randbytes(rng.choice((0, 1, 2, 11, 12, rng.randrange(64))))
    else:  # a real payload, slightly wrong: the parser's edges
        msg_type, good = rng.choice(SAMPLES)
        buf = bytearray(good)
        for _ in range(rng.randrange(1, 3)):
            mutate(rng, buf)
        payload = bytes(buf)
    try:
        msg = unpack(msg_type, payload)
    except (UnknownMessageType, MalformedPayload):
        return
    tally["payloads_accepted"] += 1
    if pack(msg) != (msg_type, payload):
        tally["repack_mismatch"] += 1


AUTH_KEY = bytes(range(32))
AUTH_HOST = Hello(DeviceKind.HOST, 0x1A2B3C4D, "tablectl")
AUTH_SHOE = Hello(DeviceKind.SHOE, 0x0BADCAFE, "SHOE-0042")
AUTH_CARDS = [CardRead(0x0101 + i, i + 1, 1000 * i) for i in range(12)]
_recorded: list[bytes] = []


def recorded_session() -> list[bytes]:
    """The shoe's frames of one authenticated session, as written (HELLO answer, then cards)."""
    if not _recorded:
        host = Link(AUTH_HOST, key=AUTH_KEY, nonces=lambda: 1)
        shoe = Link(AUTH_SHOE, key=AUTH_KEY, nonces=lambda: 2)
        host.start(0.0)
        shoe.receive(host.outgoing(), 0.0)
        for card in [None, *AUTH_CARDS]:
            if card is not None:
                shoe.send(card, 0.0)
            frames = shoe.outgoing_frames()
            _recorded.extend(frames)
            host.receive(b"".join(frames), 0.0)
            shoe.receive(host.outgoing(), 0.0)
    return _recorded


def with_crc(frame: bytes) -> bytes:
    """An attacker can always make the CRC right."""
    return frame[:-4] + zlib.crc32(frame[2:-4]).to_bytes(4, "little")


def attack(rng: random.Random, frames: list[bytes]) -> tuple[list[bytes], int]:
    """The frames with one attack; and the index of the first frame it touched."""
    frames = list(frames)
    at = rng.randrange(len(frames))
    how = rng.randrange(4)
    if how == 0:  # bytes changed (anything but the sync and the CRC), CRC fixed up
        buf = bytearray(frames[at])
        for _ in range(rng.randrange(1, 4)):
            buf[rng.randrange(2, len(buf) - 4)] ^= 1 << rng.randrange(8)
        frames[at] = with_crc(bytes(buf))
    elif how == 1:  # an earlier frame played again
        frames.insert(at, frames[rng.randrange(at + 1)])
    elif how == 2:  # the MAC stripped: the same frame as protocol 1.0 would send it
        (frame,) = FrameDecoder().feed(frames[at])
        frames[at] = encode_frame(Frame(frame.msg_type, frame.seq, frame.ack, frame.flags & ~FLAG_AUTH, frame.payload))
    else:  # a card injected with the SEQ the next frame has, a counter above the last, a made-up MAC
        (frame,) = FrameDecoder().feed(frames[at])
        msg_type, payload = pack(CardRead(0x0213, 99, 0))
        frames.insert(at, encode_frame(Frame(msg_type, frame.seq, frame.ack, frame.flags | FLAG_AUTH, payload,
                                             counter=frame.counter, mac=rng.randbytes(MAC_SIZE))))
    return frames, at


def check_auth(rng: random.Random, tally: dict) -> None:
    genuine = recorded_session()
    frames, at = attack(rng, genuine)
    data = b"".join(frames)
    host = Link(AUTH_HOST, key=AUTH_KEY, nonces=lambda: 1)
    host.start(0.0)
    events, pos = [], 0
    while pos < len(data):
        step = rng.randrange(1, 96)
        events += host.receive(data[pos:pos + step], 0.0)
        pos += step
    events += host.poll(1.0)  # flushes a held tamper report, and a half frame left by the attack
    delivered = [e for e in events if isinstance(e, Message)]
    untouched = max(0, at - 1)  # frames before the first touched one: the answer, then cards
    if delivered != AUTH_CARDS[:len(delivered)] or len(delivered) < untouched:
        tally["auth_delivery"] += 1
    tally["auth_tampered"] += sum(e.count for e in events if isinstance(e, Tampered))
    tally["auth_refused"] += any(isinstance(e, SessionRefused) for e in events)


def run(seed: int, count: int) -> dict:
    rng = random.Random(seed)
    tally = {k: 0 for k in ("inputs", "crashes", "false_frames", "disagreement", "lost_frames", "frames_out",
                            "payloads_accepted", "repack_mismatch", "mutated", "auth_delivery", "auth_tampered",
                            "auth_refused")}
    tally.update({f"kind_{k}": 0 for k in KINDS})
    for _ in range(count):
        kind = rng.choice(KINDS)
        tally["inputs"] += 1
        tally[f"kind_{kind}"] += 1
        try:
            if kind == "payload":
                check_payload(rng, tally)
                continue
            if kind == "auth":
                check_auth(rng, tally)
                continue
            originals: list[Frame] = []
            if kind == "random":
                data = rng.randbytes(rng.randrange(96))
            elif kind == "headerish":
                data = headerish(rng)
            else:
                originals = [random_frame(rng) for _ in range(rng.randrange(1, 5))]
                buf = bytearray(b"".join(encode_frame(f) for f in originals))
                mutations = rng.choice((0, 1, 1, 2, 3))
                for _ in range(mutations):
                    mutate(rng, buf)
                tally["mutated"] += mutations > 0
                data = bytes(buf)
            check_bytes(rng, data, originals, kind == "corrupted" and mutations == 0, tally)
        except Exception as error:  # a crash is exactly what we are counting
            tally["crashes"] += 1
            if tally["crashes"] <= 3:
                print(f"crash ({kind}): {type(error).__name__}: {error}", file=sys.stderr)
    return tally


FAILURES = ("crashes", "false_frames", "disagreement", "lost_frames", "repack_mismatch", "auth_delivery")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20250601)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    shares = [args.inputs // args.workers + (i < args.inputs % args.workers) for i in range(args.workers)]
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.starmap(run, [(args.seed * 1000 + i, n) for i, n in enumerate(shares)])
    seconds = time.perf_counter() - start
    total = {key: sum(r[key] for r in results) for key in results[0]}
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"seed {args.seed}, {args.workers} workers, {seconds:.1f} s")
    for key, value in total.items():
        print(f"  {key:18s} {value:>10,}")
    failures = sum(total[k] for k in FAILURES)
    print("PASS" if failures == 0 else f"FAIL: {failures} failures")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

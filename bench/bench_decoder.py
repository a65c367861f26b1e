"""Frame decoder throughput: frames per second through FrameDecoder.feed, and the whole link.

    python3 bench/bench_decoder.py [--frames 200000] [--chunk 4096] [--repeat 5]

Streams of realistic frames (CARD, SHOE_STATUS, LAMP_SET, ACK, HEARTBEAT, LAMP_REPORT)
are fed in chunks of --chunk bytes (a serial read) and one frame at a time; the link
figure adds sequence checks, acks and message unpacking (host Link.receive). Best of
--repeat runs; prints the machine it ran on.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.enums import DeviceKind, LampPattern  # noqa: E402
from firmware_bridge.frame import FLAG_ACK_VALID, FLAG_RELIABLE, Frame, FrameDecoder, encode_frame  # noqa: E402
from firmware_bridge.link import Link  # noqa: E402
from firmware_bridge.messages import (  # noqa: E402
    Ack,
    CardRead,
    Heartbeat,
    Hello,
    LampReport,
    LampSet,
    ShoeStatus,
    pack,
)

MIX = [CardRead(0x0101, 1, 5), ShoeStatus(1, 5), LampSet(3, LampPattern.ON), Ack(), Heartbeat(77),
       LampReport(tuple(LampPattern(i % 4) for i in range(32)))]


def mixed_stream(count: int) -> bytes:
    frames = []
    for i in range(count):
        msg_type, payload = pack(MIX[i % len(MIX)])
        frames.append(encode_frame(Frame(msg_type, seq=i % 256, ack=i % 256, flags=FLAG_ACK_VALID, payload=payload)))
    return b"".join(frames)


def card_session(count: int) -> bytes:
    """What a shoe sends in a session: its HELLO answer, then `count` sequenced cards."""
    hello = Hello(DeviceKind.SHOE, boot_id=1)
    out = [encode_frame(Frame(1, seq=0, ack=0, flags=FLAG_RELIABLE | FLAG_ACK_VALID, payload=hello.encode()))]
    for i in range(count):
        _, payload = pack(CardRead(0x0101 + (i % 13), i + 1, i))
        out.append(encode_frame(Frame(0x10, seq=(i + 1) % 256, ack=0, flags=FLAG_RELIABLE | FLAG_ACK_VALID,
                                      payload=payload)))
    return b"".join(out)


def best(repeat: int, run) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200_000)
    parser.add_argument("--chunk", type=int, default=4096)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    stream = mixed_stream(args.frames)
    chunks = [stream[i:i + args.chunk] for i in range(0, len(stream), args.chunk)]
    single = [encode_frame(Frame(0x10, seq=i % 256, payload=bytes(11))) for i in range(args.frames)]

    def chunked():
        decoder = FrameDecoder()
        assert sum(len(decoder.feed(c)) for c in chunks) == args.frames

    def one_by_one():
        decoder = FrameDecoder()
        assert sum(len(decoder.feed(f)) for f in single) == args.frames

    session = card_session(args.frames)
    session_chunks = [session[i:i + args.chunk] for i in range(0, len(session), args.chunk)]

    def link():
        host = Link(Hello(DeviceKind.HOST, boot_id=9))
        host.start(0.0)
        host.outgoing()
        delivered = 0
        for chunk in session_chunks:
            delivered += len(host.receive(chunk, 0.0))
            host.outgoing()
        assert delivered == args.frames + 1  # the Connected event and every card

    print(f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    print(f"stream: {args.frames} frames, {len(stream)} bytes, mean {len(stream) / args.frames:.1f} B/frame")
    for name, run in (("decoder, 4 KiB chunks", chunked), ("decoder, one frame per feed", one_by_one),
                      ("host link, cards in 4 KiB chunks", link)):
        seconds = best(args.repeat, run)
        print(f"{name:34s} {args.frames / seconds:>10,.0f} frames/s  ({seconds:.3f} s best of {args.repeat})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

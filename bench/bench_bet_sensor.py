"""The bet sensor on the wire: what a whole-state answer costs per game, and how fast the host
reads SPACE frames.

    python3 bench/bench_bet_sensor.py [--frames 50000] [--repeat 5]

For each game's layout (firmware_bridge/sim/bets.py: every seat or spot): the STATUS_QUERY
answer's frames and bytes, with every space empty and with 5 chips on every space, and its
time on a 115200-baud line (10 bits a byte). Then SPACE frames of 1, 5 and 19 chips (a full
frame of 7-byte UIDs): unpacked per second, and through the host's Link (decoder, sequence
checks, acks, unpacking). Best of --repeat runs; prints the machine it ran on.
"""
from __future__ import annotations

import argparse
import functools
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.enums import DeviceKind  # noqa: E402
from firmware_bridge.frame import FLAG_ACK_VALID, FLAG_RELIABLE, Frame, encode_frame  # noqa: E402
from firmware_bridge.link import Link  # noqa: E402
from firmware_bridge.messages import Chip, Hello, Space, layout_messages, pack, space_messages, unpack  # noqa: E402
from firmware_bridge.sim.bets import game_layout  # noqa: E402
from games.registry import GAME_KEYS  # noqa: E402

BAUD = 115200
OVERHEAD = 13  # a frame's bytes beyond its payload (PROTOCOL.md §1)


def chips(count: int) -> tuple[Chip, ...]:
    return tuple(Chip(b"\x04\x7b" + i.to_bytes(5, "big"), 500) for i in range(count))


def answer_bytes(game: str, per_space: int) -> tuple[int, int]:
    """(frames, bytes) of a STATUS_QUERY answer with `per_space` chips on every space."""
    spaces = game_layout(game)
    messages = [*layout_messages(spaces)]
    for space in spaces:
        messages += space_messages(space.space, 1, 0, chips(per_space))
    return len(messages), sum(len(pack(m)[1]) + OVERHEAD for m in messages)


def best(repeat: int, run) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def sensor_stream(count: int, per_frame: int) -> bytes:
    """A bet sensor's session: its HELLO answer, then `count` sequenced SPACE frames."""
    hello = Hello(DeviceKind.BETS, boot_id=1)
    out = [encode_frame(Frame(1, seq=0, ack=0, flags=FLAG_RELIABLE | FLAG_ACK_VALID, payload=hello.encode()))]
    payload = pack(Space(3, 1, 0, chips(per_frame)))[1]
    for i in range(1, count + 1):
        out.append(encode_frame(Frame(0x41, seq=i % 256, ack=0, flags=FLAG_RELIABLE | FLAG_ACK_VALID, payload=payload)))
    return b"".join(out)


def unpack_many(msg_type: int, payload: bytes, count: int) -> None:
    for _ in range(count):
        unpack(msg_type, payload)


def through_link(stream: bytes) -> None:
    """The host's Link reading a sensor's session in serial reads of 4 KiB."""
    host = Link(Hello(DeviceKind.HOST, boot_id=2))
    host.start(0.0)
    host.outgoing()
    for at in range(0, len(stream), 4096):
        host.receive(stream[at:at + 4096], 0.0)
        host.outgoing()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cpus, "
          f"load {os.getloadavg()[0]:.1f}")
    print("game      spaces  empty: frames bytes ms   5 chips each: frames bytes ms")
    for game in GAME_KEYS:
        empty, full = answer_bytes(game, 0), answer_bytes(game, 5)
        print(f"{game:9} {len(game_layout(game)):6}  {empty[0]:13} {empty[1]:5} {empty[1] * 10_000 / BAUD:4.0f}"
              f"  {full[0]:20} {full[1]:5} {full[1] * 10_000 / BAUD:4.0f}")
    for per_frame in (1, 5, 19):
        msg_type, payload = pack(Space(3, 1, 0, chips(per_frame)))
        unpacked = best(options.repeat, functools.partial(unpack_many, msg_type, payload, options.frames))
        linked = best(options.repeat, functools.partial(through_link, sensor_stream(options.frames, per_frame)))
        print(f"SPACE of {per_frame:2} chips ({len(payload) + OVERHEAD:3} B): unpack {options.frames / unpacked:9,.0f}/s, "
              f"host link {options.frames / linked:8,.0f} frames/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

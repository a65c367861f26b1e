"""What authenticated frames (protocol 1.1, PROTOCOL.md §8) cost per frame: bytes and line time,
the MAC on its own, encoding a frame, and the host link receiving a shoe's cards.

    python3 bench/bench_auth.py [--frames 100000] [--repeat 5]

Every figure is measured with and without a key, best of --repeat runs, on the machine it
prints. The host-link figure replays one recorded session (a shoe's HELLO answer and
--frames CARDs, fed in 4 KiB chunks) into a fresh host link: sequence checks, acks,
unpacking, and with a key the MAC and counter check of every frame.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_decoder import best  # noqa: E402  (bench/ is the script's own directory)

from firmware_bridge.auth import FROM_DEVICE, HelloSigner  # noqa: E402
from firmware_bridge.enums import DeviceKind, LampPattern  # noqa: E402
from firmware_bridge.frame import (  # noqa: E402
    FLAG_ACK_VALID,
    FLAG_RELIABLE,
    MAX_PAYLOAD,
    Frame,
    encode_frame,
    signed_part,
)
from firmware_bridge.link import Link  # noqa: E402
from firmware_bridge.link_auth import LinkAuth  # noqa: E402
from firmware_bridge.messages import Ack, CardRead, Hello, LampReport, Message, pack  # noqa: E402

KEY = bytes(range(32))
BAUD_BYTES_PER_S = 115200 / 10  # 8N1: ten bit times a byte
HOST = Hello(DeviceKind.HOST, boot_id=0x1A2B3C4D, serial="tablectl")
SHOE = Hello(DeviceKind.SHOE, boot_id=0x0BADCAFE, serial="SHOE-0042")
SAMPLES = {"CARD": CardRead(0x0101, 42, 74_250), "ACK": Ack(),
           f"LAMP_REPORT ({MAX_PAYLOAD - 1} lamps, the largest)": LampReport((LampPattern.OFF,) * (MAX_PAYLOAD - 1))}


def sample_frame(msg) -> Frame:
    msg_type, payload = pack(msg)
    return Frame(msg_type, 5, 2, (FLAG_RELIABLE if msg.RELIABLE else 0) | FLAG_ACK_VALID, payload)


def session_auth() -> LinkAuth:
    auth = LinkAuth(KEY, is_host=False, nonces=lambda: 2)
    auth.open(SHOE.boot_id, HOST.boot_id, 2, 1)
    return auth


def recorded_session(count: int, key: bytes | None) -> bytes:
    """Everything a shoe writes in a session of `count` cards, acked as it goes."""
    host = Link(HOST, key=key, nonces=lambda: 1)
    shoe = Link(SHOE, key=key, nonces=lambda: 2)
    host.start(0.0)
    shoe.receive(host.outgoing(), 0.0)
    written = [shoe.outgoing()]
    host.receive(written[0], 0.0)
    shoe.receive(host.outgoing(), 0.0)
    for i in range(count):
        shoe.send(CardRead(0x0101 + i % 13, i + 1, i), 0.0)
        written.append(shoe.outgoing())
        host.receive(written[-1], 0.0)
        shoe.receive(host.outgoing(), 0.0)
    return b"".join(written)


def host_receives(stream: bytes, count: int, key: bytes | None, chunk: int = 4096):
    chunks = [stream[i:i + chunk] for i in range(0, len(stream), chunk)]

    def run() -> None:
        host = Link(HOST, key=key, nonces=lambda: 1)
        host.start(0.0)
        host.outgoing()
        delivered = 0
        for piece in chunks:
            delivered += sum(isinstance(e, Message) for e in host.receive(piece, 0.0))
            host.outgoing()
        assert delivered == count and host.stats["tampered"] == 0, (delivered, host.stats)
    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n, repeat = args.frames, args.repeat
    print(f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, {n:,} frames a run, best of {repeat}")

    print("\nbytes a frame, and its time on a 115200-baud line")
    auth = session_auth()
    for name, msg in SAMPLES.items():
        plain, keyed = len(encode_frame(sample_frame(msg))), len(auth.encode(sample_frame(msg), None))
        print(f"  {name:38s} {plain:4d} B {plain / BAUD_BYTES_PER_S * 1e3:5.2f} ms  ->  "
              f"{keyed:4d} B {keyed / BAUD_BYTES_PER_S * 1e3:5.2f} ms")

    print("\nper frame, µs: the MAC alone (HMAC-SHA-256 from a keyed state), encoding without and with a key")
    for name, msg in SAMPLES.items():
        frame = sample_frame(msg)
        signed = signed_part(Frame(frame.msg_type, frame.seq, frame.ack, frame.flags | 4, frame.payload, counter=7))
        session = session_auth().session

        def mac_only(signed=signed, session=session) -> None:
            for _ in range(n):
                session.mac(FROM_DEVICE, signed)

        def plain_encode(frame=frame) -> None:
            for _ in range(n):
                encode_frame(frame)

        def keyed_encode(frame=frame) -> None:
            signer = session_auth()
            for _ in range(n):
                signer.encode(frame, None)

        figures = [best(repeat, run) / n * 1e6 for run in (mac_only, plain_encode, keyed_encode)]
        print(f"  {name:38s} MAC {figures[0]:6.2f}   encode {figures[1]:6.2f} -> {figures[2]:6.2f}  "
              f"(+{figures[2] - figures[1]:.2f})")

    hello = HelloSigner(KEY)
    per_session = best(repeat, lambda: [hello.session(1, 2, 3, 4) for _ in range(n // 10)]) / (n // 10) * 1e6
    print(f"  a session key (once per HELLO exchange)  {per_session:6.2f}")

    print("\nhost link receiving a shoe's cards (4 KiB chunks)")
    results = {}
    for label, key in (("without a key (1.0 frames)", None), ("with a key (1.1 frames)", KEY)):
        stream = recorded_session(n, key)
        seconds = best(repeat, host_receives(stream, n, key))
        results[label] = seconds
        print(f"  {label:38s} {n / seconds:>9,.0f} frames/s  {seconds / n * 1e6:6.2f} µs a frame  "
              f"({len(stream) / n:.1f} B a frame)")
    plain_s, keyed_s = results.values()
    print(f"  authentication adds {(keyed_s - plain_s) / n * 1e6:.2f} µs a frame ({keyed_s / plain_s:.2f}x); "
          f"a 115200-baud line carries at most {BAUD_BYTES_PER_S / 44:.0f} authenticated CARD frames/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

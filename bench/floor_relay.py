"""The floor: the least a durable Python daemon must do on the card -> lamp path, as a process.

    python3 bench/floor_relay.py --shoe PTY --panel PTY --lights PTY --journal FILE --plan FILE.json

One thread, one selectors loop, the same wire as the daemon (firmware_bridge.Link: the HELLO
handshake, acks, retransmission, heartbeats) to the same simulated shoe, panel and lamp board
on their ptys. For each card the shoe delivers it writes the ack, one journal row in SQLite
(WAL, synchronous NORMAL; FULL, i.e. fsynced, for a card that decides a result), and then the
LAMP_SET frames the plan names for that draw counter. No table, no rules, no control socket,
no event stream. It prints {"event": "ready"} once all three sessions are up, and stops on
SIGTERM. bench/bench_floor.py runs it against the daemon.

The plan (JSON): {"<draw counter>": {"durable": bool, "lamps": [[lamp id, pattern], ...]}}.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import selectors
import signal
import sqlite3
import sys
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.enums import DeviceKind  # noqa: E402
from firmware_bridge.link import Link  # noqa: E402
from firmware_bridge.link_events import Connected, Delivered, PeerRebooted  # noqa: E402
from firmware_bridge.messages import CardRead, Hello, LampSet  # noqa: E402


class Device:
    def __init__(self, name: str, path: str) -> None:
        self.name = name
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC)
        tty.setraw(self.fd)
        self.link = Link(Hello(DeviceKind.HOST, boot_id=secrets.randbits(32), serial="floor"),
                         silence_timeout=3.5)
        self.up = False

    def flush(self) -> None:
        out = self.link.outgoing()
        if out:
            os.write(self.fd, out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("shoe", "panel", "lights"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--journal", required=True)
    parser.add_argument("--plan", required=True)
    args = parser.parse_args(argv)
    plan = {int(k): v for k, v in json.loads(Path(args.plan).read_text()).items()}
    db = sqlite3.connect(args.journal, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY, mono_ns INTEGER, kind TEXT, payload TEXT)")
    devices = {name: Device(name, getattr(args, name)) for name in ("shoe", "panel", "lights")}
    shoe, lights = devices["shoe"], devices["lights"]
    selector = selectors.DefaultSelector()
    for device in devices.values():
        selector.register(device.fd, selectors.EVENT_READ, device)
        device.link.start(time.monotonic())
        device.flush()
    running = [True]
    signal.signal(signal.SIGTERM, lambda *_: running.__setitem__(0, False))
    announced = False

    def on_card(msg: CardRead) -> None:
        step = plan.get(msg.draw_counter, {"durable": False, "lamps": []})
        if step["durable"]:
            db.execute("PRAGMA synchronous=FULL")  # this commit is fsynced before its lamps go out
        db.execute("INSERT INTO records (mono_ns, kind, payload) VALUES (?, 'card', ?)",
                   (time.monotonic_ns(), json.dumps({"code": msg.code, "counter": msg.draw_counter})))
        if step["durable"]:
            db.execute("PRAGMA synchronous=NORMAL")
        now = time.monotonic()
        for lamp, pattern in step["lamps"]:
            lights.link.send(LampSet(lamp, pattern), now)
        lights.flush()

    while running[0]:
        deadlines = [d for d in (device.link.next_deadline() for device in devices.values()) if d is not None]
        wait = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
        try:
            ready = selector.select(wait)
        except InterruptedError:
            continue
        now = time.monotonic()
        for key, _ in ready:
            device = key.data
            try:
                data = os.read(device.fd, 4096)
            except BlockingIOError:
                continue
            events = device.link.receive(data, now)
            device.flush()  # the ack first, as the daemon writes it
            for event in events:
                if isinstance(event, (Connected, PeerRebooted)):
                    device.up = True
                elif isinstance(event, Delivered) and isinstance(event.msg, CardRead) and device is shoe:
                    on_card(event.msg)
        for device in devices.values():
            device.link.poll(now)
            device.flush()
        if not announced and all(device.up for device in devices.values()):
            announced = True
            print(json.dumps({"event": "ready", "pid": os.getpid()}), flush=True)
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

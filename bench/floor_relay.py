"""The floor: the least a durable daemon must do on the card -> lamp path, as a process.

    python3 bench/floor_relay.py --shoe PTY --panel PTY --lights PTY --journal FILE --plan FILE.json

Written from firmware_bridge/PROTOCOL.md alone, importing only the standard library, so that
its cost owes nothing to tablectl's code: its own framing and CRC (§1), sequence numbers,
cumulative acks, NAKs, go-back-N retransmission in a window of 8 (§2), the HELLO request and
answer (§4, keyless: 1.0 framing, HELLO minor 3), heartbeats and the silence timeout. One
thread, one selectors loop over the shoe's, the panel's and the lamp board's ptys.

What it does with what the shoe says (a CARD, a SHOE_STATUS, an ERROR), per read of the shoe's
pty: one SQLite WAL row per message (with the shoe's boot_id), one commit with synchronous=FULL (fsynced), then the
LAMP_SET frames the plan names for each card's draw counter, then the shoe's ack (§9.1: a shoe
is acknowledged only once durable). A card repeating, byte for byte, one of the last 32 from
the same shoe boot (journaled ones too, after a restart) is dropped and acknowledged (§9.3). The panel and the lamp board are
acknowledged on arrival and their messages ignored. No table, no rules, no STATUS_QUERY, no
control socket, no event stream. It prints {"event": "ready"} once all three sessions are up,
and stops on SIGTERM. bench/bench_floor.py runs it against the daemon.

The plan (JSON): {"<draw counter>": {"durable": bool, "lamps": [[lamp id, pattern], ...]}};
"durable" is not used: every shoe message is fsynced before anything follows it.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import selectors
import signal
import sqlite3
import struct
import sys
import time
import tty
import zlib

SYNC = b"\xf5\x5a"
RELIABLE, ACK_VALID, AUTH = 0x01, 0x02, 0x04
HELLO, ACK, NAK, HEARTBEAT, ERROR, CARD, SHOE_STATUS, LAMP_SET = 0x01, 0x02, 0x03, 0x04, 0x05, 0x10, 0x11, 0x30
KEPT = {CARD: "card", SHOE_STATUS: "shoe_status", ERROR: "error"}  # a shoe's messages acked once durable
KNOWN = {HELLO, ACK, NAK, HEARTBEAT, ERROR, CARD, SHOE_STATUS, 0x20, 0x21, 0x22, 0x33}
PAYLOAD_LEN = {CARD: 11, SHOE_STATUS: 9, HEARTBEAT: 4, NAK: 2}
NAK_OUT_OF_ORDER, NAK_UNKNOWN_TYPE, NAK_MALFORMED, NAK_UNSUPPORTED_VERSION = 1, 2, 3, 4
WINDOW, ACK_TIMEOUT, RETRIES = 8, 0.25, 5
HEARTBEAT_EVERY, SILENCE, IDLE_ABANDON = 1.0, 3.5, 0.05
HOST_HELLO_TAIL = bytes([1, 3, 0, 0, 0])  # proto 1.3 (the page's host; 1.3 adds only the bet sensor), firmware 0.0.0
INSERT = "INSERT INTO records (mono_ns, shoe_boot, kind, payload) VALUES (?, ?, ?, ?)"


def frame(kind: int, seq: int, ack: int | None, reliable: bool, payload: bytes = b"") -> bytes:
    flags = (RELIABLE if reliable else 0) | (ACK_VALID if ack is not None else 0)
    body = bytes([len(payload), len(payload) ^ 0xFF, 1, kind, seq, ack or 0, flags]) + payload
    return SYNC + body + zlib.crc32(body).to_bytes(4, "little")


class Decoder:
    """§1: hunt for the sync, check LEN/LENX and the CRC, resume one byte after a false sync."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.heard = 0.0

    def feed(self, data: bytes, now: float) -> list[tuple[int, int, int, int, int, bytes]]:
        if self.buf and now - self.heard > IDLE_ABANDON:
            del self.buf[:1]  # an incomplete candidate after 50 ms idle: its sync was false
        self.heard = now
        buf = self.buf
        buf += data
        frames, i = [], 0
        while True:
            i = buf.find(SYNC, i)
            if i < 0:
                i = len(buf) - 1 if buf.endswith(SYNC[:1]) else len(buf)
                break
            if len(buf) - i < 9:
                break
            n = buf[i + 2]
            if n > 240 or buf[i + 3] != n ^ 0xFF:
                i += 1
                continue
            end = i + 13 + n + (20 if buf[i + 8] & AUTH else 0)
            if len(buf) < end:
                break
            if zlib.crc32(buf[i + 2:end - 4]) != int.from_bytes(buf[end - 4:end], "little"):
                i += 1
                continue
            ver, kind, seq, ack, flags = buf[i + 4:i + 9]
            frames.append((ver, kind, seq, ack, flags, bytes(buf[i + 9:i + 9 + n])))
            i = end
        del buf[:i]
        return frames


class Peer:
    """One device's link: the host's half of §2 and §4."""

    def __init__(self, name: str, path: str, boot_id: int) -> None:
        self.name = name
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC)
        tty.setraw(self.fd)
        self.boot_id = boot_id
        self.decoder = Decoder()
        self.out = bytearray()
        self.peer_boot: int | None = None
        self.recent: collections.deque[bytes] = collections.deque(maxlen=32)  # §9.3
        self.start(time.monotonic())

    def start(self, now: float) -> None:
        """A new session (§4.1): SEQ from 0, nothing received, the HELLO request first."""
        self.boot_id = (self.boot_id + 1) & 0xFFFFFFFF
        self.up = False
        self.tx_seq = 0
        self.unacked: collections.deque[tuple[int, int, bytes]] = collections.deque()
        self.waiting: collections.deque[tuple[int, bytes]] = collections.deque()
        self.expected: int | None = None
        self.acked: int | None = None  # the ACK we advertise: last SEQ in order (and durable)
        self.received: int | None = None  # last SEQ in order
        self.owe_ack = False
        self.retries = 0
        self.naked_for: int | None = None
        self.heard = self.progress = now
        serial = b"tablectl"
        self.request_seq = 0
        self.send(HELLO, bytes([0]) + HOST_HELLO_TAIL + struct.pack("<IBB", self.boot_id, 1, len(serial)) + serial, now)

    def write(self, kind: int, seq: int, reliable: bool, payload: bytes, now: float) -> None:
        self.out += frame(kind, seq, self.acked, reliable, payload)
        self.sent = now
        self.owe_ack = self.owe_ack and self.acked != self.received  # an ack not yet durable is still owed

    def send(self, kind: int, payload: bytes, now: float) -> None:
        """A reliable message: out now if the window has room, else in line behind the others."""
        if len(self.unacked) < WINDOW and not self.waiting and (self.up or kind == HELLO):
            self.transmit(kind, payload, now)
        else:
            self.waiting.append((kind, payload))

    def transmit(self, kind: int, payload: bytes, now: float) -> None:
        if not self.unacked:
            self.progress = now
        self.unacked.append((self.tx_seq, kind, payload))
        self.write(kind, self.tx_seq, True, payload, now)
        self.tx_seq = (self.tx_seq + 1) & 0xFF

    def take_ack(self, ack: int, now: float) -> None:
        moved = False
        while self.unacked and (ack - self.unacked[0][0]) & 0xFF < 128:
            self.unacked.popleft()
            moved = True
        if moved:
            self.progress, self.retries = now, 0
            self.drain(now)

    def drain(self, now: float) -> None:
        while self.waiting and len(self.unacked) < WINDOW and self.up:
            self.transmit(*self.waiting.popleft(), now)

    def retransmit(self, now: float) -> None:
        self.progress = now
        for seq, kind, payload in self.unacked:
            self.write(kind, seq, True, payload, now)

    def receive(self, data: bytes, now: float) -> list[tuple[int, bytes]]:
        """The messages delivered in order (type, payload); acks owed are marked, not written."""
        delivered = []
        self.heard = now
        for ver, kind, seq, ack, flags, payload in self.decoder.feed(data, now):
            if ver != 1:
                self.write(NAK, self.tx_seq, False, bytes([seq, NAK_UNSUPPORTED_VERSION]), now)
                continue
            if flags & ~(RELIABLE | ACK_VALID):
                continue  # unknown flags, or AUTH on a keyless link (§5): dropped, not acknowledged
            if kind == HELLO:
                self.on_hello(seq, ack, flags, payload, now)
                continue
            if not self.up:
                continue  # waiting for our answer: every other frame is dropped (§4.1)
            if flags & ACK_VALID:
                self.take_ack(ack, now)
            if kind == NAK and len(payload) == 2 and payload[1] == NAK_OUT_OF_ORDER:
                if self.unacked and payload[0] == self.unacked[0][0]:
                    self.retransmit(now)
            if not flags & RELIABLE:
                continue
            ahead = (seq - self.expected) & 0xFF
            if ahead == 0:
                self.expected = (seq + 1) & 0xFF
                self.received = seq
                self.owe_ack = True
                if kind not in KNOWN or len(payload) != PAYLOAD_LEN.get(kind, len(payload)):
                    reason = NAK_UNKNOWN_TYPE if kind not in KNOWN else NAK_MALFORMED
                    self.write(NAK, self.tx_seq, False, bytes([seq, reason]), now)
                else:
                    delivered.append((kind, payload))
            elif ahead < 128:
                if self.naked_for != self.expected:
                    self.naked_for = self.expected
                    self.write(NAK, self.tx_seq, False, bytes([self.expected, NAK_OUT_OF_ORDER]), now)
            else:
                self.owe_ack = True  # a retransmission: dropped and acknowledged again
        return delivered

    def on_hello(self, seq: int, ack: int, flags: int, payload: bytes, now: float) -> None:
        if len(payload) < 12 or len(payload) != 12 + payload[11] or payload[1] != 1:
            return
        boot_id, requested = struct.unpack_from("<I", payload, 6)[0], payload[10] & 1
        same_boot = boot_id == self.peer_boot
        if not same_boot:
            self.peer_boot = boot_id
            self.recent.clear()  # a reboot: its counters start again
        if not requested:  # an answer: ours if its ACK names our request
            if not self.up and flags & ACK_VALID and ack == self.request_seq:
                self.unacked.clear()
                self.up, self.expected, self.received, self.acked = True, (seq + 1) & 0xFF, seq, seq
                self.owe_ack, self.retries = True, 0
            elif self.up and seq == self.expected:  # both requested at once: an ordinary frame
                self.expected, self.received, self.owe_ack = (seq + 1) & 0xFF, seq, True
            elif self.up and 0 < (self.expected - seq) & 0xFF < 128:
                self.owe_ack = True  # our ack of it was lost: it comes again, acknowledge it again
            return
        if self.up and seq == self.received and same_boot:
            self.retransmit(now)  # a repeated request: the answer was lost
            return
        if flags & ACK_VALID and self.up:
            self.take_ack(ack, now)
        self.up, self.expected, self.received = True, (seq + 1) & 0xFF, seq
        self.acked, self.retries = seq, 0
        kept = list(self.unacked)
        self.unacked.clear()
        answer = bytes([0]) + HOST_HELLO_TAIL + struct.pack("<IBB", self.boot_id, 0, 8) + b"tablectl"
        self.transmit(HELLO, answer, now)
        # what was unacknowledged goes again first, renumbered after the answer (§4.2); our own
        # request is answered by theirs
        self.waiting.extendleft((kind, payload) for _, kind, payload in reversed(kept) if kind != HELLO)
        self.drain(now)

    def poll(self, now: float) -> None:
        """Timers: retransmission and the retry limit, heartbeat, silence (§2)."""
        if self.unacked and now - self.progress >= ACK_TIMEOUT:
            self.retries += 1
            if self.retries > RETRIES or (self.up and now - self.heard > SILENCE):
                self.start(now)
            else:
                self.retransmit(now)
        elif self.up and now - self.heard > SILENCE:
            self.start(now)
        if self.owe_ack:
            self.write(ACK, self.tx_seq, False, b"", now)
        if self.up and now - self.sent >= HEARTBEAT_EVERY:
            self.write(HEARTBEAT, self.tx_seq, False, struct.pack("<I", int(now * 1000) & 0xFFFFFFFF), now)

    def deadline(self) -> float:
        due = [self.heard + SILENCE + 0.001]
        if self.unacked:
            due.append(self.progress + ACK_TIMEOUT)
        if self.up:
            due.append(self.sent + HEARTBEAT_EVERY)
        return min(due)

    def flush(self) -> bool:
        """Write what waits; True when some is left for the pty to take later."""
        while self.out:
            try:
                del self.out[:os.write(self.fd, self.out)]
            except BlockingIOError:
                return True
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    for name in ("shoe", "panel", "lights"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--journal", required=True)
    parser.add_argument("--plan", required=True)
    args = parser.parse_args(argv)
    with open(args.plan) as f:
        plan = {int(k): [(lamp, pattern) for lamp, pattern in v["lamps"]] for k, v in json.load(f).items()}
    db = sqlite3.connect(args.journal, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")  # WAL + FULL: every commit fsynced
    db.execute("CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY, mono_ns INTEGER, shoe_boot INTEGER, kind TEXT, payload BLOB)")
    first_boot = random.getrandbits(32)
    peers = {name: Peer(name, getattr(args, name), first_boot + 0x100 * i) for i, name in enumerate(("shoe", "panel", "lights"))}
    shoe, lights = peers["shoe"], peers["lights"]
    last = db.execute("SELECT shoe_boot FROM records ORDER BY seq DESC LIMIT 1").fetchone()
    if last is not None:  # a restart: the cards journaled last from that shoe boot are known (§9.1)
        shoe.peer_boot = last[0]
        shoe.recent.extend(p for (p,) in db.execute(
            "SELECT payload FROM records WHERE kind = 'card' AND shoe_boot = ? ORDER BY seq DESC LIMIT 32", last).fetchall()[::-1])
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_w)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    selector = selectors.DefaultSelector()
    selector.register(wake_r, selectors.EVENT_READ, None)
    for peer in peers.values():
        selector.register(peer.fd, selectors.EVENT_READ, peer)
    announced = False

    def from_shoe(messages: list[tuple[int, bytes]], now: float) -> None:
        rows, lamps = [], []
        for kind, payload in messages:
            if kind not in KEPT or payload in shoe.recent:
                continue  # a card repeated byte for byte: dropped, acknowledged (§9.3)
            if kind == CARD:
                shoe.recent.append(payload)
                lamps += plan.get(int.from_bytes(payload[2:6], "little"), [])
            rows.append((time.monotonic_ns(), shoe.peer_boot, KEPT[kind], payload))
        if len(rows) == 1:  # autocommit: the INSERT is its own transaction
            db.execute(INSERT, rows[0])
        elif rows:
            db.execute("BEGIN")
            db.executemany(INSERT, rows)
            db.execute("COMMIT")
        for lamp, pattern in lamps:
            lights.send(LAMP_SET, bytes([lamp, pattern]), now)
        lights.flush()

    writing = dict.fromkeys(peers.values(), False)
    while not stopping:
        for peer in peers.values():
            if peer.flush() != writing[peer]:  # only then: a modify is a syscall
                writing[peer] = not writing[peer]
                selector.modify(peer.fd, selectors.EVENT_READ | (selectors.EVENT_WRITE if writing[peer] else 0), peer)
        ready = selector.select(max(0.0, min(p.deadline() for p in peers.values()) - time.monotonic()))
        now = time.monotonic()
        for key, mask in ready:
            peer = key.data
            if peer is None:
                os.read(wake_r, 64)
                continue
            if not mask & selectors.EVENT_READ:
                continue
            try:
                data = os.read(peer.fd, 4096)
            except BlockingIOError:
                continue
            messages = peer.receive(data, now)
            if peer is shoe:
                from_shoe(messages, now)  # durable, lamps out, and only then the ack
            peer.acked = peer.received
            if peer.owe_ack:
                peer.write(ACK, peer.tx_seq, False, b"", now)
            peer.flush()
        for peer in peers.values():
            peer.poll(now)
        if not announced and all(peer.up for peer in peers.values()):
            announced = True
            print(json.dumps({"event": "ready", "pid": os.getpid()}), flush=True)
    db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

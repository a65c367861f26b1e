"""bench/floor_relay.py, the benchmark's floor, keeps PROTOCOL.md and its durability, so the
floor it gives bench/bench_floor.py is a daemon's least, not less.

Its frames are checked against the page's worked bytes; the process against the real shoe,
panel and lamp board simulators on ptys, with wire faults, and killed while dealing: every
card the shoe had acknowledged is in the relay's journal, and after a restart every card is
there exactly once.
"""
from __future__ import annotations

import importlib.util
import json
import pathlib
import shutil
import signal
import sqlite3
import sys
import tempfile
import time

import pytest
from test_fb_protocol_page import page_example

from simulation.rig.processes import Child
from simulation.rig.sims import Sim

RELAY = pathlib.Path(__file__).resolve().parents[2] / "bench" / "floor_relay.py"
WAIT = 60.0  # generous: the machine may be loaded


@pytest.fixture(scope="module")
def relay():
    spec = importlib.util.spec_from_file_location("floor_relay", RELAY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_its_frames_are_the_pages_bytes(relay):
    (request, _, query, _, ack, _, _) = [raw for _, raw in page_example("handshake")]
    hello = bytes([0, 1, 3, 0, 0, 0]) + (0x1A2B3C4D).to_bytes(4, "little") + bytes([1, 8]) + b"tablectl"
    assert relay.frame(relay.HELLO, 0, None, True, hello) == request
    assert relay.frame(0x06, 1, 0, True) == query
    assert relay.frame(relay.ACK, 2, 1, False) == ack


def test_its_decoder_reads_the_pages_frames_through_garbage_and_splits(relay):
    frames = [raw for name in ("frames", "handshake", "kept-card-after") for _, raw in page_example(name)]
    stream = b"\xf5\x5a\xf5\x00" + frames[0] + b"\xf5\x5a\x10\xef\x01\x00" + b"".join(frames[1:])
    broken = bytearray(frames[0])
    broken[12] ^= 0x40  # a bad CRC: the frame behind it must not be swallowed
    stream = bytes(broken) + stream
    decoder, got = relay.Decoder(), []
    for i in range(len(stream)):  # one byte at a time, no idle gap
        got += decoder.feed(stream[i:i + 1], 0.0)
    assert [(kind, seq, payload) for _, kind, seq, _, _, payload in got] == [
        (raw[5], raw[6], raw[9:9 + raw[2]]) for raw in frames]


def test_an_incomplete_frame_is_abandoned_after_50_ms_idle(relay):
    (card, ack) = [raw for _, raw in page_example("frames")]
    decoder = relay.Decoder()
    assert decoder.feed(b"\xf5\x5a\xf0\x0f\x01", 0.0) == []  # announces 240 bytes that never come
    assert len(decoder.feed(card + ack, 0.2)) == 2


class Floor:
    """The three simulators and the relay process in a short temp dir."""

    def __init__(self, plan: dict) -> None:
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="flr-"))
        self.sims = {
            "shoe": Sim("shoe", self.dir, "--deck-kind", "standard52", "--decks", "1", "--seed", "3"),
            "panel": Sim("panel", self.dir, "--buttons", "8"),
            "lights": Sim("lights", self.dir, "--lamps", "16"),
        }
        (self.dir / "plan.json").write_text(json.dumps(plan))
        self.journal = self.dir / "floor.sqlite"
        self.relay: Child | None = None

    def start_relay(self) -> None:
        self.relay = Child("floor", [sys.executable, str(RELAY), "--journal", str(self.journal),
                                     "--plan", str(self.dir / "plan.json"),
                                     *[f"--{k}={self.dir / k}" for k in ("shoe", "panel", "lights")]], self.dir)
        self.until(lambda: '"ready"' in self.relay.stdout_path.read_text(), "the relay's sessions")

    def until(self, condition, what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not condition():
            assert self.relay is None or self.relay.running, self.relay.output()
            assert time.monotonic() < deadline, f"waited {WAIT:g} s for {what}"
            time.sleep(0.01)

    def journaled(self) -> list[tuple[str, bytes]]:
        with sqlite3.connect(self.journal) as db:
            return db.execute("SELECT kind, payload FROM records ORDER BY seq").fetchall()

    def counters(self) -> list[int]:
        return [int.from_bytes(p[2:6], "little") for kind, p in self.journaled() if kind == "card"]

    def close(self) -> None:
        if self.relay is not None and self.relay.running:
            self.relay.stop()
        for sim in self.sims.values():
            sim.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def floor():
    made: list[Floor] = []

    def make(plan: dict) -> Floor:
        made.append(Floor(plan))
        return made[-1]

    yield make
    for f in made:
        f.close()


def test_every_card_journaled_once_lamps_lit_and_acked_through_wire_faults(floor):
    # card 8 lights 12 lamps: more LAMP_SET frames than the window of 8 (§2) at once
    plan = {"3": {"durable": True, "lamps": [[0, 1], [1, 3]]}, "8": {"durable": True, "lamps": [[i, 2] for i in range(2, 14)]}}
    f = floor(plan)
    f.start_relay()
    shoe, lights = f.sims["shoe"], f.sims["lights"]
    for fault in ("drop", "bad_crc", "duplicate"):  # each on one of the next frames from the shoe
        shoe.command("fault", kind=fault)
    shoe.command("fault", kind="garbage", n=200)
    for _ in range(8):
        shoe.command("draw", n=1)
    f.until(lambda: lights.state()["changes"] == 14 and shoe.state()["queued"] == 0, "lamps and acks")
    assert f.counters() == list(range(1, 9))
    assert lights.state()["lamps"] == ["on", "fast_blink"] + ["slow_blink"] * 12 + ["off"] * 2
    stats = shoe.state()["link"]
    assert stats["retransmissions"] > 0 and shoe.state()["faults_applied"]["drop"] == 1  # the faults did bite


def test_a_killed_relay_loses_no_acknowledged_card_and_its_successor_journals_each_once(floor):
    f = floor({})
    f.start_relay()
    shoe = f.sims["shoe"]
    shoe.command("draw", n=20)
    f.until(lambda: len(f.counters()) >= 5, "some cards journaled")
    f.relay.signal(signal.SIGKILL)
    f.relay.proc.wait()
    state = shoe.state()
    acknowledged = state["dealt"] - state["queued"]
    assert set(range(1, acknowledged + 1)) <= set(f.counters())  # nothing acknowledged is lost
    f.start_relay()  # the shoe sends what it kept; the journal's last cards drop the repeats
    f.until(lambda: shoe.state()["queued"] == 0 and len(f.counters()) >= 20, "the kept cards")
    assert f.counters() == list(range(1, 21))

"""Drivers with a device key (protocol 1.1) against the simulators on real ptys: tampered frames
become FrameTampered events and never cards; a device without the key is refused a session,
each attempt, and tried again: the daemon's session owner journals it lost once, with the
reason."""
from __future__ import annotations

import os

from drivers.events import CardDrawn, FrameTampered, LinkDown, SessionRefused, SessionUp, ShoeStatusHeard
from drivers.reconnect import Backoff
from drivers.shoe import ShoeDriver
from firmware_bridge.auth import write_key
from games.cards import parse_card

KEY = bytes(range(32))
FAST = dict(backoff=Backoff(0.01, 2.0, 0.1))


def key_file(directory) -> str:
    path = os.path.join(directory, "shoe.key")
    write_key(path, KEY)
    return path


def test_a_forged_card_is_tampered_and_never_drawn(sim, sink, tmp_path):
    process = sim("shoe", "--cards", "9h 8d As", "--key-file", key_file(tmp_path))
    with ShoeDriver(process.link, sink, reactor=sink.reactor, link_options={"key": KEY}, **FAST):
        sink.wait_for(ShoeStatusHeard)
        process.command("fault", kind="forge", code=parse_card("Kc").code)
        (tampered,) = sink.wait_for(FrameTampered)
        assert "CARD" in tampered.detail and tampered.count == 1
        process.command("draw")
        (card,) = sink.wait_for(CardDrawn)
    assert (card.code, card.draw_counter) == (parse_card("9h").code, 1)
    assert len(sink.of(CardDrawn)) == 1 and not sink.of(LinkDown)


def test_a_shoe_without_the_key_is_refused_with_the_reason(sim, sink):
    process = sim("shoe", "--cards", "9h 8d As")
    with ShoeDriver(process.link, sink, reactor=sink.reactor, link_options={"key": KEY}, **FAST):
        (lost,) = sink.wait_journaled("LinkLost")
        assert lost["reason"].startswith("no session: the peer refused our HELLO: it has no key")
        process.command("draw")
        sink.reactor.run_until(lambda: False, 1.0)  # several more attempts (backoff up to 0.1 s), each refused
        attempts = [line for line in process.command("state")["log"] if "asks for authenticated frames" in line]
        assert not sink.of(SessionUp) and not sink.of(CardDrawn)
    assert len(sink.of(SessionRefused)) >= 2  # the driver reports each refusal
    assert len(sink.journaled("LinkLost")) == 1 and len(attempts) >= 2  # one record while it lasts; the shoe saw the tries

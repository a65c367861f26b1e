"""A forged card on a shoe's line without keys (protocol 1.0 frames), through the real daemon
and the shoe simulator on a pty: a CARD with a good CRC and the SEQ the daemon expects comes
first and is dealt (nothing on the wire tells it from the shoe's); the shoe's own card then
comes with the same SEQ and other bytes. That is tamper (PROTOCOL.md §2, §8.1): journaled
with both frames, published on the event stream for surveillance, and the round is held for
the supervisor under local ruling L8 instead of silently going on with a card that may be
forged. Without the fix the shoe's card was dropped as a duplicate with no record at all."""
from __future__ import annotations

import pytest
from hil_matrix import supervisor

pytestmark = pytest.mark.hil
WAIT = 20.0


def test_a_forged_card_then_the_shoes_own_with_the_same_seq_is_tamper_and_holds_the_round(start_rig):
    rig = start_rig("fortune6", seed=43)
    rig.new_shoe()
    number = rig.open_round()
    rig.draw(1)
    mark = rig.events.mark()
    forged = rig.fault("forge", how="plain")
    assert forged["forged"] == "CardRead"
    rig.wait_until(lambda: any(r.kind == "card" and r.round == number and r.payload["code"] == 0x0109
                               for r in rig.records()), WAIT, "the forged card to be dealt")
    real = rig.draw(1)[0]  # the shoe's own card: the SEQ the forgery took, other contents
    assert int(real["code"], 16) != 0x0109

    tamper = rig.events.wait_for("tamper", after=mark, device="shoe")
    assert "repeats seq" in tamper["detail"] and "other contents" in tamper["detail"]
    held = rig.events.wait_for("held", after=mark, round=number, kind="card_disputed")
    assert held["clause"] == "local ruling L8" and held["need"] == "confirm"
    assert rig.status()["state"] == "held"

    (record,) = [r.payload for r in rig.records() if r.kind == "tamper"]
    assert record["event"] == "FrameTampered" and record["device"] == "shoe"
    frames = record["disputed"]
    assert frames["taken"]["type"] == frames["repeat"]["type"] == "CARD"
    assert frames["taken"]["fields"]["code"] == 0x0109  # the one dealt: the forgery
    assert frames["repeat"]["fields"]["code"] == int(real["code"], 16)
    (irregularity,) = [r.payload for r in rig.records() if r.kind == "irregularity" and r.round == number]
    assert irregularity["clause"] == "local ruling L8" and irregularity["consequence"] == "hold"
    assert irregularity["evidence"]["frames"] == frames
    assert rig.status()["daemon"]["devices"]["shoe"]["tampered"] == 1
    assert '"event": "tamper"' in rig.daemon.output() or '"event":"tamper"' in rig.daemon.output()

    # the supervisor finds the table does not match (the forged card is not there): void
    answer = supervisor(rig, "void")
    assert answer["ok"], answer
    void = rig.events.wait_for("void", after=mark, round=number)
    assert void["clause"] == "local ruling L8, fortune6 §5.4"
    assert rig.verify().ok

"""Protocol 1.1 through the real daemon: a shoe with a key (the simulator's --key-file, the
config's keys.shoe) deals a round; a card injected on the line with a good CRC and the SEQ
the daemon expects, but no valid MAC, is journaled as `tamper` and never becomes a card; a
shoe without the key gets no session, and the log and the status say why."""
from __future__ import annotations

import json
import os

import pytest

from firmware_bridge.auth import key_text

pytestmark = pytest.mark.hil
WAIT = 20.0
KEY = bytes.fromhex("5a" * 32)


@pytest.fixture
def shoe_key(tmp_path) -> str:
    path = tmp_path / "shoe.key"
    path.write_text(key_text(KEY))
    os.chmod(path, 0o640)
    return str(path)


def test_a_keyed_shoe_deals_and_a_forged_card_is_journaled_as_tamper_not_dealt(start_rig, shoe_key):
    rig = start_rig("fortune6", seed=41, config={"keys": {"shoe": shoe_key}},
                    sim_args={"shoe": ["--key-file", shoe_key]})
    rig.new_shoe()
    number = rig.open_round()
    counter = rig.draw(1)[-1]["counter"]
    mark = rig.events.mark()
    def tampered() -> int:
        return sum(r.payload["count"] for r in rig.records() if r.kind == "tamper")

    for forged, how in enumerate(("plain", "mac"), 1):  # no MAC at all (a 1.0 frame), then a made-up one
        assert rig.fault("forge", how=how)["forged"] == "CardRead"
        rig.wait_until(lambda n=forged: tampered() == n, WAIT, "the forgery's tamper record")
    tamper = [r.payload for r in rig.records() if r.kind == "tamper"]
    assert [t["device"] for t in tamper] == ["shoe", "shoe"] and all(t["event"] == "FrameTampered" for t in tamper)
    assert "unauthenticated CARD" in tamper[0]["detail"] and "MAC does not verify" in tamper[1]["detail"]
    assert rig.events.wait_for("tamper", after=mark, device="shoe")["count"] == 1
    assert rig.status()["daemon"]["devices"]["shoe"]["tampered"] == 2
    assert '"event": "tamper"' in rig.daemon.output() or '"event":"tamper"' in rig.daemon.output()

    real = rig.draw(1)[0]  # the real card takes the counter and the SEQ the forgeries claimed
    assert real["counter"] == counter + 1
    end = rig.finish_round()
    assert end["event"] == "result"
    cards = [r.payload for r in rig.records() if r.kind == "card" and r.round == number]
    assert [c["draw_counter"] for c in cards] == list(range(counter, counter + len(cards)))
    assert cards[1]["code"] == int(real["code"], 16)  # the second card dealt is the real one
    forged_code = 0x0109 if int(real["code"], 16) != 0x0109 else 0x0108  # the simulator's forgery
    assert not [r for r in rig.records() if r.kind == "card" and r.payload["code"] == forged_code
                and r.payload["draw_counter"] == counter + 1]
    assert not [r for r in rig.records() if r.kind == "irregularity" and r.round == number]
    assert rig.verify().ok


def test_a_shoe_without_the_key_is_refused_with_a_clear_log_line_and_status(start_rig, shoe_key):
    rig = start_rig("fortune6", config={"keys": {"shoe": shoe_key}}, absent=("shoe",))
    rig.start_sim("shoe")  # no --key-file: it cannot authenticate
    reason = "no session: the peer refused our HELLO: it has no key, so it cannot authenticate (protocol 1.1)"
    rig.wait_until(lambda: rig.status()["daemon"]["devices"]["shoe"]["reason"] == reason, WAIT,
                   "the shoe to be refused")
    status = rig.status()["daemon"]
    assert status["ready"] is False and status["devices"]["shoe"]["link"] == "absent"
    assert f"waiting for the shoe ({reason})" in status["status"]
    rig.notify.wait_for(lambda m: f"waiting for the shoe ({reason})" in m.text, WAIT)
    lines = [json.loads(line) for line in rig.daemon.output().splitlines() if line.startswith("{")]
    refused = [line for line in lines if line.get("device") == "shoe" and line.get("reason") == reason]
    assert refused and refused[0]["level"] == "warning" and refused[0]["link"] == "absent"
    rig.shoe.command("draw")  # nothing it says is taken
    assert rig.status()["daemon"]["last_draw_counter"] is None
    assert not [r for r in rig.records() if r.kind == "card"]

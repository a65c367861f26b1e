"""`tablectl shoe report` on journals written by the real daemon (simulation.rig: the daemon
process against the simulated shoe, panel and lights on ptys): a shoe dealt past its cut card,
then the same shoe again (replayed, a slug: the daemon blocks it until the supervisor accepts
it, local ruling L7), and a deck-per-round table's decks."""
import json
import random
import subprocess
import sys

import pytest

from games.cards import DeckKind
from simulation.rig import Rig
from simulation.rig.processes import ROOT, child_env

pytestmark = pytest.mark.hil


def tablectl(*args):
    return subprocess.run([sys.executable, "-c", "import sys; from cli import main; sys.exit(main())", *args],
                          cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=120)


@pytest.fixture
def rig_for():
    rigs = []

    def start(game, **options):
        rig = Rig(game, **options)
        rigs.append(rig)
        return rig.start()

    yield start
    for rig in rigs:
        rig.stop()


def test_a_shoe_dealt_to_its_cut_card_then_dealt_again(rig_for):
    shoe = [str(c) for c in DeckKind.STANDARD52.cards] * 8
    random.Random(11).shuffle(shoe)
    rig = rig_for("fortune6", seed=3)
    rig.new_shoe(cards=shoe, cut_card=45)
    results = []
    while rig.status()["shoe"]["state"] != "finished":
        results.append(rig.play_round())
    rig.new_shoe(cards=shoe)  # the same shoe again, in the same order: called during its burn
    assert not rig.press("place_bets")["ok"]  # local ruling L7: until the supervisor answers
    rig.key(True)
    assert rig.press("accept_shoe")["ok"]
    rig.key(False)
    results += [rig.play_round(), rig.play_round()]
    config = str(rig.config_path)

    first = json.loads(tablectl("shoe", "report", "--config", config, "--shoe", "1", "--json").stdout)
    assert first["finished"] and first["game"] == "fortune6" and first["decks"] == 8
    cards = first["loads"][0]["cards"]
    burned = [c for c in cards if c["status"] == "burn"]
    assert len(burned) == 11 and burned[0]["card"] == shoe[0] == "Jd"  # a jack: ten more burned
    assert [c["card"] for c in cards] == shoe[:len(cards)] and first["loads"][0]["cut_after"] == 45
    assert [c["draw_counter"] for c in cards] == list(range(1, len(cards) + 1))
    assert first["reconciliation"][0]["ok"] and first["reconciliation"][0]["read"] == len(cards)
    journaled = [r.payload for r in rig.records() if r.kind == "result" and r.payload["round"] <= len(results) - 2]
    assert sum(first["winners"].values()) == len(journaled) == len(results) - 2
    assert first["integrity"][0]["alarms"] == []

    second = tablectl("shoe", "report", "--config", config)
    assert second.returncode == 0, second.stderr
    text = second.stdout
    assert text.startswith("shoe 2  fortune6  8 deck(s)")
    assert "ALARM replayed (local ruling L7): the first 4 cards of shoe 2 are the first 4 of shoe 1" in text
    assert "ALARM slug (local ruling L7): cards 1-7 of shoe 2 are cards 1-7 of shoe 1" in text
    assert "rounds: 2 (2 settled, 0 void, 0 not finished)" in text and "hands an hour" in text
    # what the daemon journaled as it dealt, and who answered it
    assert "irregularity (between rounds) shoe_integrity (local ruling L7, block): the first 4 cards of shoe 2" in text
    assert "ANSWERED replayed, slug (local ruling L7): the shoe accepted by panel button 8 at " in text
    data = json.loads(tablectl("shoe", "report", "--config", config, "--json").stdout)
    [answer] = data["answers"]
    assert answer["how"] == "accepted" and answer["by"] == {"source": "panel", "button": 8}
    assert [a["check"] for a in answer["alarms"]] == ["replayed", "slug"]


def test_a_deck_per_round_table_reports_each_deck(rig_for):
    rig = rig_for("paigow", seed=5)
    for _ in range(3):
        assert rig.play_round()["event"] == "result"
    report = json.loads(tablectl("shoe", "report", "--config", str(rig.config_path), "--json").stdout)
    assert [load["label"] for load in report["loads"]] == ["shoe 1 deck 1", "shoe 1 deck 2", "shoe 1 deck 3"]
    assert all(len(load["cards"]) == 14 for load in report["loads"])  # one spot and the dealer
    assert all(r["ok"] and r["size"] == 53 and r["left"] == 39 for r in report["reconciliation"])
    assert [[a["check"] for a in load["alarms"]] for load in report["integrity"]] == [[], [], []]
    assert report["pace"]["rounds"] == 3

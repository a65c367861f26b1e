"""`tablectl edge` following a real daemon (simulation.rig: the daemon process against the
simulated devices on ptys), started in the middle of a shoe: it catches up from the shoe's first
record, then prints a line per round as the rounds are dealt, each equal to the exact edge for
the cards the journal holds at that record, and alerts (stdout and a logged warning) once the
Fortune 7 bonus turns in the players' favour. And started before any daemon: it waits for the
journal and follows it."""
import json
import random
import subprocess
import sys

import pytest

from games.cards import Card, DeckKind, parse_card
from games.live_edge import live_edge
from simulation.rig import Rig
from simulation.rig.processes import ROOT, child_env

pytestmark = pytest.mark.hil


@pytest.fixture
def rig():
    """Fortune 7 with a shoe stacked with every 8 and 9 first: naturals only, so the first
    rounds take them all out and the bonus (a three-card banker 7) turns."""
    eights_and_nines = [str(Card(rank, suit)) for rank in (8, 9) for suit in "shdc" for _ in range(8)]
    random.Random(1).shuffle(eights_and_nines)
    rest = [str(c) for c in DeckKind.STANDARD52.cards if c.rank not in (8, 9)] * 8
    random.Random(2).shuffle(rest)
    eights_and_nines.remove("8s")
    shoe = ["8s"] + eights_and_nines + rest  # an 8 on top: eight more burned
    table = Rig("fortune7", seed=3, config={"edge": {"alert_margin": "0.5%"}})  # the margin from the config
    table.start()
    table.new_shoe(cards=shoe)
    yield table
    table.stop()


def test_edge_follows_the_table_from_the_shoe_in_play(rig):
    for _ in range(4):
        assert rig.play_round()["event"] == "result"
    rounds_after = 8
    def deal():
        for _ in range(rounds_after):
            assert rig.play_round()["event"] == "result"

    lines, err = edge_while("--config", str(rig.config_path), "--count", str(1 + 4 + rounds_after), during=deal)
    assert [line["round"] for line in lines] == [None] + list(range(1, 13))
    records = rig.records()
    for line in lines:
        out_cards = [parse_card(r.payload["card"]) for r in records
                     if r.kind == "card" and r.seq < line["seq"] and r.payload.get("card") and r.seq > _shoe_start(records)]
        expected = live_edge("fortune7", 8, out_cards)
        assert line["cards_left"] == expected.cards_left
        assert line["edges_exact"] == {key: str(edge) for key, edge in expected.edges().items()}
    assert lines[0]["cards_left"] == 416 and lines[1]["cards_left"] == 416 - 9 - 4
    alerted = [line for line in lines if line["alerts"]]
    assert alerted and "fortune7" in alerted[-1]["alerts"] and lines[-1]["edges"]["fortune7"] < -0.005
    assert not lines[0]["alerts"]
    logged = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    warnings = [entry for entry in logged if entry.get("event") == "player_advantage"]
    assert {w["wager"] for w in warnings} >= {"fortune7"} and warnings[0]["logger"] == "edge"
    assert warnings[0]["level"] == "warning" and warnings[0]["round"] == alerted[0]["round"]
    assert warnings[0]["margin"] == 0.005  # edge.alert_margin = "0.5%" in the config


def edge_while(*args, during):
    """`tablectl edge --json ARGS` as a process while `during()` runs: its lines and stderr."""
    edge = subprocess.Popen([sys.executable, "-c", "import sys; from cli import main; sys.exit(main())", "edge",
                             "--json", *args], cwd=ROOT, env=child_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        during()
        out, err = edge.communicate(timeout=120)
    finally:
        if edge.poll() is None:
            edge.kill()
            edge.wait()
    assert edge.returncode == 0, err
    return [json.loads(line) for line in out.splitlines()], err


def _shoe_start(records):
    return max(r.seq for r in records if r.kind == "shoe" and r.payload.get("event") == "new")


def test_edge_started_before_the_daemon_waits_for_its_journal(tmp_path):
    """No journal, no socket yet: it waits (polling), then follows what the daemon writes,
    taking the game from the journal rather than the default."""
    from controller.journal import Journal

    journal_path, socket_path = tmp_path / "journal.sqlite", tmp_path / "control.sock"
    def write():
        with Journal(journal_path) as journal:
            journal.append("daemon_started", {"game": "fafa4", "decks": 6})
            journal.append("shoe", {"event": "new", "shoe": 1})
            journal.append("round_opened", {"round": 1, "game": "fafa4", "decks": 6, "shoe": 1, "spots": []})
            for text in ("4-gold", "4-fire", "4-wood", "4-water"):
                journal.append("card", {"round": 1, "card": text, "status": "dealt"})
            journal.append("settled", {"round": 1})

    lines, _ = edge_while("--journal", str(journal_path), "--socket", str(socket_path), "--count", "2", during=write)
    assert [(line["game"], line["decks"], line["round"], line["cards_left"]) for line in lines] == [
        ("fafa4", 6, None, 390), ("fafa4", 6, 1, 386)]
    expected = live_edge("fafa4", 6, [parse_card(t) for t in ("4-gold", "4-fire", "4-wood", "4-water")])
    assert lines[1]["edges_exact"] == {key: str(edge) for key, edge in expected.edges().items()}


def test_count_stops_after_n_lines_even_inside_a_backlog(tmp_path):
    """A journal already holding a shoe of several rounds is read as one batch: --count 2 still
    prints two lines (the shoe's, then round 1's), not every line of the batch."""
    from controller.journal import Journal

    journal_path, socket_path = tmp_path / "journal.sqlite", tmp_path / "control.sock"
    cards = ["4-gold", "4-fire", "4-wood", "4-water"]
    with Journal(journal_path) as journal:
        journal.append("daemon_started", {"game": "fafa4", "decks": 6})
        journal.append("shoe", {"event": "new", "shoe": 1})
        for number in (1, 2, 3):
            journal.append("round_opened", {"round": number, "game": "fafa4", "decks": 6, "shoe": 1, "spots": []})
            for text in cards:
                journal.append("card", {"round": number, "card": text, "status": "dealt"})
            journal.append("settled", {"round": number})

    lines, _ = edge_while("--journal", str(journal_path), "--socket", str(socket_path), "--count", "2",
                          during=lambda: None)
    assert [(line["round"], line["cards_left"]) for line in lines] == [(None, 390), (1, 386)]

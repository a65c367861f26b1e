"""`tablectl edge --game G [--cards ...]` as a process: equal to `tablectl odds` off a full shoe,
exact fractions in the text, the cards given counted out, bad input named (exit 2)."""
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from simulation.rig.processes import ROOT, child_env


def tablectl(*args):
    return subprocess.run([sys.executable, "-c", "import sys; from cli import main; sys.exit(main())", *args],
                          cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("game", ["fortune7", "fafa4", "fubacc"])
def test_a_full_shoe_equals_tablectl_odds(game):
    odds = json.loads(tablectl("odds", game, "--json").stdout)["bets"]
    edge = json.loads(tablectl("edge", "--game", game, "--json").stdout)
    for key, bet in odds.items():
        wager = "player_precious_pair" if key == "precious_pair" else key
        assert edge["bets"][wager]["house_edge_exact"] == bet["house_edge_exact"], key


def test_cards_out_change_the_edge_and_the_text_gives_the_fractions():
    out = tablectl("edge", "--game", "fortune6", "--decks", "6", "--cards", "8s", "9h", "8d")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "fortune6: 6 deck(s), 3 card(s) out, 309 left"
    tie = next(line for line in lines if line.strip().startswith("tie "))
    exact = Fraction(tie.split("(")[1].rstrip(")"))
    data = json.loads(tablectl("edge", "--game", "fortune6", "--decks", "6", "--cards", "8s", "9h", "8d", "--json").stdout)
    assert Fraction(data["bets"]["tie"]["house_edge_exact"]) == exact and data["cards_out"] == 3


@pytest.mark.parametrize("args, message", [
    (["--game", "craps"], "unknown game 'craps'"),
    (["--game", "fortune7", "--decks", "6"], "played with 8 decks, not 6"),
    (["--game", "fubacc", "--cards", "As", "As"], "card 2, As, is one more As than 1 deck(s) hold"),
    (["--game", "fortune7", "--count", "3"], "--game answers once"),
    (["--alert-margin", "lots", "--journal", "/nonexistent/j.sqlite", "--socket", "/nonexistent/s"], "not a number"),
])
def test_bad_input_is_named(args, message):
    out = tablectl("edge", *args)
    assert out.returncode == 2 and message in out.stderr, out.stderr

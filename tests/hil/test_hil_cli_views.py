"""`tablectl status` and `tablectl recall` as a person reads them, against the real daemon:
labelled lines (no raw JSON, no trailing "message: status"), a spot game's hands in words,
a push said once, and what a cited clause says beside it."""
from __future__ import annotations

import json

import pytest

from cli import main
from games.clauses import CLAUSES


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.hil
def test_status_while_burning_and_after_a_spot_round(start_rig, capsys):
    rig = start_rig("fubacc", seed=3)
    rig.play_round(spots=[1, 4])
    code, out, err = run(capsys, "status", "--socket", rig.socket_path)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("fubacc · shoe 1 · round 1 settled")
    assert "message" not in out and not [line for line in lines if '{"' in line or "[[" in line], out
    assert any(line.startswith("hands       spot1 ") and " · dealer " in line for line in lines)
    assert any(line.startswith("round       1 settled · spots 1,4 · decided spot 1 ") for line in lines)
    assert any(line.startswith("devices     shoe ok · panel ok · lights ok · key off") for line in lines)
    assert run(capsys, "send", "status", "--socket", rig.socket_path) == (code, out, err)
    code, out, _ = run(capsys, "status", "--socket", rig.socket_path, "--json")
    assert json.loads(out)["game"] == "fubacc"


@pytest.mark.hil
def test_status_counts_down_the_burn(start_rig, capsys):
    rig = start_rig("fortune6", seed=3)
    rig.press("new_shoe")
    rig.draw(1)
    burn = rig.status()["shoe"]["burn_remaining"]
    _, out, _ = run(capsys, "status", "--socket", rig.socket_path)
    assert f"burning · {415} of 416 cards left · {burn} more to burn (first card" in out


@pytest.mark.hil
def test_recall_says_push_once_spots_in_words_and_what_a_void_cites(start_rig, capsys):
    rig = start_rig("fortune6", cards="2s 3h 5d 4c 9s 8d 9h 8c JK", config={"shoe": {"burn": False}})
    rig.new_shoe()
    rig.play_round()  # a tie: player and banker push
    rig.open_round()
    for _ in range(4):
        rig.draw(1)
    rig.draw(1)  # the joker: no card of a standard deck, the round is void (fortune6 §5.1)
    rig.events.wait_for("void")
    code, out, _ = run(capsys, "recall", "--journal", str(rig.journal_path))
    assert code == 0
    first, second = out.split("\nround 2 ")
    assert "  bets     banker push · banker_pair lose · fortune6 lose · player push · player_pair lose · tie win 8:1" in first
    assert "push push" not in out and "None" not in out
    assert f"           fortune6 §5.1: {CLAUSES['fortune6 §5.1'].says}" in second
    assert second.count(CLAUSES["fortune6 §5.1"].says) == 1


@pytest.mark.hil
def test_recall_of_a_spot_game_reads_in_words(start_rig, capsys):
    rig = start_rig("paigow", seed=5)
    rig.play_round(spots=[2, 5])
    _, out, _ = run(capsys, "recall", "--journal", str(rig.journal_path))
    spots = [line for line in out.splitlines() if line.startswith("  spot ")]
    assert len(spots) == 2 and all(" high " in line and "  low " in line and "standard " in line for line in spots), out
    assert "{" not in out and "winner" not in out and "1 deck " in out

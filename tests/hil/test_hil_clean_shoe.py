"""A clean fortune6 shoe segment through the real daemon: new shoe and burn, eight rounds dealt
by the rig as the dealer; every result journaled once and durable, the lamp board showing
each result as the daemon decided it, `tablectl recall` and `tablectl journal verify` on
the journal the daemon wrote."""
import json
import subprocess
import sys

import pytest

from simulation.rig.processes import ROOT, child_env

pytestmark = pytest.mark.hil
ROUNDS = 8


def tablectl(*args):
    return subprocess.run([sys.executable, "-c", "import sys; from cli import main; sys.exit(main())", *args],
                          cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=60)


def test_a_clean_shoe_segment(start_rig):
    rig = start_rig("fortune6", seed=7)
    shoe = rig.new_shoe()
    assert shoe["state"] == "in_play" and shoe["burned"] == 8  # 7c turned: seven more burned
    results = []
    for _ in range(ROUNDS):
        result = rig.play_round()
        assert result["event"] == "result", result
        board = rig.wait_lamps()  # the board shows the daemon's whole picture
        lit = {name: pattern for name, pattern in board.items() if pattern != "off"}
        assert lit == result["lamps"], (result["round"], lit, result["lamps"])
        assert lit["result"] == "on" and all(lit.get(f"bet_{bet}", "off") == {"win": "on", "push": "slow", "lose": "off"}[
            outcome["result"]] for bet, outcome in result["bets"].items())
        results.append(result)
    assert [r["round"] for r in results] == list(range(1, ROUNDS + 1))

    journaled = [r.payload for r in rig.records() if r.kind == "result"]
    assert [(p["round"], p["winner"], p["cards"]) for p in journaled] == [
        (r["round"], r["winner"], r["cards"]) for r in results]
    settled = [r.round for r in rig.records() if r.kind == "settled"]
    assert settled == list(range(1, ROUNDS + 1))
    assert not [r for r in rig.records() if r.kind in ("void", "irregularity", "error")]

    recall = tablectl("recall", "--config", str(rig.config_path), "--last", str(ROUNDS))
    assert recall.returncode == 0, recall.stderr
    blocks = recall.stdout.split("\nround ")
    assert len(blocks) == ROUNDS
    for block, result in zip(blocks, results):
        assert block.lstrip("round ").startswith(f"{result['round']}  fortune6  8 decks  shoe 1")
        assert "settled" in block.splitlines()[0] and f"winner   {result['winner']}" in block
        assert " ".join(f"{c} (" for c in result["cards"][:1]) in block

    verify = tablectl("journal", "verify", "--config", str(rig.config_path))
    assert verify.returncode == 0 and "chain intact" in verify.stdout, verify.stdout + verify.stderr


def test_tablectl_send_status_and_watch_drive_and_follow_the_daemon(start_rig):
    rig = start_rig("fortune6", seed=8)
    config = str(rig.config_path)
    watch = subprocess.Popen([sys.executable, "-c", "import sys; from cli import main; sys.exit(main())",
                              "watch", "--config", config, "--json", "--count", "3"],
                             cwd=ROOT, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The rig's own stream is one subscriber; `tablectl watch` is the second.
        rig.wait_until(lambda: rig.status()["daemon"]["subscribers"] >= 2, 20.0, "watch to subscribe")
        sent = tablectl("send", "new_shoe", "--config", config)
        assert sent.returncode == 0 and "shoe: 1" in sent.stdout, sent.stdout + sent.stderr
        refused = tablectl("send", "place_bets", "--config", config)  # the burn is not done
        assert refused.returncode == 1 and "place_bets" in refused.stderr
        out, err = watch.communicate(timeout=60)
    finally:
        if watch.poll() is None:
            watch.kill()
            watch.wait()
    events = [json.loads(line) for line in out.splitlines()]
    assert watch.returncode == 0 and [e["event"] for e in events][:2] == ["shoe", "command"], events
    assert events[0]["what"] == "new" and events[1]["command"] == "new_shoe" and events[1]["source"] == "socket"
    status = json.loads(tablectl("status", "--config", config, "--json").stdout)
    assert status["shoe"]["number"] == 1 and status["shoe"]["state"] == "burning" and status["daemon"]["ready"]


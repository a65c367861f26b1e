"""A lamp board smaller than the game's lamp map is a problem the daemon states, not `lights
ok`: the real daemon against a simulated board of 32 lamps for Fu Bacc (whose spot lamps go
up to id 65+), then a board that fits."""
from __future__ import annotations

import pytest

from cli import main
from controller.table import lamp_ids

pytestmark = pytest.mark.hil


def test_a_board_without_some_of_the_games_lamps_is_reported_as_incomplete(start_rig, capsys):
    missing = sorted(i for i in lamp_ids("fubacc").values() if i >= 32)
    assert missing, "Fu Bacc's map must reach past a 32-lamp board for this test to mean anything"
    rig = start_rig("fubacc", seed=3, sim_args={"lights": ["--lamps", "32"]})
    rig.wait_until(lambda: rig.status()["daemon"]["devices"]["lights"]["link"] == "incomplete", 20.0, "the board's report")
    lights = rig.status()["daemon"]["devices"]["lights"]
    assert lights["missing_lamps"] == missing
    assert lights["reason"].startswith(f"lamps {', '.join(map(str, missing))} of the game's map not on the board")
    assert lights["reason"].endswith("(it has 32: 0-31)")
    code = main(["status", "--socket", rig.socket_path])
    out = capsys.readouterr().out
    assert code == 0 and "lights ok" not in out
    assert f"lights missing {len(missing)} lamps" in out.splitlines()[0]


def test_a_board_with_every_lamp_is_ok(start_rig):
    rig = start_rig("fubacc", seed=3)
    rig.wait_until(lambda: rig.status()["daemon"]["devices"]["lights"]["link"] == "ok", 20.0, "the lights")
    assert rig.status()["daemon"]["devices"]["lights"]["missing_lamps"] == []

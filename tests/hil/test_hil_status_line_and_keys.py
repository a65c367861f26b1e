"""`tablectl status` against the real daemon and simulators on ptys: a device without a key
is shown as a warning, and what each line carried that could not be used (garbage bytes,
bad CRCs, frames out of sequence, repeated frames) is counted and shown."""
from __future__ import annotations

import json
import os

import pytest

from cli import main
from firmware_bridge.auth import key_text

pytestmark = pytest.mark.hil
WAIT = 20.0


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_unauthenticated_devices_warn_and_the_line_counters_show(start_rig, capsys):
    rig = start_rig("fortune6", seed=47)
    rig.new_shoe()
    rig.open_round()
    rig.fault("garbage", n=17)
    rig.fault("bad_crc")  # the next card's frame arrives corrupted, then is retransmitted
    rig.draw(1)
    rig.fault("drop")  # the next card is lost: the one after it is out of sequence
    rig.draw(2)
    rig.fault("duplicate")  # the next card's frame arrives twice: a repeat, not a dispute
    rig.draw(1)

    def shoe_counts() -> dict:
        return rig.status()["daemon"]["devices"]["shoe"]["frames"]

    rig.wait_until(lambda: shoe_counts()["garbage_bytes"] >= 17 and shoe_counts()["bad_crcs"] >= 1
                   and shoe_counts()["out_of_sequence"] >= 1 and shoe_counts()["repeated"] >= 1, WAIT,
                   "the shoe's line counters")
    counts = shoe_counts()
    assert counts["disputed"] == 0 and counts["tampered"] == 0 and counts["frames"] > 0
    code, out, err = run(capsys, "status", "--socket", rig.socket_path, "--json")
    devices = json.loads(out)["daemon"]["devices"]
    assert [devices[name]["authenticated"] for name in ("shoe", "panel", "lights")] == [False, False, False]
    code, out, err = run(capsys, "status", "--socket", rig.socket_path)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    (warning,) = [line for line in lines if line.startswith("WARNING")]
    assert "shoe, panel, lights unauthenticated: no key in [keys]" in warning
    assert "tablectl keys provision DEVICE" in warning
    (line,) = [line for line in lines if line.startswith("line ")]
    shoe = line.split(" · ")[0]
    assert shoe.startswith("line        shoe ") and "garbage bytes" in shoe and "bad CRCs" in shoe
    assert "out of sequence" in shoe and "repeated" in shoe
    daemon_log = [json.loads(x) for x in rig.daemon.output().splitlines() if x.startswith("{")]
    warned = {x["device"] for x in daemon_log if x.get("event") == "unauthenticated_device"}
    assert warned == {"shoe", "panel", "lights"}


def test_a_keyed_shoe_is_not_in_the_warning(start_rig, tmp_path, capsys):
    path = tmp_path / "shoe.key"
    path.write_text(key_text(bytes.fromhex("5a" * 32)))
    os.chmod(path, 0o640)
    rig = start_rig("fortune6", seed=48, config={"keys": {"shoe": str(path)}},
                    sim_args={"shoe": ["--key-file", str(path)]})
    assert rig.status()["daemon"]["devices"]["shoe"]["authenticated"] is True
    _, out, _ = run(capsys, "status", "--socket", rig.socket_path)
    (warning,) = [line for line in out.splitlines() if line.startswith("WARNING")]
    assert "panel, lights unauthenticated" in warning and "shoe" not in warning

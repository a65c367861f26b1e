"""Ctrl-C on a headless run: exit 130, whole JSON lines only, and every process the demo
started stopped by its PID, also when Ctrl-C comes while the rig is still starting (the demo
holds the signal back until every child is recorded, then stops them all)."""
import json

from demo_process import assert_all_stopped, children_started, interrupt_demo


def _all_stopped(run) -> None:
    assert not run.left_running, run.left_running
    assert_all_stopped(run.stderr)


def test_ctrl_c_stops_a_headless_run_with_130_and_nothing_left():
    run = interrupt_demo("--game", "paigow", "--rounds", "10000", "--seed", "2",
                         when=lambda proc: json.loads(proc.stdout.readline()))
    assert run.seen["round"] == 1 and run.code == 130, run.stderr
    assert all(json.loads(line) for line in run.stdout.splitlines())  # whole lines only, even when stopped
    assert "interrupted after" in run.stderr
    _all_stopped(run)


def test_ctrl_c_while_the_rig_starts_still_stops_every_process_it_started():
    run = interrupt_demo("--rounds", "5", "--seed", "2", when=children_started)
    assert run.code == 130 and run.stdout == "", run.stderr
    assert "interrupted after 0 of 5 rounds" in run.stderr
    _all_stopped(run)

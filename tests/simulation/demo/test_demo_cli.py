"""`tablectl demo`'s command line: bad options exit 2 naming the bad value, before anything is
started; without --rounds and without a terminal it says so and plays a few rounds headless."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli import demo
from cli.demo import options_from


@pytest.mark.parametrize("argv, message", [
    (["--game", "craps", "--rounds", "1"], "unknown game 'craps' (one of fafa4, fortune7, fortune6, fubacc, paigow)"),
    (["--decks", "3", "--rounds", "1"], "--decks 3: fortune6 is played with 4, 5, 6, 7, 8, 9, 10 deck(s)"),
    (["--game", "fubacc", "--decks", "2", "--rounds", "1"], "--decks 2: fubacc is played with 1 deck(s)"),
    (["--rounds", "0"], "--rounds '0': must be at least 1"),
    (["--rounds", "three"], "--rounds 'three': not a whole number"),
    (["--seed", "-4", "--rounds", "1"], "--seed '-4': must be at least 0"),
    (["--faults", "1.5", "--rounds", "1"], "--faults '1.5': must be 0.0-1.0"),
    (["--faults", "often", "--rounds", "1"], "--faults 'often': not a number"),
    (["--pace", "60"], "--pace '60': must be 0.0-10.0"),
    (["--pace", "nan"], "--pace 'nan': must be 0.0-10.0"),
    (["--colour"], "unrecognized arguments: --colour"),
])
def test_bad_options_exit_2_naming_the_value(capsys, argv, message):
    assert demo.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"tablectl demo: {message}\n"


def test_without_a_terminal_the_demo_plays_a_few_rounds_headless():
    """The README's main-job command run from a script or CI: stdout is a pipe."""
    done = subprocess.run([sys.executable, "-m", "cli", "demo", "--seed", "3"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "stdout is not a terminal" in done.stderr and "--rounds N" in done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["round"] for line in lines] == list(range(1, demo.PIPED_ROUNDS + 1))
    assert all(line["game"] == "fortune6" and (line["winner"] or line["void"]) for line in lines)


def test_options_and_their_defaults(demo_state_home):
    options = options_from(["--rounds", "5", "--seed", "9"])
    assert (options.game, options.rounds, options.seed, options.decks, options.pace, options.faults, options.directory) == \
        ("fortune6", 5, 9, None, 1.0, 0.0, Path(demo_state_home) / "tablectl" / "demo")
    options = options_from(["--game", "paigow", "--pace", "0.5", "--faults", "0.25", "--dir", "/tmp/d", "--decks", "1"])
    assert (options.game, options.rounds, options.decks, options.pace, options.faults, options.directory) == \
        ("paigow", None, 1, 0.5, 0.25, Path("/tmp/d"))
    assert 0 <= options.seed < 2 ** 31  # no --seed: a random one (the live view shows it)

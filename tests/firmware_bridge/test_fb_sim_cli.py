"""`tablectl sim ...` is a thin wrapper: it starts the same simulators and reports bad input."""
import subprocess
import sys

from sim_host import ROOT

from firmware_bridge.link_events import Connected
from firmware_bridge.messages import CardRead
from games.cards import parse_card


def _tablectl(*args):
    return subprocess.run([sys.executable, "-m", "cli", "sim", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def test_tablectl_sim_shoe_runs_the_simulator(start_sim, open_host):
    shoe = start_sim("shoe", "--cards", "Td", module=("cli", "sim", "shoe"))
    assert '"device": "shoe"' in shoe.stdout().splitlines()[0]
    host = open_host(shoe.link)
    host.wait_event(Connected)
    shoe.ok("draw")
    (card,) = host.wait_messages(CardRead)
    assert card.code == parse_card("Td").code


def test_usage_and_unknown_device():
    assert "shoe" in _tablectl("--help").stdout
    result = _tablectl("toaster")
    assert result.returncode == 2 and "unknown device 'toaster'" in result.stderr


def test_bad_options_are_named(sim_dir):
    result = _tablectl("shoe", "--link", f"{sim_dir}/shoe", "--cards", "As Zz")
    assert result.returncode == 2 and "--cards: bad card 'Zz'" in result.stderr
    result = _tablectl("shoe", "--link", f"{sim_dir}/shoe", "--cards", "As", "--cut-card", "5")
    assert result.returncode == 2 and "--cut-card 5: the shoe holds 1 cards" in result.stderr
    result = _tablectl("lights", "--link", f"{sim_dir}/l", "--lamps", "0")
    assert result.returncode == 2 and "--lamps 0" in result.stderr

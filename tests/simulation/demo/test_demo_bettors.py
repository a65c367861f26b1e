"""The demo's players and dealer at a real simulated bet sensor (`tablectl sim bets --chips`, a
process on a pty, taking its chips from the demo's registry): chips laid while betting, Fu
Bacc's Play at twice the Ante, the dealer's paying step against the status's `money.payouts`
as the money contract shapes them, the layout cleared after the round.

Here the paying step is fed a status of the contract's shape, so the simulator alone is needed
(the rig around it is a plain holder: Bettors.pay uses only `rig.bets`); the demo's runs against
the real daemon (test_demo_headless, test_demo_faults) check the same step end to end."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from cli.chips import read_registry
from games.registry import get_game
from simulation.demo.bettors import CHIPS_PER_VALUE, DENOMINATIONS, Bettors, chips_for, write_registry
from simulation.rig.sims import Sim


@pytest.fixture
def sensor(tmp_path):
    started: list[Sim] = []

    def start(game: str) -> tuple[Bettors, Sim]:
        registry = tmp_path / "chips.csv"
        write_registry(registry)
        sim = Sim("bets", tmp_path, "--game", game, "--chips", str(registry))
        started.append(sim)
        return Bettors(SimpleNamespace(bets=sim), get_game(game), seed=5), sim

    yield start
    for sim in started:
        sim.stop()
        assert not sim.child.running


def totals(sim: Sim) -> dict[str, int]:
    state = sim.state()
    names = {str(space): f"{seat}:{name}" for space, seat, name in state["layout"]}
    return {names[space]: sum(chip["value"] for chip in chips) for space, chips in state["spaces"].items()}


def test_the_demo_registry_is_one_the_cli_imports(tmp_path):
    path = tmp_path / "chips.csv"
    assert write_registry(path) == len(DENOMINATIONS) * CHIPS_PER_VALUE
    chips = read_registry(str(path))
    assert {chip.value for chip in chips} == {str(v) for v in DENOMINATIONS}
    assert all(chip.uid.startswith("047b0d") and len(chip.uid) == 14 for chip in chips)
    assert chips_for(137) == [100, 25, 5, 5, 1, 1] and chips_for(0) == []


def test_players_lay_chips_from_the_registry_on_allowed_spaces(sensor):
    bettors, sim = sensor("fortune7")
    stakes = bettors.place(None, player_dealer=3)
    assert stakes and all(seat != 3 for seat, _ in stakes)
    laid = totals(sim)
    assert laid.pop("3:bank") in (200, 500, 1000)  # the player-dealer's bank, on its own seat's bank space
    assert laid == {f"{seat}:{bet}": amount for (seat, bet), amount in stakes.items()}
    game = get_game("fortune7")
    for (seat, bet), _ in stakes.items():  # a bonus only beside the line wager it needs
        needs = game.wagers[bet].needs
        assert needs is None or any((seat, line) in stakes for line in needs.any_of)
    registry = set()
    for chips in sim.state()["spaces"].values():
        registry |= {chip["uid"][:6] for chip in chips}
    assert registry == {"047b0d"}  # the registry's chips, none the simulator made up


def test_a_fubacc_spot_that_plays_adds_twice_its_ante(sensor):
    bettors, sim = sensor("fubacc")
    stakes = bettors.place([2, 5])
    assert {seat for seat, _ in stakes} == {2, 5}
    bettors.decided(2, "play")
    bettors.decided(5, "fold")
    shown = totals(sim)
    assert shown["2:play"] == 2 * stakes[(2, "ante")] and "5:play" not in shown


def test_the_dealer_pays_each_space_what_the_table_says_it_must_hold(sensor):
    bettors, sim = sensor("fortune6")
    for space, amount in (("1:banker", 25), ("1:tie", 5), ("2:player", 100), ("3:player", 50)):
        bettors._lay(int(space[0]), space[2:], amount)
    status = {"money": {"payouts": [  # the contract's settlement wagers: Settled.to_json()
        {"seat": 1, "bet": "banker", "stake": "25", "net": "23", "back": "48", "commission": "2"},
        {"seat": 1, "bet": "tie", "stake": "5", "net": "-5", "back": "0", "commission": "0"},
        {"seat": 2, "bet": "player", "stake": "100", "net": "0", "back": "100", "commission": "0"},
        {"seat": 3, "bet": "player", "stake": "50", "net": "-25", "back": "25", "commission": "0"}]}}
    done = bettors.pay(status)
    assert totals(sim) == {"1:banker": 48, "2:player": 100, "3:player": 25}
    assert done == ["1:banker paid 23", "1:tie collected 5", "3:player holds 25"]
    assert bettors.pay(status) == []  # paid already: nothing more to do
    assert bettors.pay({"round": None}) == []  # a table that gives no payouts: the dealer leaves the spaces
    bettors.clear()
    assert totals(sim) == {}


def test_the_dealer_pays_envy_on_the_bonus_space_and_clears_refused_and_foreign_chips(sensor):
    bettors, sim = sensor("paigow")
    for seat, bet, amount in ((1, "standard", 25), (1, "fortune_bonus", 5), (2, "standard", 10)):
        bettors._lay(seat, bet, amount)
    sim.command("foreign", space="2:standard", value=25)  # the wager is refused: its space must end empty
    status = {"money": {"payouts": [
        {"seat": 1, "bet": "standard", "stake": "25", "net": "23", "back": "48", "commission": "2"},
        {"seat": 1, "bet": "fortune_bonus", "stake": "5", "net": "-5", "back": "0", "commission": "0"},
        {"seat": 1, "bet": "envy", "stake": "0", "net": "50", "back": "50", "commission": "0"}]}}
    assert bettors.owed(status) == {(1, "standard"): 48, (1, "fortune_bonus"): 50}
    done = bettors.pay(status)
    assert totals(sim) == {"1:standard": 48, "1:fortune_bonus": 50}  # totals count foreign chips too: none is left
    assert any("foreign chip" in line for line in done) and "2:standard collected 10" in done


def test_with_every_wager_refused_the_dealer_empties_every_space(sensor):
    bettors, sim = sensor("fortune6")
    bettors._lay(4, "player", 100)
    sim.command("foreign", space="4:player", value=25)
    assert bettors.pay({"money": {"payout_check": True, "payouts": []}}) != []
    assert totals(sim) == {}

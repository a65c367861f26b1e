"""`tablectl demo --rounds N --seed S` for every game, as a real subprocess: N JSON lines, each
round agreeing with the rules engine (cards replayed through games.replay with the same spots
and decisions give the same winner and bets), the lamps showing the result, Fu Bacc decided by
the optimal strategy, the same seed dealing the same cards, and nothing left running."""
import json
from fractions import Fraction

import pytest
from cross_check import check_result_round, optimal_actions
from demo_process import assert_all_stopped, run_demo, started_by

from cli import main as tablectl
from controller.journal import iter_records, last_rounds, open_readonly, verify
from games.registry import GAME_KEYS, get_game

SEED = 21


@pytest.fixture(scope="module")
def runs():
    """One 3-round run per game (module-scoped: each run starts a daemon and four simulators)."""
    return {game: run_demo("--game", game, "--rounds", "3", "--seed", str(SEED)) for game in GAME_KEYS}


@pytest.mark.parametrize("game", GAME_KEYS)
def test_every_round_agrees_with_the_rules_engine(runs, game):
    run = runs[game]
    assert run.code == 0, run.stderr
    assert [line["round"] for line in run.lines] == [1, 2, 3]
    for line in run.lines:
        assert line["game"] == game and line["shoe"] == 1
        assert line["irregularities"] == [] and line["fault"] is None and line["supervisor"] == []
        check_result_round(line)
    assert_all_stopped(run.stderr)


@pytest.mark.parametrize("game", ["fubacc", "paigow"])
def test_spot_games_play_the_seeded_spots_with_their_decisions(runs, game):
    for line in runs[game].lines:
        assert line["live_spots"] and sorted(line["spots"]) == sorted(map(str, line["live_spots"]))
        assert sorted(line["decisions"]) == sorted(line["spots"])
        if game == "paigow":
            assert all(made == ["house"] for made in line["decisions"].values())


def test_fubacc_decides_by_the_optimal_strategy(runs):
    actions = {}
    for line in runs["fubacc"].lines:
        optimal = optimal_actions(line)
        assert {spot: ",".join(made) for spot, made in line["decisions"].items()} == optimal
        actions.update({(line["round"], spot): action for spot, action in optimal.items()})
    assert len(actions) >= 3  # more than one spot decided across the rounds


def test_fortune7_names_the_player_dealer_and_lights_the_seat(runs):
    for line in runs["fortune7"].lines:
        seat = line["player_dealer"]
        assert 1 <= seat <= 7
    # rounds 1 and 2 are the first turn of two hands: the same seat holds the position
    assert runs["fortune7"].lines[0]["player_dealer"] == runs["fortune7"].lines[1]["player_dealer"]
    assert any(name.startswith("player_dealer_") for name in runs["fortune7"].lines[0]["lamps"])


def test_the_same_seed_deals_the_same_cards_and_the_journal_stays_in_dir(runs, tmp_path):
    again = run_demo("--game", "fortune6", "--rounds", "3", "--seed", str(SEED), "--dir", str(tmp_path / "demo"))
    assert again.code == 0, again.stderr
    assert [line["cards"] for line in again.lines] == [line["cards"] for line in runs["fortune6"].lines]
    _, directory = started_by(again.stderr)
    journal = tmp_path / "demo" / "journal.sqlite"
    assert directory == tmp_path / "demo" and f"tablectl recall --journal {journal}" in again.stderr
    report = verify(journal)  # the daemon journaled the demo's rounds, chained
    assert report.ok, report
    # the players' chips reached the daemon through the bet sensor, on the spaces the lines name,
    # every chip one of the demo's registry (which the demo offered the daemon at start)
    conn = open_readonly(journal)
    lists = [r.payload for r in iter_records(conn, 0) if r.kind == "device" and r.payload["event"] == "SpaceChips"]
    conn.close()
    laid = {(chip["seat"], chip["bet"]) for line in again.lines for chip in line["chips"]}
    assert laid and laid == {(p["seat"], p["name"]) for p in lists if p["chips"]}
    assert all(uid.startswith("047b0d") for p in lists for uid, _ in p["chips"])
    assert "chip registry" in again.stderr
    assert [view.round for view in last_rounds(journal, 10)] == [1, 2, 3]
    other = run_demo("--game", "fortune6", "--rounds", "3", "--seed", str(SEED + 1), "--dir", str(tmp_path / "demo"))
    assert [line["cards"] for line in other.lines] != [line["cards"] for line in again.lines]
    # the next demo replaced the last one's journal: its own three rounds, not six
    assert [view.round for view in last_rounds(journal, 10)] == [1, 2, 3]


def test_a_demo_runs_through_the_cut_card_into_the_next_shoe():
    run = run_demo("--game", "fortune6", "--decks", "4", "--rounds", "34", "--seed", str(SEED))
    assert run.code == 0, run.stderr
    shoes = [line["shoe"] for line in run.lines]
    assert shoes == sorted(shoes) and shoes[0] == 1 and shoes[-1] == 2
    last_of_first = max(i for i, shoe in enumerate(shoes) if shoe == 1)
    assert run.lines[last_of_first]["blinking"].get("new_shoe") == "slow"  # shoe 1 finished after it
    assert "last_round" in run.lines[last_of_first - 1]["lamps"]  # the cut card came out: one more round
    for line in run.lines:
        check_result_round(line)


def test_stdout_holds_only_the_json_lines(runs):
    run = runs["fafa4"]
    assert len(run.lines) == 3  # run_demo parsed every stdout line as JSON
    assert "daemon pid" in run.stderr
    keys = {"round", "game", "shoe", "cards", "winner", "void", "clause", "bets", "lamps", "irregularities"}
    assert all(keys <= set(line) for line in run.lines)



@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_dealer_pays_every_space_and_the_money_agrees_with_tablectl_play(runs, game, capsys):
    """Every round was confirmed with each space holding its payout (a refused confirm stops the
    demo); the daemon's settlement of the chips laid is what `tablectl play --wager` settles."""
    rules = get_game(game)
    assert runs[game].code == 0 and len(runs[game].lines) == 3, runs[game].stderr
    for line in runs[game].lines:
        money = line["money"]
        assert money["mispays"] == [] and money["refused"] == [] and line["money_fault"] is None
        laid = [chip for chip in line["chips"] if rules.wagers[chip["bet"]].stake_of is None]  # Fu Bacc's Play is derived
        assert laid, "no chips laid"
        args = ["play", game, *line["cards"], "--json", *[f"--wager={c['seat']}:{c['bet']}={c['amount']}" for c in laid]]
        if "player_dealer" in money:  # Fortune 7: the bank that covered them, the schedule that took the fees
            bank = money["player_dealer"]
            args += ["--player-dealer", f"{bank['seat']}={bank['stake']}", "--schedule", str(money["fees"]["option"])]
        if "live_spots" in line:
            args += ["--spots", ",".join(map(str, line["live_spots"])), "--decide",
                     *[f"{spot}={','.join(made)}" for spot, made in line["decisions"].items()]]
        capsys.readouterr()
        assert tablectl(args) == 0, capsys.readouterr().err
        played = json.loads(capsys.readouterr().out)["money"]
        key = lambda w: (w["seat"], w["bet"])  # noqa: E731
        assert sorted(money["wagers"], key=key) == sorted(played["wagers"], key=key), line["round"]
        assert money["house_net"] == played["house_net"]
        nets = sum(Fraction(w["net"]) for w in money["wagers"])
        if "player_dealer" in money:  # the bank nets what the bettors lose; the house takes only the fees
            bank = money["player_dealer"]
            assert nets + Fraction(bank["net"]) == 0
            assert Fraction(money["house_net"]) == sum(Fraction(w["fee"]) for w in money["wagers"]) + Fraction(bank["fee"])
        else:
            assert nets == -Fraction(money["house_net"])  # conserved

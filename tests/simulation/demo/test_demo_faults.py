"""`tablectl demo --faults RATE`: shoe faults injected through the rig (foreign card, double
draw, misread, door opened, shoe unplugged and plugged back), seeded and reproducible; the
table voids citing the game's clause or holds, the demo acts as the supervisor (key, then
reconstruct or void), and the daemon keeps dealing. Every round that ends in a result still
agrees with the rules engine."""
import pytest
from cross_check import check_result_round
from demo_process import assert_all_stopped, run_demo

from games.registry import get_game
from games.round import IrregularityKind

SEED = "7"


@pytest.fixture(scope="module")
def faulty():
    """Every round struck by a fault (rate 1): fortune6 (voids, L5/L6 holds) and Pai Gow (the
    door opened is a hold there, paigow §5.2)."""
    return {game: run_demo("--game", game, "--rounds", rounds, "--seed", SEED, "--faults", "1")
            for game, rounds in (("fortune6", "8"), ("paigow", "6"))}


@pytest.mark.parametrize("game", ["fortune6", "paigow"])
def test_voids_cite_their_clause_and_the_daemon_keeps_going(faulty, game):
    run = faulty[game]
    assert run.code == 0, run.stderr
    lines = run.lines
    assert [line["round"] for line in lines] == list(range(1, len(lines) + 1))
    voids = [line for line in lines if line["void"]]
    assert voids, "no round was voided"
    rules = get_game(game)
    for line in voids:
        assert line["clause"] and line["winner"] is None and line["bets"] == {}
        assert "void" in line["lamps"] and not any(name.startswith(("bet_", "result")) for name in line["lamps"])
        assert line["irregularities"], "a void without the irregularity that caused it"
        if line["voided_by"] == "table":
            assert line["clause"] == rules.rule(IrregularityKind(line["irregularity"])).clause
        else:
            assert [a["action"] for a in line["supervisor"]][-1] == "void"
            assert line["clause"] == line["supervisor"][-1]["void_clause"]
    results = [line for line in lines if not line["void"]]
    assert results and results[-1]["round"] > voids[0]["round"], "no result after the first void"
    for line in results:
        check_result_round(line)
    assert_all_stopped(run.stderr)


@pytest.mark.parametrize("game", ["fortune6", "paigow"])
def test_holds_are_resolved_by_the_supervisor_or_the_shoe(faulty, game):
    for line in faulty[game].lines:
        held = [i for i in line["irregularities"] if i["consequence"] == "hold"]
        for irregularity in held:
            if irregularity["kind"] == "device_lost":  # L4: the shoe's draw counter resolves it
                assert line["fault"]["kind"] == "unplug"
            else:
                assert any(a["hold"] == irregularity["kind"] for a in line["supervisor"]), line
        for action in line["supervisor"]:
            if action["action"] == "reconstruct":
                assert not line["void"] or len(line["supervisor"]) > 1
            if "card" in action:  # a misread keyed in: the card the shoe really dealt
                assert action["card"] == line["fault"]["cards"][0] and action["card"] in line["cards"]


def test_every_fault_kind_strikes_and_the_supervisor_acts(faulty):
    lines = faulty["fortune6"].lines + faulty["paigow"].lines
    kinds = {line["fault"]["kind"] for line in lines if line["fault"]}
    assert kinds == {"foreign", "double_draw", "misread", "door_open", "unplug"}
    actions = {a["action"] for line in lines for a in line["supervisor"]}
    assert actions == {"reconstruct", "void"}
    paigow_door = [line for line in faulty["paigow"].lines if (line["fault"] or {}).get("kind") == "door_open"]
    assert any(i["consequence"] == "hold" and i["clause"] == "paigow §5.2"
               for line in paigow_door for i in line["irregularities"])


def test_faults_are_reproducible(faulty):
    again = run_demo("--game", "fortune6", "--rounds", "8", "--seed", SEED, "--faults", "1")
    assert again.code == 0, again.stderr

    def outline(lines):
        return [(line["cards"], line["void"], line["clause"], line["fault"],
                 [(a["action"], a["hold"]) for a in line["supervisor"]]) for line in lines]

    assert outline(again.lines) == outline(faulty["fortune6"].lines)

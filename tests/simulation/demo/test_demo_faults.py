"""`tablectl demo --faults RATE`: shoe faults injected through the rig (foreign card, double
draw, misread, door opened, shoe unplugged and plugged back), seeded and reproducible; the
table voids citing the game's clause or holds, the demo acts as the supervisor (key, then
reconstruct or void), and the daemon keeps dealing. Every round that ends in a result still
agrees with the rules engine. The same rate strikes money at the bet sensor (a mispay, a chip
past-posted or taken away, a foreign chip): each named by the table with its clause, the
mispay corrected by the dealer or accepted by the supervisor, the rounds settling on."""
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


# each money fault and the irregularity the table names for it, with its clause (docs/money.md)
MONEY_FAULTS = {"mispay": ("mispay", "local ruling L10"), "past_post": ("late_wager", "fortune6 §5.6, local ruling L10"),
                "removed_chip": ("wager_removed", "fortune6 §5.7"), "foreign_chip": ("foreign_chip", "local ruling L10")}


@pytest.fixture(scope="module")
def money_faults():
    """fortune6 with every round struck (seed 7: each money fault, a mispay corrected and one accepted)."""
    return run_demo("--game", "fortune6", "--rounds", "16", "--seed", SEED, "--faults", "1")


def test_money_faults_are_named_with_their_clause_and_the_rounds_go_on(money_faults):
    run = money_faults
    assert run.code == 0, run.stderr
    assert [line["round"] for line in run.lines] == list(range(1, 17))
    struck = [line for line in run.lines if line["money_fault"]]
    assert {line["money_fault"]["kind"] for line in struck} == set(MONEY_FAULTS)
    for line in struck:
        fault = line["money_fault"]
        kind, clause = MONEY_FAULTS[fault["kind"]]
        named = [i for i in line["irregularities"] if i["kind"] == kind]
        assert named and all(i["clause"] == clause for i in named), line["irregularities"]
        assert f"seat {fault['seat']} {fault['bet']}" in named[0]["detail"]
        if not line["void"]:  # settled: the wagers of record paid
            assert line["money"]["wagers"] or line["money"]["refused"]
    assert any(not line["void"] for line in run.lines[-4:]), "rounds stopped settling"
    assert_all_stopped(run.stderr)


def test_a_foreign_chip_refuses_its_wager_and_a_late_chip_leaves_the_wager_as_frozen(money_faults):
    for line in money_faults.lines:
        fault = line["money_fault"] or {}
        space = (fault.get("seat"), fault.get("bet"))
        if fault.get("kind") == "foreign_chip":
            refused = [(r["seat"], r["bet"]) for r in line["money"]["refused"]]
            assert space in refused and space not in [(w["seat"], w["bet"]) for w in line["money"]["wagers"]]
        if fault.get("kind") in ("past_post", "removed_chip") and not line["void"]:
            laid = next(c["amount"] for c in line["chips"] if (c["seat"], c["bet"]) == space)
            settled = next(w for w in line["money"]["wagers"] if (w["seat"], w["bet"]) == space)
            assert settled["stake"] == str(laid)  # the wager of record is what lay at "No more bets"


def test_a_mispay_is_refused_then_corrected_or_accepted_with_the_key(money_faults):
    mispaid = [line for line in money_faults.lines if (line["money_fault"] or {}).get("kind") == "mispay"]
    assert {line["money_fault"]["response"] for line in mispaid} == {"corrected", "accepted"}
    for line in mispaid:
        fault, money = line["money_fault"], line["money"]
        assert not line["void"]
        (mispay,) = money["mispays"]
        assert (mispay["seat"], mispay["bet"], mispay["direction"]) == (fault["seat"], fault["bet"], fault["direction"])
        assert (mispay["expected"], mispay["found"]) == (str(fault["owed"]), str(fault["paid"]))
        owed = next((w["back"] for w in money["wagers"] if (w["seat"], w["bet"]) == (fault["seat"], fault["bet"])), "0")
        assert owed == mispay["expected"]  # what the settlement says the space must hold
        if fault["response"] == "accepted":
            assert money["accepted"] == [{"seat": fault["seat"], "bet": fault["bet"], "expected": mispay["expected"],
                                          "found": mispay["found"]}]
        else:
            assert money["accepted"] is None


def test_money_faults_are_reproducible(money_faults):
    again = run_demo("--game", "fortune6", "--rounds", "8", "--seed", SEED, "--faults", "1")
    assert again.code == 0, again.stderr
    assert [line["money_fault"] for line in again.lines] == [line["money_fault"] for line in money_faults.lines[:8]]

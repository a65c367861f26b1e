"""Money at the table (docs/money.md, local rulings L10, L11): wagers of record frozen at "No
more bets" from the bet sensor's spaces or from the `wagers` command, limits, foreign chips,
late and removed chips, the settlement with the result and on a void, and the payout check at
confirm (mispay, accept_payouts). Every game; a real Table fed the inputs the daemon gives it."""
import random
from fractions import Fraction

import pytest
from money_helpers import Sensor, deal_to_result, fresh_shoe
from table_helpers import GAMES, Run

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.settings import TableSettings
from games.money import TableLimits
from games.registry import get_game
from games.round import IrregularityKind

LINE = {"fortune6": "banker", "fafa4": "player", "fortune7": "banker", "fubacc": "ante", "paigow": "standard"}


def money_run(game: str, **settings) -> tuple[Run, Sensor]:
    run = Run(game, **settings)
    fresh_shoe(run)
    return run, Sensor(run)


def settlement(run: Run) -> dict:
    found = run.journal("settlement")
    assert found, "no settlement journaled"
    return found[-1]


# ---------------------------------------------------------------- wagers of record


@pytest.mark.parametrize("game", GAMES)
def test_the_spaces_freeze_into_the_wagers_of_record_and_settle_with_the_result(game):
    run, sensor = money_run(game)
    assert run.cmd("place_bets").ok
    sensor.place(1, LINE[game], 30)
    reply = run.cmd("no_more_bets")
    assert reply.ok and "1 wager(s) of record" in reply.message
    (record,) = run.journal("wagers")
    assert record["source"] == "sensor" and record["round"] == 1 and record["refused"] == []
    (wager,) = record["wagers"]
    assert (wager["seat"], wager["bet"], wager["stake"]) == (1, LINE[game], "30")
    assert [tag for _, tag in wager["chips"]] == [2500, 500]
    deal_to_result(run, random.Random(game))
    if run.state == m.VOID:
        pytest.skip("the random deal voided")  # a Fu Bacc fold at a spot is settled too; a void is tested below
    money = settlement(run)
    kinds = [e.kind for e in run.last if hasattr(e, "kind")]
    assert kinds.index("result") < kinds.index("settlement")  # journaled with the result, after it
    assert money["void"] is False and money["round"] == 1
    row = next(w for w in money["wagers"] if w["bet"] == LINE[game])
    assert row["stake"] == "30" and Fraction(row["back"]) == Fraction(row["stake"]) + Fraction(row["net"])
    assert Fraction(money["house_net"]) == -sum(Fraction(w["net"]) for w in money["wagers"])
    assert run.table.snapshot()["money"]["payouts"] == money["wagers"]


def test_a_round_without_wagers_still_journals_its_empty_wagers_and_settlement():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.cards("As", "Kh", "8h", "Ks")
    assert run.journal("wagers") == [{"round": 1, "source": "none", "wagers": [], "refused": []}]
    assert settlement(run) == {"round": 1, "void": False, "wagers": [], "house_net": "0"}
    assert run.cmd("confirm").ok  # no sensor: no payout check
    assert run.table.snapshot()["money"]["payout_check"] is False


def test_a_void_returns_every_wager_before_the_void_record():
    run, sensor = money_run("fortune6")
    assert run.cmd("place_bets").ok
    sensor.place(2, "tie", 5)
    sensor.place(2, "player", 20)
    assert run.cmd("no_more_bets").ok
    run.cards("As")
    run.key()
    assert run.cmd("void", kind="order_altered").ok
    kinds = [e.kind for e in run.last if hasattr(e, "kind")]
    assert kinds[-2:] == ["settlement", "void"]
    money = settlement(run)
    assert money["void"] is True and money["house_net"] == "0"
    assert {(w["bet"], w["stake"], w["net"], w["back"]) for w in money["wagers"]} == {
        ("player", "20", "0", "20"), ("tie", "5", "0", "5")}


def test_fu_bacc_play_is_twice_the_ante_placed_after_no_more_bets_without_a_late_wager():
    run, sensor = money_run("fubacc", spots=(1,))
    assert run.cmd("place_bets").ok
    sensor.place(1, "ante", 10)
    assert run.cmd("no_more_bets").ok
    run.cards("6h", "Kd", "2c", "8s", "7h", "Qd")  # spot 1's packet, then the dealer's
    assert run.state == m.AWAITING
    sensor.place(1, "play", 20)  # the Play goes out with the decision (procedure 8)
    assert run.cmd("decide", spot=1, decision="play").ok
    while run.state == m.AWAITING:
        assert run.cmd("decide", spot=1, decision="stay").ok
    assert not [r for r in run.journal("irregularity") if r["kind"] == "late_wager"]
    if run.state == m.RESULT:
        rows = {w["bet"]: w for w in settlement(run)["wagers"]}
        assert rows["play"]["stake"] == "20" and rows["ante"]["stake"] == "10"


# ---------------------------------------------------------------- wagers by command


def test_wagers_by_command_replace_the_seats_wagers_and_play_without_a_payout_check():
    run = Run("fortune6")
    run.baccarat_shoe()
    assert run.cmd("place_bets").ok
    assert run.cmd("wagers", seat=3, stakes=["banker=25", "tie=5"]).ok
    assert run.cmd("wagers", seat=4, stakes=["player=10"]).ok
    assert run.cmd("wagers", seat=3, stakes=["banker=50"]).ok  # replaces seat 3's
    assert run.cmd("wagers", seat=4, stakes=[]).ok  # clears seat 4's
    assert run.cmd("no_more_bets").ok
    assert run.journal("wagers")[-1]["wagers"] == [{"seat": 3, "bet": "banker", "stake": "50"}]
    assert run.journal("wagers")[-1]["source"] == "command"
    run.cards("As", "Kh", "8h", "Ks")  # Player 9, Banker 0
    assert settlement(run)["wagers"] == [{"seat": 3, "bet": "banker", "stake": "50", "net": "-50", "back": "0",
                                          "commission": "0"}]
    money = run.table.snapshot()["money"]
    assert money["sensor"] == "none" and money["payout_check"] is False
    assert run.cmd("confirm").ok


@pytest.mark.parametrize("stakes, why", [
    (["bonkers=5"], "fortune6 has no bet 'bonkers'"),
    (["banker=-5"], "is negative"),
    (["banker=5x"], "is not a decimal number"),
    (["banker"], "is not BET=AMOUNT"),
    (["banker=5", "banker=6"], "is given twice"),
])
def test_a_bad_stake_is_refused_naming_it(stakes, why):
    run = Run("fortune6")
    run.baccarat_shoe()
    assert run.cmd("place_bets").ok
    reply = run.cmd("wagers", seat=1, stakes=stakes)
    assert not reply.ok and why in reply.message


def test_a_wager_for_a_seat_the_table_has_not_is_refused():
    run = Run("fortune6")
    run.baccarat_shoe()
    assert run.cmd("place_bets").ok
    reply = run.cmd("wagers", seat=8, stakes=["banker=5"])
    assert not reply.ok and "seat 8 is not a fortune6 seat (1-7, local ruling L9)" in reply.message


def test_wagers_by_command_only_while_betting_and_only_without_a_live_sensor():
    run = Run("fortune6")
    run.baccarat_shoe()
    reply = run.cmd("wagers", seat=1, stakes=["banker=5"])
    assert not reply.ok and "while bets are open" in reply.message
    run.open_round()
    reply = run.cmd("wagers", seat=1, stakes=["banker=5"])
    assert not reply.ok and "fortune6 §5.6" in reply.message
    run, sensor = money_run("fortune6")
    assert run.cmd("place_bets").ok
    reply = run.cmd("wagers", seat=1, stakes=["banker=5"])
    assert not reply.ok and "the bet sensor reads the wagers" in reply.message


def test_fu_bacc_play_is_not_given_by_command():
    run = Run("fubacc")
    run.new_shoe()
    assert run.cmd("place_bets").ok
    reply = run.cmd("wagers", seat=1, stakes=["play=10"])
    assert not reply.ok and "follows from the ante (fubacc way 1, procedure 8)" in reply.message


# ---------------------------------------------------------------- limits and what cannot settle


@pytest.mark.parametrize("game, bet, clause", [
    ("fortune6", "banker", "local ruling L11"), ("fafa4", "player", "local ruling L11"),
    ("fortune7", "banker", "fortune7 Wagering Limits and Collection Fees"),
    ("fubacc", "ante", "fubacc procedure 1"), ("paigow", "standard", "local ruling L11"),
])
def test_a_wager_outside_the_limits_is_refused_and_does_not_play(game, bet, clause):
    limits = TableLimits.from_mapping(get_game(game), {bet: {"min": "5", "max": "500"}})
    run, sensor = money_run(game, limits=limits)
    assert run.cmd("place_bets").ok
    sensor.place(1, bet, 4)
    sensor.place(2, bet, 501)
    sensor.place(3, bet, 500)
    run.cmd("spots", spots=[1, 2, 3]) if get_game(game).uses_spots else None
    assert run.cmd("no_more_bets").ok
    record = run.journal("wagers")[-1]
    assert [(w["seat"], w["stake"]) for w in record["wagers"]] == [(3, "500")]
    assert [(r["seat"], r["reason"], r["clause"]) for r in record["refused"]] == [
        (1, f"below the table's minimum 5 for {bet}", clause), (2, f"above the table's maximum 500 for {bet}", clause)]


def test_a_bonus_whose_line_wager_is_refused_is_refused_in_turn():
    limits = TableLimits.from_mapping(get_game("fortune7"), {"banker": {"min": "10"}})
    run, sensor = money_run("fortune7", limits=limits)
    assert run.cmd("place_bets").ok
    sensor.place(1, "banker", 5)
    sensor.place(1, "one_up", 5)
    sensor.place(2, "fortune7", 5)  # no line wager at all
    assert run.cmd("no_more_bets").ok
    refused = {(r["seat"], r["bet"]): r for r in run.journal("wagers")[-1]["refused"]}
    assert refused[(1, "one_up")]["clause"] == "fortune7 One Up Bonus Bet, ruling 8"
    assert refused[(2, "fortune7")]["clause"] == "fortune7 Fortune 7 Bonus Bet, ruling 8"
    assert refused[(1, "banker")]["clause"] == "fortune7 Wagering Limits and Collection Fees"
    assert run.journal("wagers")[-1]["wagers"] == []


def test_a_wager_at_a_spot_that_is_not_live_is_refused():
    run, sensor = money_run("paigow")
    assert run.cmd("place_bets").ok
    sensor.place(2, "standard", 10)  # spot 1 only is live
    assert run.cmd("no_more_bets").ok
    (refused,) = run.journal("wagers")[-1]["refused"]
    assert refused["seat"] == 2 and "spot 2 is not live" in refused["reason"] and refused["clause"] == "local ruling L10"


# ---------------------------------------------------------------- foreign chips


@pytest.mark.parametrize("why", ["unknown", "retired", "value differs"])
def test_a_foreign_chip_is_an_irregularity_and_its_wager_is_not_accepted(why):
    run, sensor = money_run("paigow")
    uid, tag = sensor.chip(Fraction(25))
    sensor.import_chips()
    if why == "unknown":
        uid, tag = "08a1b2c3d4e5f6", 10000
    elif why == "retired":
        assert run.cmd("chips_retire", uids=[uid]).ok
    else:
        tag = 100000  # the tag says 1000, the registry 25
    assert run.cmd("place_bets").ok
    sensor.place(1, "standard", 10)
    sensor.place(1, "fortune_bonus", 5, raw=[(uid, tag)] + sensor.chips_for(Fraction(5)))
    found = run.irregularity()
    assert found["kind"] == "foreign_chip" and found["clause"] == "local ruling L10" and found["consequence"] == "refuse"
    assert (found["seat"], found["bet"], found["space"], found["uid"], found["why"]) == (
        1, "fortune_bonus", sensor.spaces[(1, "fortune_bonus")], uid, why)
    assert run.events("irregularity", last=True)  # surveillance is told at once
    assert run.state == m.BETTING and run.lamps()["error"] == "fast"
    space = next(s for s in run.table.snapshot()["money"]["spaces"] if s["bet"] == "fortune_bonus")
    assert space["foreign"] == [uid] and space["amount"] == "5"
    sensor.report(1, "fortune_bonus")
    assert len([r for r in run.journal("irregularity") if r["kind"] == "foreign_chip"]) == 1  # once per chip
    assert run.cmd("no_more_bets").ok
    record = run.journal("wagers")[-1]
    assert [w["bet"] for w in record["wagers"]] == ["standard"]
    assert record["refused"][0]["bet"] == "fortune_bonus" and uid in record["refused"][0]["reason"]


def test_without_a_registry_no_chip_is_foreign_and_status_says_so():
    run = Run("fortune6")
    run.baccarat_shoe()
    sensor = Sensor(run, registry=False)
    assert run.cmd("place_bets").ok
    sensor.place(1, "banker", 25)
    assert not run.journal("irregularity")
    assert run.table.snapshot()["money"]["registry"] == "no chip registry"
    assert run.cmd("chips").message == "no chip registry"
    assert run.cmd("no_more_bets").ok and run.journal("wagers")[-1]["wagers"][0]["stake"] == "25"


@pytest.mark.parametrize("rows, why", [
    (["04zz,5,house"], "row 1: UID '04zz' is not 4-10 bytes of hex"),
    (["0400000001,5"], "row 1: '0400000001,5' is not UID,VALUE,SET"),
    (["0400000001,-5,house"], "is negative"),
    (["0400000001,5,house", "0400000001,25,house"], "row 2: UID 0400000001 is given twice"),
])
def test_a_bad_import_is_refused_whole_naming_the_row(rows, why):
    run = Run("fortune6")
    reply = run.cmd("chips_import", chips=rows)
    assert not reply.ok and why in reply.message and not run.journal("chips")
    assert run.cmd("chips").message == "no chip registry"


def test_the_registry_is_journaled_and_listed():
    run = Run("fortune6")
    assert run.cmd("chips_import", chips=["0400000001,25,house", "0400000002,5.5,house"]).ok
    assert run.journal("chips")[-1]["imported"][1] == {"uid": "0400000002", "value": "5.5", "set": "house"}
    assert run.cmd("chips_retire", uids=["0400000002"]).ok
    assert run.journal("chips")[-1]["retired"] == ["0400000002"]
    assert not run.cmd("chips_retire", uids=["0400000003"]).ok
    listed = run.cmd("chips").fields
    assert listed["in_service"] == 1 and listed["list"][1]["retired"] is True
    assert run.cmd("chips", uid="0400000001").fields["chip"]["value"] == "25"


# ---------------------------------------------------------------- after "No more bets"


@pytest.mark.parametrize("game", GAMES)
def test_a_chip_added_is_a_late_wager_and_one_taken_is_a_wager_removed_the_frozen_wager_stands(game):
    run, sensor = money_run(game)
    line = LINE[game]
    assert run.cmd("place_bets").ok
    sensor.place(1, line, 30)
    assert run.cmd("no_more_bets").ok
    sensor.place(1, line, 100)
    late = run.irregularity()
    rule = get_game(game).rule(IrregularityKind.LATE_WAGER)
    assert late["kind"] == "late_wager" and late["clause"] == f"{rule.clause}, local ruling L10"
    assert (late["seat"], late["bet"], late["frozen"], late["now"]) == (1, line, "30", "130")
    assert run.state == m.BETS_CLOSED  # the round goes on
    sensor.take(1, line, 3)  # the 100 and both chips of the 30
    removed = run.irregularity()
    assert removed["kind"] == "wager_removed" and (removed["frozen"], removed["now"]) == ("30", "0")
    assert run.events("irregularity", last=True)
    deal_to_result(run, random.Random(7))
    if run.state == m.RESULT:
        row = next(w for w in settlement(run)["wagers"] if w["bet"] == line)
        assert row["stake"] == "30"  # the wager of record, not what lies there now


def test_a_foreign_chip_added_after_no_more_bets_is_a_late_wager_too_and_the_wager_of_record_stands():
    run, sensor = money_run("fortune6")
    assert run.cmd("place_bets").ok
    sensor.place(1, "player", 25)
    sensor.place(2, "banker", 0, raw=[("08a1b2c3d4e5f6", 500)])  # lying there while bets are open: refused then
    assert [r["kind"] for r in run.journal("irregularity")] == ["foreign_chip"]
    assert run.cmd("no_more_bets").ok
    sensor.place(2, "banker", 5)  # house chips beside the foreign one: late; the foreign one is not new
    sensor.place(1, "player", 0, raw=[("08f0f0f0f0f0f0", 500)])  # a counterfeit slipped onto a wager of record
    found = [r for r in run.journal("irregularity")][1:]
    assert [r["kind"] for r in found] == ["late_wager", "foreign_chip", "late_wager"]
    assert found[0]["evidence"]["added"] == [uid for uid, _ in sensor.chips[(2, "banker")][1:]]
    assert "refused, the wager of record stays as frozen" in found[1]["detail"]
    assert (found[2]["seat"], found[2]["bet"], found[2]["frozen"], found[2]["now"]) == (1, "player", "25", "25")
    assert found[2]["evidence"]["added"] == ["08f0f0f0f0f0f0"]
    sensor.place(1, "player", 0, raw=[])  # read again: nothing new to say
    assert len(run.journal("irregularity")) == 4
    assert [w["stake"] for w in run.journal("wagers")[-1]["wagers"]] == ["25"]


# ---------------------------------------------------------------- the payout check


def fortune6_result(sensor_run=None):
    run, sensor = sensor_run or money_run("fortune6")
    assert run.cmd("place_bets").ok
    sensor.place(1, "player", 25)
    sensor.place(2, "banker", 10)
    assert run.cmd("no_more_bets").ok
    run.cards("As", "Kh", "8h", "Ks")  # Player 9, Banker 0: seat 1 is owed 50, seat 2 nothing
    assert run.state == m.RESULT
    return run, sensor


def test_a_mispay_refuses_confirm_until_corrected():
    run, sensor = fortune6_result()
    sensor.set_to(1, "player", Fraction(45))  # under by 5; seat 2's losing 10 still there (over)
    reply = run.cmd("confirm")
    assert not reply.ok and "round 1 is mispaid (local ruling L10)" in reply.message
    assert "seat 1 player holds 45, should hold 50" in reply.message and "seat 2 banker holds 10, should hold 0" in reply.message
    mispays = {r["seat"]: r for r in run.journal("irregularity") if r["kind"] == "mispay"}
    assert (mispays[1]["expected"], mispays[1]["found"], mispays[1]["difference"], mispays[1]["direction"]) == (
        "50", "45", "-5", "under")
    assert (mispays[2]["expected"], mispays[2]["found"], mispays[2]["direction"]) == ("0", "10", "over")
    assert run.state == m.RESULT and run.lamps()["error"] == "fast"
    assert {m_["seat"] for m_ in run.table.snapshot()["money"]["mispays"]} == {1, 2}
    assert not run.cmd("place_bets").ok  # the next round does not open before
    assert not run.cmd("confirm").ok
    assert len([r for r in run.journal("irregularity") if r["kind"] == "mispay"]) == 2  # not journaled again
    sensor.set_to(1, "player", Fraction(50))
    sensor.set_to(2, "banker", Fraction(0))
    assert run.events("mispay_cleared")
    assert run.table.snapshot()["money"]["mispays"] == []
    assert run.lamps()["error"] == "off"  # the mispays were its only reason to blink
    assert run.cmd("confirm").ok and run.state == m.SETTLED
    assert run.cmd("place_bets").ok


def test_the_supervisor_accepts_a_mispay_with_the_key():
    run, sensor = fortune6_result()
    sensor.set_to(1, "player", Fraction(60))
    sensor.set_to(2, "banker", Fraction(0))
    assert not run.cmd("confirm").ok
    reply = run.cmd("accept_payouts")
    assert not reply.ok and "needs the supervisor key" in reply.message
    run.key()
    assert run.cmd("accept_payouts").ok
    (accepted,) = run.journal("payouts_accepted")
    assert accepted == {"round": 1, "by": "panel", "differences": [{"seat": 1, "bet": "player", "expected": "50",
                                                                     "found": "60"}]}
    assert run.cmd("confirm").ok and run.state == m.SETTLED


def test_payouts_are_not_checked_against_a_sensor_that_is_not_heard():
    run, sensor = fortune6_result()
    sensor.set_to(1, "player", Fraction(50))
    sensor.set_to(2, "banker", Fraction(0))
    run.send(i.BetSensorLink(False, "link lost: unplugged"))
    assert run.table.snapshot()["money"]["sensor"] == "lost"
    reply = run.cmd("confirm")
    assert not reply.ok and "not heard (link lost: unplugged)" in reply.message and run.state == m.RESULT
    run.send(i.BetSensorLink(True))
    assert run.table.snapshot()["money"]["sensor"] == "live"
    assert run.cmd("confirm").ok and run.state == m.SETTLED


def test_nothing_to_accept_when_every_space_is_right():
    run, sensor = fortune6_result()
    sensor.pay_out(settlement(run))
    run.key()
    reply = run.cmd("accept_payouts")
    assert not reply.ok and "nothing to accept" in reply.message
    assert run.cmd("confirm").ok


@pytest.mark.parametrize("game", ["fubacc", "paigow"])
def test_a_mispaid_space_blinks_its_own_lamp_on_a_spot_table(game):
    run, sensor = money_run(game)
    assert run.cmd("place_bets").ok
    sensor.place(1, LINE[game], 20)
    assert run.cmd("no_more_bets").ok
    deal_to_result(run, random.Random(3))
    if run.state != m.RESULT:
        pytest.skip("the random deal voided")
    money = settlement(run)
    sensor.pay_out(money)
    owed = sum(Fraction(w["back"]) for w in money["wagers"] if w["bet"] == LINE[game])
    sensor.set_to(1, LINE[game], owed + 1)
    assert not run.cmd("confirm").ok
    assert run.lamps()[f"spot1_{LINE[game]}"] == "fast"
    assert run.lamps()["error"] == "off"  # the space's own lamp says it, not the error lamp
    sensor.set_to(1, LINE[game], owed)
    assert run.lamps()[f"spot1_{LINE[game]}"] != "fast"
    assert run.cmd("confirm").ok


# ---------------------------------------------------------------- status


def test_status_shows_the_money():
    run, sensor = fortune6_result()
    money = run.table.snapshot()["money"]
    assert money["sensor"] == "live" and money["payout_check"] is True
    assert money["wagers"] == run.journal("wagers")[-1]["wagers"]
    assert money["payouts"] == settlement(run)["wagers"]
    space = next(s for s in money["spaces"] if (s["seat"], s["bet"]) == (1, "player"))
    assert space["amount"] == "25" and space["foreign"] == [] and len(space["chips"]) == 1


def test_the_chip_unit_reads_tags_as_the_config_says():
    run = Run("fortune6", chip_unit=Fraction(1))
    run.baccarat_shoe()
    sensor = Sensor(run, registry=False)
    assert run.cmd("place_bets").ok
    sensor.place(1, "banker", 0, raw=[("0400000001", 25)])
    assert run.cmd("no_more_bets").ok
    assert run.journal("wagers")[-1]["wagers"][0]["stake"] == "25"


def test_a_space_read_again_is_published_as_when_first_read():
    # Chips judged before are taken a shorter way (the house's known set, a sum in C, the amount
    # and its decimal kept by number): the `space` event must be what the first reading gave.
    run, sensor = money_run("fortune6")
    assert run.cmd("place_bets").ok
    sensor.place(1, "banker", 0, raw=[sensor.chip(Fraction(25, 2)), sensor.chip(Fraction(5))])  # cents: 12.50
    first = run.events("space")[-1]
    assert first["amount"] == "17.5" and first["chips"] == [[uid, tag] for uid, tag in sensor.chips[(1, "banker")]]
    sensor.report(1, "banker")
    assert run.events("space")[-1] == first
    sensor.place(1, "banker", 0, raw=[("08a1b2c3d4e5f6", 500)])  # a foreign chip on top: the long way
    foreign = run.events("space")[-1]
    assert foreign["amount"] == "17.5" and foreign["foreign"] == ["08a1b2c3d4e5f6"] and foreign["chips"] == first["chips"]
    sensor.take(1, "banker")
    assert run.events("space")[-1] == first


def test_settings_refuse_limits_for_another_games_bets():
    from controller.table.settings import SettingsError
    limits = TableLimits.from_mapping(get_game("fortune6"), {"banker": {"min": "5"}})
    with pytest.raises(SettingsError, match="paigow has no bet 'banker'"):
        TableSettings.for_game(get_game("paigow"), limits=limits).check(get_game("paigow"))


def test_a_new_layout_keeps_only_the_readings_of_spaces_that_mean_the_same():
    run, sensor = money_run("fortune6")
    sensor.place(1, "banker", 25)
    sensor.place(1, "player", 5)
    space = sensor.spaces[(1, "banker")]
    run.send(i.BetLayoutHeard(((space, 1, "banker"), (sensor.spaces[(1, "player")], 2, "player"))))
    amounts = {(s["seat"], s["bet"]): s["amount"] for s in run.table.snapshot()["money"]["spaces"]}
    assert amounts == {(1, "banker"): "25", (2, "player"): "0"}
    run.send(i.BetLayoutHeard(((0, 1, "nonsense"),)))
    assert "fortune6 has no bet 'nonsense'" in run.journal("device_note")[-1]["detail"]

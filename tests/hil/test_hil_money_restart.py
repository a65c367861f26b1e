"""Money across a daemon killed (SIGKILL) between the result and the confirm, on the real
`tablectl run` with the simulators: the wagers given by command, the payouts owed and the chip
registry survive; the settlement is not journaled twice; confirm then settles the round.
(The bet sensor's payout check across a restart, every game: test_hil_money_sensor.py.)"""
import pytest

pytestmark = pytest.mark.hil


def test_sigkill_between_result_and_confirm_keeps_the_money_and_the_registry(start_rig):
    rig = start_rig("fortune6", seed=31)
    rig.new_shoe()
    assert rig.send("chips_import", chips=["0400000001,25,house", "0400000002,5,house"])["ok"]
    number = rig.open_round(close_bets=False)
    assert rig.send("wagers", seat=3, stakes=["banker=25", "tie=5"])["ok"]
    assert rig.press("no_more_bets")["ok"]
    while rig.status()["state"] != "result":
        rig.draw(1)
    (owed,) = [r.payload for r in rig.records() if r.kind == "settlement" and r.round == number]
    assert [(w["bet"], w["stake"]) for w in owed["wagers"]] == [("banker", "25"), ("tie", "5")]
    before = rig.records()
    assert rig.kill_daemon() == -9
    rig.start_daemon()
    after = rig.records()
    assert after[:len(before)] == before
    money = rig.status()["money"]
    assert money["payouts"] == owed["wagers"] and money["payout_check"] is False
    assert money["wagers"] == [{"seat": 3, "bet": "banker", "stake": "25"}, {"seat": 3, "bet": "tie", "stake": "5"}]
    assert money["registry"]["in_service"] == 2
    assert rig.press("confirm")["ok"]
    assert [r.round for r in rig.records() if r.kind == "settlement"] == [number]
    assert [r.round for r in rig.records() if r.kind == "settled"] == [number]
    assert rig.verify().ok

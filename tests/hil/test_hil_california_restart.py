"""Fortune 7's California money across a daemon killed (SIGKILL) between the result and the
confirm, on the real `tablectl run` with the simulators: the player-dealer's stake and the
wagers given by command, the fees taken before the deal, and the bank's settlement survive; the
settlement is not journaled twice; confirm then settles the round and the rotation counts it.
(The bank's walk, its caps, a void and a holder without a stake are tested at the table:
tests/controller/table/test_table_california.py.)"""
from fractions import Fraction

import pytest

pytestmark = pytest.mark.hil


def test_sigkill_between_result_and_confirm_keeps_the_banks_settlement(start_rig):
    rig = start_rig("fortune7", seed=7, config={"fortune7": {"collection_schedule": 3, "player_dealer_seat": 2}})
    rig.new_shoe()
    number = rig.open_round(close_bets=False)
    assert rig.send("wagers", seat=2, stakes=["bank=150"])["ok"]
    assert rig.send("wagers", seat=3, stakes=["banker=50", "tie=5"])["ok"]
    assert rig.send("wagers", seat=5, stakes=["player=40"])["ok"]
    assert rig.press("no_more_bets")["ok"]
    (frozen,) = [r.payload for r in rig.records() if r.kind == "wagers" and r.round == number]
    assert frozen["player_dealer"] == {"seat": 2, "stake": "150"}
    assert frozen["fees"]["total"] == "5" and frozen["fees"]["option"] == 3  # $1 x 3 spaces, $2 the bank's
    while rig.status()["state"] != "result":
        rig.draw(1)
    (owed,) = [r.payload for r in rig.records() if r.kind == "settlement" and r.round == number]
    assert [(w["seat"], w["bet"]) for w in owed["wagers"]] == [(5, "player"), (3, "banker"), (3, "tie")]
    assert owed["house_net"] == "5" and owed["player_dealer"]["seat"] == 2
    bettors = sum(Fraction(w["net"]) - Fraction(w["fee"]) for w in owed["wagers"])
    pd = owed["player_dealer"]
    assert bettors + Fraction(pd["net"]) - Fraction(pd["fee"]) + Fraction(owed["house_net"]) == 0
    before = rig.records()
    assert rig.kill_daemon() == -9
    rig.start_daemon()
    assert rig.records()[:len(before)] == before
    money = rig.status()["money"]
    assert money["payouts"] == owed["wagers"] and money["bank"] == owed["bank"]
    assert money["player_dealer"]["back"] == owed["player_dealer"]["back"] and money["fees"] == frozen["fees"]
    assert rig.press("confirm")["ok"]
    assert [r.round for r in rig.records() if r.kind == "settlement"] == [number]
    assert [r.payload["event"] for r in rig.records() if r.kind == "player_dealer"][-1] == "hand_played"
    assert rig.verify().ok

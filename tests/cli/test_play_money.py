"""`tablectl play --wager`: the `money` of a round in JSON and as a table, and bad wagers exit 2."""
import json

import pytest

from cli import main

FORTUNE6 = ["fortune6", "2s", "3h", "Kd", "3c", "9s"]  # banker wins with a two-card 6, banker pair
PAIGOW = ["paigow", *"As Ah Kd Qd 8s 7c 5h Kc Qh 9s 6h 4c 3d 2s".split()]  # spot 1 wins both hands
FUBACC = ["fubacc", *"6h Kd 2c 8s 7h Qd".split(), "--spots", "1", "--decide", "1=play,stay"]


def _run(capsys, *argv):
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_money_json_as_the_tracker_gives_it(capsys):
    code, out, err = _run(capsys, *FORTUNE6, "--wager", "1:banker=25", "--wager", "2:player=10",
                          "--wager", "2:fortune6=5", "--json")
    assert code == 0 and err == ""
    assert json.loads(out)["money"] == {
        "wagers": [
            {"seat": 1, "bet": "banker", "stake": "25", "net": "25", "back": "50", "commission": "0"},
            {"seat": 2, "bet": "player", "stake": "10", "net": "-10", "back": "0", "commission": "0"},
            {"seat": 2, "bet": "fortune6", "stake": "5", "net": "60", "back": "65", "commission": "0"},
        ],
        "house_net": "-75",
    }


def test_the_other_fields_do_not_change(capsys):
    _, plain, _ = _run(capsys, *FORTUNE6, "--json")
    _, with_money, _ = _run(capsys, *FORTUNE6, "--wager", "1:banker=25", "--json")
    money = json.loads(with_money)
    del money["money"]
    assert money == json.loads(plain) and "money" not in json.loads(plain)


def test_paigow_commission_and_the_rounding_options(capsys):
    _, out, _ = _run(capsys, *PAIGOW, "--wager", "1:standard=25", "--json")
    assert json.loads(out)["money"]["wagers"][0] == {"seat": 1, "bet": "standard", "stake": "25", "net": "23",
                                                     "back": "48", "commission": "2"}
    _, out, _ = _run(capsys, *PAIGOW, "--wager", "1:standard=25", "--minor-unit", "0.25", "--json")
    money = json.loads(out)["money"]
    assert (money["wagers"][0]["net"], money["wagers"][0]["commission"], money["house_net"]) == ("23.75", "1.25", "-23.75")
    _, out, _ = _run(capsys, *PAIGOW, "--wager", "1:standard=25", "--rounding", "half_up", "--json")
    assert json.loads(out)["money"]["wagers"][0]["net"] == "24"


def test_fubacc_play_derived_in_the_table(capsys):
    code, out, _ = _run(capsys, *FUBACC, "--wager", "1:ante=5", "--wager", "1:tie=5")
    assert code == 0
    lines = out.splitlines()
    money = lines[lines.index("money:"):]
    assert [line.split() for line in money] == [
        ["money:"],
        ["seat", "bet", "stake", "net", "back", "commission"],
        ["1", "ante", "5", "5", "10", "0"],
        ["1", "play", "10", "10", "20", "0"],
        ["1", "tie", "5", "-5", "0", "0"],
        ["house", "net:", "-10"],
    ]


def test_a_void_returns_every_wager(capsys):
    code, out, _ = _run(capsys, *FORTUNE6[:-1], "--wager", "1:banker=25", "--json")
    got = json.loads(out)
    assert code == 0 and got["void"] is True
    assert got["money"] == {"wagers": [{"seat": 1, "bet": "banker", "stake": "25", "net": "0", "back": "25",
                                        "commission": "0"}], "house_net": "0"}


@pytest.mark.parametrize("argv, message", [
    ([*FORTUNE6, "--wager", "1:bankr=5"], "wager 1:bankr=5: fortune6 has no bet 'bankr'"),
    ([*FORTUNE6, "--wager", "9:banker=5"], "wager 9:banker=5: unknown seat: fortune6 has seats 1-7"),
    ([*FUBACC, "--wager", "2:ante=5"], "wager 2:ante=5: unknown seat: spot 2 is not live"),
    (["fortune7", "2s", "3h", "Kd", "3c", "9s", "--wager", "1:fortune7=5"],
     "fortune7 needs a player or banker wager at seat 1 (fortune7 Fortune 7 Bonus Bet, ruling 8)"),
    ([*PAIGOW, "--wager", "1:fortune_bonus=5"], "fortune_bonus needs a standard wager at seat 1 (paigow §3.5)"),
    ([*FORTUNE6, "--wager", "1:banker=-5"], "bad wager '1:banker=-5': amount '-5' is negative"),
    ([*FORTUNE6, "--wager", "1:banker=5x"], "bad wager '1:banker=5x': amount '5x' is not a decimal number"),
    ([*FORTUNE6, "--wager", "1:banker=0"], "amount 0 is not a wager"),
    ([*FORTUNE6, "--wager", "1:banker=2.5"], "not a whole number of the table's minor unit 1"),
    ([*FORTUNE6, "--wager", "banker=5"], "bad wager 'banker=5': expected SEAT:BET=AMOUNT"),
    ([*FORTUNE6, "--wager", "x:banker=5"], "not a seat number"),
    ([*FORTUNE6, "--wager", "1:banker=" + "9" * 200], "longer than 100 characters"),
    ([*FUBACC, "--wager", "1:ante=5", "--wager", "1:play=5"], "the play wager is 2x the ante, 10"),
    ([*FORTUNE6, "--wager", "1:banker=5", "--minor-unit", "-1"], "--minor-unit '-1'"),
])
def test_a_bad_wager_exits_2_naming_it(capsys, argv, message):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == "" and message in err

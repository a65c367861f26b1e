"""`tablectl play fortune7 ... --player-dealer SEAT=STAKE --schedule N`: the player-dealer's bank
covers the wagers (RULINGS.md 26), fees per schedule N (ruling 25), back-line bettors as
SEAT/NAME, and bad input exits 2 naming it."""
import json

import pytest

from cli import main

BANKER_WINS = ["fortune7", "2s", "3h", "Kd", "3c", "9s"]  # banker 6 beats player 1


def _run(capsys, *argv):
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_money_json_with_a_player_dealer_as_the_tracker_gives_it(capsys):
    # bank 100 at seat 4 under option 3 ($1 per bettor per space, $2 per hand): seat 6's player line
    # is collected (150), seat 1's banker and back-line al's are paid 60 + 40 (50), seat 2's banker
    # is paid the last 50 of its 60 and empties the bank, seat 2's losing Tie is returned untouched
    code, out, err = _run(capsys, *BANKER_WINS, "--player-dealer", "4=100", "--schedule", "3",
                          "--wager", "2:banker=60", "--wager", "1:banker=60", "--wager", "1/al:banker=40",
                          "--wager", "6:player=50", "--wager", "2:tie=10", "--json")
    assert code == 0 and err == ""
    assert json.loads(out)["money"] == {
        "wagers": [
            {"seat": 6, "bettor": "seat", "bet": "player", "stake": "50", "net": "-50", "back": "0",
             "commission": "0", "covered": "50", "returned": "0", "fee": "1"},
            {"seat": 1, "bettor": "seat", "bet": "banker", "stake": "60", "net": "60", "back": "120",
             "commission": "0", "covered": "60", "returned": "0", "fee": "1"},
            {"seat": 1, "bettor": "al", "bet": "banker", "stake": "40", "net": "40", "back": "80",
             "commission": "0", "covered": "40", "returned": "0", "fee": "1"},
            {"seat": 2, "bettor": "seat", "bet": "banker", "stake": "60", "net": "50", "back": "110",
             "commission": "0", "covered": "60", "returned": "0", "fee": "1"},
            {"seat": 2, "bettor": "seat", "bet": "tie", "stake": "10", "net": "0", "back": "10",
             "commission": "0", "covered": "0", "returned": "10", "fee": "1"},
        ],
        "player_dealer": {"seat": 4, "stake": "100", "net": "-100", "fee": "2"},
        "house_net": "7",
    }


def test_the_2s_cap_returns_what_the_player_dealer_cannot_win(capsys):
    # bank 50 at seat 7, option 21 (no player fee; $250 of action pays $2): seat 1 loses 60 on the
    # player line, of which 50 is collected (the bank holds 2S) and 10 returned; its back-line bo's
    # 40 and seat 2's 100 are returned; then seat 3's banker is paid 50 from the bank
    code, out, _ = _run(capsys, *BANKER_WINS, "--player-dealer", "7=50", "--schedule", "21",
                        "--wager", "1:player=60", "--wager", "1/bo:player=40", "--wager", "2:player=100",
                        "--wager", "3:banker=50", "--json")
    money = json.loads(out)["money"]
    assert code == 0
    assert [(w["seat"], w["bettor"], w["net"], w["covered"], w["returned"], w["fee"]) for w in money["wagers"]] == [
        (1, "seat", "-50", "50", "10", "0"), (1, "bo", "0", "0", "40", "0"), (2, "seat", "0", "0", "100", "0"),
        (3, "seat", "50", "50", "0", "0")]
    assert money["player_dealer"] == {"seat": 7, "stake": "50", "net": "0", "fee": "2"}
    assert money["house_net"] == "2"


def test_a_void_returns_every_wager_and_fee(capsys):
    code, out, _ = _run(capsys, *BANKER_WINS[:-1], "--player-dealer", "4=100", "--schedule", "3",
                        "--wager", "1:banker=25", "--wager", "1/al:player=10", "--json")
    got = json.loads(out)
    assert code == 0 and got["void"] is True
    assert got["money"] == {
        "wagers": [
            {"seat": 1, "bettor": "al", "bet": "player", "stake": "10", "net": "0", "back": "10",
             "commission": "0", "covered": "0", "returned": "10", "fee": "0"},
            {"seat": 1, "bettor": "seat", "bet": "banker", "stake": "25", "net": "0", "back": "25",
             "commission": "0", "covered": "0", "returned": "25", "fee": "0"},
        ],
        "player_dealer": {"seat": 4, "stake": "100", "net": "0", "fee": "0"},
        "house_net": "0",
    }


def test_as_a_table(capsys):
    code, out, _ = _run(capsys, *BANKER_WINS, "--player-dealer", "4=100", "--schedule", "3",
                        "--wager", "1:banker=25", "--wager", "1/al:banker=10")
    rows = [line.split() for line in out.split("money:\n")[1].splitlines()]
    assert code == 0 and rows == [
        ["seat", "bettor", "bet", "stake", "net", "back", "covered", "returned", "fee"],
        ["1", "seat", "banker", "25", "25", "50", "25", "0", "1"],
        ["1", "al", "banker", "10", "10", "20", "10", "0", "1"],
        ["player-dealer", "seat", "4:", "stake", "100,", "net", "-35,", "fee", "2"],
        ["house", "net:", "4"],
    ]


def test_without_a_player_dealer_fortune7_wagers_against_the_house(capsys):
    code, out, _ = _run(capsys, *BANKER_WINS, "--wager", "1:banker=25", "--json")
    assert code == 0 and json.loads(out)["money"] == {
        "wagers": [{"seat": 1, "bet": "banker", "stake": "25", "net": "25", "back": "50", "commission": "0"}],
        "house_net": "-25"}


PD = ["--player-dealer", "4=100", "--schedule", "3"]


@pytest.mark.parametrize("argv, message", [
    ([*BANKER_WINS, "--player-dealer", "4=100", "--wager", "1:banker=25"],
     "--player-dealer '4=100': give the collection fee schedule, --schedule N (1-26)"),
    ([*BANKER_WINS, "--schedule", "3", "--wager", "1:banker=25"], "--schedule '3': a fee schedule needs --player-dealer"),
    ([*BANKER_WINS, "--player-dealer", "4=100", "--schedule", "27"], "--schedule '27': collection schedule options are 1-26"),
    ([*BANKER_WINS, "--player-dealer", "4=100", "--schedule", "x"], "--schedule 'x': collection schedule options are 1-26"),
    ([*BANKER_WINS, "--player-dealer", "4=100", "--schedule", "\u00b2"], "--schedule '\u00b2': collection schedule"),
    ([*BANKER_WINS, "--player-dealer", "4=100", "--schedule", "0003"], "--schedule '0003': collection schedule"),
    ([*BANKER_WINS, "--player-dealer", "8=100", "--schedule", "3"], "--player-dealer '8=100': player-dealer seat 8"),
    ([*BANKER_WINS, "--player-dealer", "4", "--schedule", "3"], "--player-dealer '4': expected SEAT=STAKE"),
    ([*BANKER_WINS, "--player-dealer", "4=0", "--schedule", "3"], "the player-dealer's stake must be more than 0"),
    ([*BANKER_WINS, "--player-dealer", "4=-5", "--schedule", "3"], "--player-dealer '4=-5': stake: amount '-5' is negative"),
    ([*BANKER_WINS, "--player-dealer", "4=2.5", "--schedule", "3"], "stake 2.5 is not a whole number of the table's minor unit"),
    ([*BANKER_WINS, *PD, "--wager", "4:player=10"], "seat 4 player $10: seat 4 holds the player-dealer position"),
    ([*BANKER_WINS, *PD, "--wager", "1/:player=10"], "bad wager '1/:player=10': back-line bettor ''"),
    ([*BANKER_WINS, *PD, "--wager", "1/a*b:player=10"], "seat 1 player: back-line bettor 'a*b'"),
    ([*BANKER_WINS, *PD, "--wager", "1/" + "n" * 40 + ":player=10"], "longer than 32 characters"),
    ([*BANKER_WINS, *PD, "--wager", "1:dragon=10"], "unknown betting space 'dragon'"),
    ([*BANKER_WINS, *PD, "--wager", "1:player=4"], "seat 1 player $4: below the $5 minimum of option 3"),
    ([*BANKER_WINS, *PD, "--wager", "1:player=60", "--wager", "1/al:player=41"], "over the $100 limit"),
    ([*BANKER_WINS, *PD, "--wager", "1/al:one_up=5", "--wager", "1:player=5"], "needs a Player or Banker line"),
    ([*BANKER_WINS, "--wager", "1/al:player=10"], "a back-line bettor (SEAT/NAME) wagers only against a player-dealer"),
    (["fortune6", "2s", "3h", "Kd", "3c", "9s", *PD], "--player-dealer '4=100': fortune6 has no player-dealer position"),
])
def test_bad_input_exits_2_naming_it(capsys, argv, message):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == "" and message in err

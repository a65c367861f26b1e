"""`tablectl odds` and `tablectl play` for the baccarat games, through cli.main."""
import json

import pytest

from cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_fortune7(capsys):
    code, out, err = _run(capsys, "odds", "fortune7", "--json")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert report["game"] == "fortune7" and report["decks"] == 8
    assert list(report["bets"]) == ["banker", "player", "tie", "fortune7", "one_up"]
    banker = report["bets"]["banker"]
    assert f"{banker['house_edge']:.6f}" == "0.010183"
    row = banker["outcomes"][0]
    assert (row["outcome"], row["pays"], row["count"]) == ("banker wins", "1:1", 2179619555108864)
    assert f"{row['probability']:.6f}" == "0.436064"
    assert sum(o["count"] for o in banker["outcomes"]) == banker["total"]
    assert [o["outcome"] for o in banker["outcomes"]][-1] == "lose"


def test_odds_json_other_games_and_decks(capsys):
    code, out, _ = _run(capsys, "odds", "fafa4", "--decks", "4", "--json")
    report = json.loads(out)
    assert code == 0 and report["decks"] == 4 and "precious_pair" in report["bets"]
    code, out, _ = _run(capsys, "odds", "fortune6", "--json")
    assert code == 0 and set(json.loads(out)["bets"]) == {"banker", "player", "tie", "pair", "fortune6"}


def test_odds_text(capsys):
    code, out, _ = _run(capsys, "odds", "fortune6")
    assert code == 0 and "banker: house edge -1.235081%" in out and "pair      11:1" in out


def test_odds_bad_deck_count(capsys):
    code, out, err = _run(capsys, "odds", "fortune7", "--decks", "6")
    assert code == 2 and out == "" and "--decks 6" in err


def test_play_json_fortune6(capsys):
    code, out, err = _run(capsys, "play", "fortune6", "2s", "3h", "Kd", "3c", "9s", "--json")
    assert code == 0 and err == ""
    got = json.loads(out)
    assert {k: got[k] for k in ("void", "clause", "winner")} == {"void": False, "clause": None, "winner": "banker"}
    assert got["player"] == {"cards": ["2s", "Kd", "9s"], "total": 1}
    assert got["banker"] == {"cards": ["3h", "3c"], "total": 6}
    assert got["bets"]["fortune6"] == {"result": "win", "pays": "12:1"}
    assert got["bets"]["player"] == {"result": "lose", "pays": None}


def test_play_void_json(capsys):
    code, out, _ = _run(capsys, "play", "fafa4", "4-gold", "As", "4-wood", "4-water", "--json")
    got = json.loads(out)
    assert code == 0 and got["void"] is True and got["clause"] == "fafa §5.1" and got["irregularity"] == "foreign_card"


def test_play_text(capsys):
    code, out, _ = _run(capsys, "play", "fortune7", "Ts", "As", "Js", "2h", "5s", "4d")
    assert code == 0 and "winner: banker" in out and "fortune7: win 40:1" in out and "  banker: push\n" in out


@pytest.mark.parametrize("argv,named", [
    (["play", "fortune6", "2s", "Xs", "Kd", "3c"], "'Xs'"),
    (["play", "fafa4", "4-gold", "4-mud"], "'4-mud'"),
    (["play", "fortune9", "2s"], "'fortune9'"),
    (["play", "fortune6", "2s", "3s", "--decks", "3"], "--decks 3"),
    (["play", "fortune7", "2s", "--spots", "1"], "--spots"),
])
def test_bad_input_exits_2_naming_the_token(capsys, argv, named):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == "" and named in err

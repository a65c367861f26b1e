"""`tablectl recall` and `tablectl shoe report` with money: a round's wagers of record and the
refused ones, the payouts in the rules' order, the round's drop and house net, a mispay and the
supervisor's acceptance, a foreign chip; a void round's stakes returned. The journal is written
with the journal's own writer, as the table writes the money records (docs/journal.md); the
settlement is games.money's for the round the rules decide."""
from __future__ import annotations

import json

import pytest

from cli import main
from controller.journal import Journal, last_rounds
from controller.journal.shoe_report import shoe_report
from games.cards import parse_cards
from games.money import MoneyRules, Stake, returned, settle
from games.registry import get_game
from games.replay import run_round

ALICE = {"source": "socket", "user": "alice", "uid": 1000, "pid": 4242}


@pytest.fixture
def journal_path(tmp_path):
    path = tmp_path / "journal.sqlite"
    game = get_game("fortune6")
    stakes = [Stake(1, "banker", 25), Stake(2, "player", 10), Stake(2, "fortune6", 5)]
    _, result = run_round(game, parse_cards("2s 3h Kd 3c 9s".split()))
    money = settle(game, result, stakes, MoneyRules())
    with Journal(path) as journal:
        journal.append("shoe", {"event": "new", "shoe": 1})
        journal.append("round_opened", {"round": 1, "game": "fortune6", "decks": 8, "shoe": 1}, round=1)
        journal.append("irregularity", {"round": 1, "kind": "foreign_chip", "clause": "local ruling L10",
                                        "consequence": "refuse", "detail": "a chip the registry does not know",
                                        "seat": 3, "bet": "tie", "space": 14, "uid": "04a1b2c3d4", "value": "25",
                                        "why": "unknown"}, round=1)
        journal.append("bets_closed", {"round": 1}, round=1)
        journal.append("wagers", {"round": 1, "source": "sensor", "wagers": [
            {"seat": 1, "bet": "banker", "stake": "25", "chips": [["04aa01", 2500]]},
            {"seat": 2, "bet": "player", "stake": "10", "chips": [["04aa02", 500], ["04aa03", 500]]},
            {"seat": 2, "bet": "fortune6", "stake": "5", "chips": [["04aa04", 500]]}],
            "refused": [{"seat": 3, "bet": "tie", "stake": "25", "reason": "a foreign chip on the space",
                         "clause": "local ruling L10"}]}, round=1, durable=True)
        journal.append("result", {"round": 1, "game": "fortune6", **result.to_json()}, round=1, durable=True)
        journal.append("settlement", {"round": 1, "void": False, **money.to_json()}, round=1, durable=True)
        journal.append("irregularity", {"round": 1, "kind": "mispay", "clause": "local ruling L10", "consequence": "refuse",
                                        "detail": "seat 1 banker holds 45, not 50", "seat": 1, "bet": "banker",
                                        "expected": "50", "found": "45", "difference": "-5", "direction": "under"}, round=1)
        journal.append("payouts_accepted", {"round": 1, "by": ALICE, "differences": [
            {"seat": 1, "bet": "banker", "expected": "50", "found": "45"}]}, round=1, durable=True)
        journal.append("settled", {"round": 1}, round=1, durable=True)
        # round 2: voided, every stake returned
        journal.append("round_opened", {"round": 2, "game": "fortune6", "decks": 8, "shoe": 1}, round=2)
        journal.append("bets_closed", {"round": 2}, round=2)
        journal.append("wagers", {"round": 2, "source": "command", "wagers": [{"seat": 4, "bet": "tie", "stake": "5"}],
                                  "refused": []}, round=2, durable=True)
        journal.append("void", {"round": 2, "kind": "order_altered", "clause": "fortune6 §5.4",
                                "reason": "the shoe door was opened mid-round"}, round=2, durable=True)
        void_money = returned(game, [Stake(4, "tie", 5)], (), MoneyRules())
        journal.append("settlement", {"round": 2, "void": True, **void_money.to_json()}, round=2, durable=True)
    return path


def test_recall_text_shows_wagers_refused_payouts_mispay_and_acceptance(journal_path, capsys):
    assert main(["recall", "--journal", str(journal_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    first = out[:out.index(next(line for line in out if line.startswith("round 2")))]
    assert "  wagers   read by the bet sensor: seat 1 banker 25 (1 chip) · seat 2 player 10 (2 chips) · "\
           "seat 2 fortune6 5 (1 chip)" in first
    assert "  refused  seat 3 tie 25: a foreign chip on the space (local ruling L10)" in first
    assert ("  irregularity  foreign_chip (local ruling L10, refuse): a chip the registry does not know · "
            "seat 3 tie space 14: chip 04a1b2c3d4 value 25 (unknown)") in first
    assert ("  irregularity  mispay (local ruling L10, refuse): seat 1 banker holds 45, not 50 · "
            "seat 1 banker: expected 50, found 45 (under by 5)") in first
    assert ("  payouts  seat 1 banker: stake 25, net 25, back 50 · seat 2 player: stake 10, net -10, back 0 · "
            "seat 2 fortune6: stake 5, net 60, back 65") in first
    assert "  money    drop 40 · house net -75" in first
    assert ("  accepted payouts as they stand, by alice (uid 1000, pid 4242): "
            "seat 1 banker expected 50 found 45") in first
    second = out[len(first):]
    assert "  wagers   given by command: seat 4 tie 5" in second
    assert "  payouts (void: every stake returned)  seat 4 tie: stake 5, net 0, back 5" in second
    assert "  money    drop 0 · house net 0" in second


def test_recall_json_carries_the_records_and_the_sums(journal_path, capsys):
    assert main(["recall", "--journal", str(journal_path), "--json"]) == 0
    first, second = json.loads(capsys.readouterr().out)
    money = first["money"]
    assert money["wagers"]["source"] == "sensor" and money["wagers"]["refused"][0]["reason"] == "a foreign chip on the space"
    assert [w["back"] for w in money["settlement"]["wagers"]] == ["50", "0", "65"]
    assert money["payouts_accepted"] == [{"by": ALICE, "differences": [
        {"seat": 1, "bet": "banker", "expected": "50", "found": "45"}]}]
    assert (money["drop"], money["house_net"]) == ("40", "-75")
    assert [i["kind"] for i in first["irregularities"]] == ["foreign_chip", "mispay"]
    assert "wagers" not in first["other"] and "settlement" not in first["other"]
    assert (second["money"]["drop"], second["money"]["house_net"], second["status"]) == ("0", "0", "void")


def test_a_round_without_money_says_nothing_of_it(tmp_path, capsys):
    with Journal(tmp_path / "j.sqlite") as journal:
        journal.append("round_opened", {"round": 1, "game": "fortune6", "decks": 8}, round=1)
    (view,) = last_rounds(tmp_path / "j.sqlite")
    assert view.to_json()["money"] == {"wagers": None, "settlement": None, "payouts_accepted": [], "drop": None,
                                       "house_net": None, "player_dealer": None}
    assert main(["recall", "--journal", str(tmp_path / "j.sqlite")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("round 1") and "money" not in out and "wagers" not in out and "payouts" not in out


def test_the_shoe_report_sums_the_shoes_drop_and_house_net(journal_path, capsys):
    report = shoe_report(journal_path)
    assert report.money == {"rounds": 2, "drop": "40", "house_net": "-75", "unreadable": 0}
    assert report.to_json()["rounds"][0]["money"]["house_net"] == "-75"
    assert main(["shoe", "report", "--journal", str(journal_path)]) == 0
    assert "  money: 2 rounds wagered, drop 40, house net -75" in capsys.readouterr().out.splitlines()

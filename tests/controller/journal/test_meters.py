"""The meters fold (controller/journal/meters.py) over journals written with the journal's
own writer: baccarat rounds with the table's `wagers` and `settlement` records, shifts, voids
after a result, and a shift whose Banker wins were overpaid."""
from __future__ import annotations

import json
import random
import sqlite3
from fractions import Fraction

import pytest

from controller.journal import Journal
from controller.journal.meters import BadMoneyRecord, fold_journal
from games.cards import parse_card
from games.live_edge import cards_left
from games.money.theory import full_shoe_theory, round_theory
from simulation.money_journal import MoneyDealer


@pytest.fixture(scope="module")
def two_shifts(tmp_path_factory):
    """Shift 1 dealt honestly (every 10th round voided after its result); shift 2 with every
    winning Banker paid one unit a unit more than the rules say."""
    path = tmp_path_factory.mktemp("meters") / "journal.sqlite"
    with Journal(path) as journal:
        dealer = MoneyDealer(journal, "fortune7", rng=random.Random(11))
        dealer.open_shift("day")
        dealer.deal(90, void_every=10)
        dealer.close_shift()
        dealer.open_shift("night")
        dealer.deal(120, overpay=Fraction(1))
        dealer.close_shift()
    return path


def _records(path):
    with sqlite3.connect(path) as conn:
        return [(kind, number, json.loads(payload)) for kind, number, payload in
                conn.execute("SELECT kind, round, payload FROM records ORDER BY seq")]


def test_the_table_totals_are_the_records_sums(two_shifts):
    records = _records(two_shifts)
    void = {n for kind, n, _ in records if kind == "void"}
    drop = sum(Fraction(w["stake"]) for kind, n, p in records if kind == "wagers" and n not in void
               for w in p["wagers"])
    nets = [Fraction(w["net"]) for kind, n, p in records if kind == "settlement" and not p["void"] and n not in void
            for w in p["wagers"]]
    banker = sum(Fraction(w["stake"]) for kind, n, p in records if kind == "wagers" and n not in void
                 for w in p["wagers"] if w["bet"] == "banker")
    table = fold_journal(two_shifts, "full_shoe").report().to_json()["table"]
    assert (table["rounds"], table["void_rounds"]) == (210 - len(void), len(void)) and len(void) == 9
    assert Fraction(table["drop"]) == drop and Fraction(table["bets"]["banker"]["drop"]) == banker
    assert Fraction(table["paid"]) == sum(n for n in nets if n > 0)
    assert Fraction(table["collected"]) == -sum(n for n in nets if n < 0)
    assert Fraction(table["house_net"]) == -sum(nets)
    assert Fraction(table["hold_pct"]) == round(-sum(nets) / drop * 100, 2)
    assert table["hands_per_hour"] is not None and table["unanalysed_drop"] == "0"


def test_each_rounds_theory_is_that_of_the_cards_left(two_shifts):
    records = _records(two_shifts)
    report = fold_journal(two_shifts, shoe=1).report().to_json()
    out, stakes, checked = [], {}, 0
    for kind, n, p in records:
        if kind == "wagers":
            stakes[n] = [(w["seat"], w["bet"], Fraction(w["stake"])) for w in p["wagers"]]
    rounds = {r["round"]: r for r in report["rounds"]}
    for kind, n, p in records:
        if kind == "card":
            out.append(p["card"])
        elif kind == "round_opened" and n in rounds and not rounds[n]["void"]:
            theory = round_theory("fortune7", 8, cards_left("fortune7", 8, [parse_card(c) for c in out]))
            expected, variance, _ = theory.of_stakes(stakes[n])
            assert abs(Fraction(rounds[n]["theoretical_win_exact"]) - expected) < Fraction(1, 10 ** 9)
            # per-unit figures are kept to 12 places, times stakes of hundreds squared
            assert abs(Fraction(rounds[n]["variance"]) - variance) < Fraction(1, 10 ** 5)
            checked += 1
    assert checked > 5
    first = stakes[1]
    assert Fraction(rounds[1]["theoretical_win_exact"]) - full_shoe_theory("fortune7", 8).of_stakes(first)[0] \
        < Fraction(1, 10 ** 9)


def test_shifts_and_the_alarm(two_shifts):
    report = fold_journal(two_shifts).report()
    shifts = {s["shift"]: s for s in report.to_json()["shifts"]}
    assert shifts[1]["name"] == "day" and shifts[1]["closed_at"] and shifts[1]["opened_by"]["user"] == "test"
    assert shifts[1]["rounds"] == 81 and shifts[2]["rounds"] == 120
    assert abs(shifts[1]["z"]) < 3 and shifts[2]["z"] < -3
    [alarm] = report.alarms()
    assert alarm["shift"] == 2 and alarm["direction"] == "house below theory"
    assert alarm["actual"] == shifts[2]["house_net"] and alarm["sd"] == shifts[2]["sd"]
    assert alarm["theoretical"] == shifts[2]["theoretical_win"] and alarm["z"] == shifts[2]["z"]
    assert fold_journal(two_shifts).report(alarm_sd=Fraction(1000)).alarms() == []
    only = fold_journal(two_shifts, "full_shoe", shift=1).report().to_json()
    assert [s["shift"] for s in only["shifts"]] == [1] and only["alarms"] == []
    assert {r["shift"] for r in only["rounds"]} == {1} and len(only["rounds"]) == 90


def test_a_bad_amount_names_its_record(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal.append("round_opened", {"game": "fortune7", "decks": 8, "shoe": 1, "spots": []}, round=1)
        journal.append("wagers", {"round": 1, "wagers": [{"seat": 1, "bet": "banker", "stake": "25"}]}, round=1)
        journal.append("settlement", {"round": 1, "void": False, "wagers": [
            {"seat": 1, "bet": "banker", "stake": "25", "net": "lots", "back": "50", "commission": "0"}]}, round=1)
    with pytest.raises(BadMoneyRecord, match=r"round 1 settlement record, wager 1: 'lots' is not an amount"):
        fold_journal(path).report()


def test_who_opened_a_shift_is_its_commands(tmp_path):
    """The table's shift record does not know who gave the command; the daemon's `command`
    record just before it does."""
    path = tmp_path / "journal.sqlite"
    alice = {"source": "socket", "uid": 1001, "user": "alice", "pid": 42}
    with Journal(path) as journal:
        journal.append("command", {"name": "shift", "args": {"action": "open"}, "by": alice})
        journal.append("shift", {"action": "open", "shift": 1, "name": "day"})
        journal.append("command", {"name": "status", "args": {}, "by": {"source": "socket", "user": "bob"}})
        journal.append("shift", {"action": "close", "shift": 1, "name": "day"})
    [shift] = fold_journal(path).report().to_json()["shifts"]
    assert shift["opened_by"] == alice and shift["closed_by"] is None and shift["rounds"] == 0


def test_a_round_banked_by_a_player_dealer_wins_the_house_its_fees_only(tmp_path):
    """Fortune 7's California game (fortune7 Type of Game, ruling 9): the bank pays and
    collects; the house's net and its theoretical win are the collection fees."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal.append("round_opened", {"game": "fortune7", "decks": 8, "shoe": 1, "spots": []}, round=1)
        journal.append("wagers", {"round": 1, "wagers": [{"seat": 1, "bet": "banker", "stake": "60"},
                                                         {"seat": 6, "bet": "player", "stake": "50"}]}, round=1)
        journal.append("settlement", {"round": 1, "void": False, "house_net": "4", "wagers": [
            {"seat": 1, "bet": "banker", "stake": "60", "net": "60", "back": "120", "commission": "0", "fee": "1"},
            {"seat": 6, "bet": "player", "stake": "50", "net": "-50", "back": "0", "commission": "0", "fee": "1"}],
            "player_dealer": {"seat": 4, "stake": "100", "net": "-10", "fee": "2"}}, round=1)
    table = fold_journal(path).report().to_json()["table"]
    assert (table["drop"], table["paid"], table["collected"], table["fees"], table["house_net"]) == (
        "110", "0", "0", "4", "4")
    assert (table["theoretical_win"], table["sd"], table["bets"]["player_dealer"]["fees"]) == ("4.00", "0.00", "2")


def test_the_shift_alarm_is_decided_exactly_at_its_threshold():
    """A house net exactly 3 sd from theory is not beyond 3 sd, and is beyond anything less
    (decided in fractions, never by a rounded z)."""
    from controller.journal.meter_sums import COLLECTED, MICRO, VARIANCE, Figures, new_tally
    from games.money.theory import SCALE

    tally = new_tally()
    tally[COLLECTED] = 30 * MICRO  # the house nets 30 against a theoretical win of 0
    tally[VARIANCE] = 100 * MICRO * MICRO * SCALE  # variance 100: sd 10, so z = 3 exactly
    figures = Figures(tuple(tally))
    assert figures.z() == 3
    assert not figures.beyond(Fraction(3))
    assert figures.beyond(Fraction(2999, 1000))

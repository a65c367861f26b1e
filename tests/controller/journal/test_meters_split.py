"""The whole journal's meters folded in parts at once (controller/journal/meters_split.py) are
those of one fold reading every record in order: shifts open across a part's start, a shift
command given in one part and journaled as a shift in the next, voids after a result, a money
record after the next round opened, an error in a later part. Real journals and real processes;
only the size a part needs is made small, so that a journal of a test's size is split."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from controller.journal import Journal, meters_split
from controller.journal.meters import BadMoneyRecord, MetersFold, fold_journal, fold_rows
from simulation.money_journal import MoneyDealer

ALICE = {"source": "socket", "user": "alice"}


@pytest.fixture(scope="module")
def journal_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("split") / "journal.sqlite"
    with Journal(path) as journal:
        dealer = MoneyDealer(journal, "fortune7", rng=random.Random(5), daemon_records=True)
        dealer.open_shift("day")
        dealer.deal(40, void_every=7)
        # a shift command whose shift record comes many rounds later, with no `by` of its own
        journal.append("command", {"name": "shift", "args": {"action": "close"}, "by": ALICE})
        dealer.deal(40, overpay=Fraction(1))
        journal.append("shift", {"action": "close", "shift": 1})
        journal.append("settlement", {"round": 3, "void": False, "wagers": []}, round=3)  # long after round 3
        dealer.shift = 1
        dealer.open_shift("night")
        dealer.deal(50, void_every=9)
    return path


def _one_fold(path) -> MetersFold:
    fold = MetersFold("full_shoe")
    fold_rows(fold, path, ["daemon_started", "round_opened", "shoe", "void", "shift", "wagers", "settlement"])
    return fold


@pytest.mark.parametrize("parts", [2, 3, 4])
def test_the_parts_fold_to_the_figures_of_one_fold(journal_path, monkeypatch, parts):
    monkeypatch.setattr(meters_split, "RECORDS_A_PART", 1)
    planned = meters_split.plan(journal_path, parts)
    assert len(planned) == parts and all(p.first < (p.end or 1 << 62) for p in planned)
    assert any(p.open_shift == 1 for p in planned[1:])  # a part begins inside the first shift
    assert any(p.shift_by == ALICE for p in planned[1:])  # and between alice's command and its shift record
    split = meters_split.fold_in_parts(journal_path, planned)
    assert split is not None
    whole = _one_fold(journal_path)
    assert split.report().to_json() == whole.report().to_json()
    report = split.report().to_json()
    assert [s["closed_by"] for s in report["shifts"]] == [ALICE, None]
    assert report["notes"] == ["a settlement record for round 3, after the next round opened: not counted"]
    assert (report["table"]["rounds"], report["table"]["void_rounds"]) == (130 - 11, 5 + 6)


def test_fold_journal_splits_the_whole_journal_only(journal_path, monkeypatch):
    monkeypatch.setattr(meters_split, "RECORDS_A_PART", 1)
    monkeypatch.setattr(meters_split, "parts_wanted", lambda: 2)
    folded_in_parts = []
    real = meters_split.fold_in_parts
    monkeypatch.setattr(meters_split, "fold_in_parts",
                        lambda path, parts: folded_in_parts.append(len(parts)) or real(path, parts))
    whole = fold_journal(journal_path, "full_shoe").report().to_json()
    assert folded_in_parts == [2] and whole == _one_fold(journal_path).report().to_json()
    fold_journal(journal_path, "full_shoe", shift=2)
    fold_journal(journal_path, "exact", shoe=1)
    assert folded_in_parts == [2]


def test_an_error_in_a_later_part_is_the_folds_error(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        dealer = MoneyDealer(journal, "fortune7", rng=random.Random(2))
        dealer.deal(30)
        journal.append("round_opened", {"game": "fortune7", "decks": 8, "shoe": 1, "spots": []}, round=31)
        journal.append("wagers", {"round": 31, "wagers": [{"seat": 1, "bet": "banker", "stake": "a lot"}]},
                       round=31)
    monkeypatch.setattr(meters_split, "RECORDS_A_PART", 1)
    planned = meters_split.plan(path, 2)
    assert len(planned) == 2
    with pytest.raises(BadMoneyRecord, match=r"round 31 wagers record, wager 1: 'a lot' is not an amount"):
        meters_split.fold_in_parts(path, planned)

"""`tablectl recall` of Fortune 7 rounds banked by a player-dealer (rulings 25-26,
docs/money.md): the bank's seat and stake, the fees taken before the deal, each wager's covered
and returned parts and fee, the bank's walk and where it was exhausted, the player-dealer's net;
a void's fees returned. The rounds are played by a real Table and journaled with the journal's
own writer (tests/services/dealer/california_script.py)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cli import main
from controller.journal import Journal

TESTS = Path(__file__).resolve().parents[1]
for helpers in (TESTS / "services" / "dealer", TESTS / "controller" / "table"):  # the table's helpers, not copies
    if str(helpers) not in sys.path:
        sys.path.append(str(helpers))

from california_script import EXHAUSTED, WALKED, BankedTable  # noqa: E402


@pytest.fixture
def journal_path(tmp_path):
    """Round 1 walked (settled), round 2 exhausting the bank, round 3 void."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        table = BankedTable(journal)
        table.bets(WALKED)
        table.deal()
        assert table.confirm()
        table.bets({**EXHAUSTED, 1: (), 2: ("bank=100",), 3: ("player=100",)})  # seat 1 declines: the position passes to seat 2
        table.deal()
        assert table.confirm()
        table.bets({1: (), 2: (), 3: ("bank=100",), 4: ("player=50",)})
        table.void()
    return path


def rounds_text(path, capsys) -> list[list[str]]:
    assert main(["recall", "--journal", str(path), "--last", "3"]) == 0
    out, rounds = capsys.readouterr().out.splitlines(), []
    for line in out:
        if line.startswith("round "):
            rounds.append([])
        if rounds:
            rounds[-1].append(line)
    return sorted(rounds, key=lambda lines: int(lines[0].split()[1]))


def test_recall_text_shows_the_bank_the_fees_and_the_covered_and_returned_parts(journal_path, capsys):
    first, second, third = rounds_text(journal_path, capsys)
    assert "  bank     seat 1 banks 100 (player-dealer)" in first
    assert ("  fees     taken before the deal (schedule option 3, table action 115, total 5): seat 2 player 1 · "
            "seat 3 banker 1 · seat 3 tie 1 · player-dealer seat 1 2") in first
    assert ("  payouts  seat 2 player: stake 50, net 50, back 100, covered 50, returned 0, fee 1 · "
            "seat 3 banker: stake 60, net -60, back 0, covered 60, returned 0, fee 1 · "
            "seat 3 tie: stake 5, net -5, back 0, covered 5, returned 0, fee 1") in first
    assert "  bank     100 → 50 → 110 → 115" in first
    assert "  player-dealer seat 1: stake 100, net 15, fee 2, back 115" in first
    assert "  money    drop 115 · house net 5" in first
    assert not any("exhausted" in line for line in first)

    assert "  bank     100 → 0 → 0 → 0" in second
    assert "           exhausted by seat 3 player: every later wager returned untouched (ruling 26)" in second
    assert "seat 4 banker: stake 50, net 0, back 50, covered 0, returned 50, fee 1" in next(
        line for line in second if line.startswith("  payouts"))

    assert "  payouts (void: every stake returned)  seat 4 player: stake 50, net 0, back 50, covered 0, returned 50, fee 0" in third
    assert "  player-dealer seat 3: stake 100, net 0, fee 0, back 100" in third
    assert "  fees     returned (schedule option 3, table action 50, total 3): seat 4 player 1 · player-dealer seat 3 2" in third
    assert "  money    drop 0 · house net 0" in third


def test_recall_json_sums_up_the_player_dealer(journal_path, capsys):
    assert main(["recall", "--journal", str(journal_path), "--last", "3", "--json"]) == 0
    by_round = {r["round"]: r["money"] for r in json.loads(capsys.readouterr().out)}
    assert by_round[1]["player_dealer"] == {"seat": 1, "stake": "100", "net": "15", "fee": "2", "back": "115", "fees": "5",
                                            "fees_returned": False, "bank_end": "115", "exhausted_at": None}
    assert (by_round[2]["player_dealer"]["bank_end"], by_round[2]["player_dealer"]["exhausted_at"]) == ("0", 0)
    assert by_round[3]["player_dealer"] == {"seat": 3, "stake": "100", "net": "0", "fee": "0", "back": "100", "fees": "3",
                                            "fees_returned": True, "bank_end": None, "exhausted_at": None}
    assert [w["covered"] for w in by_round[2]["settlement"]["wagers"]] == ["100", "0", "0"]

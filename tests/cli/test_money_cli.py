"""`tablectl send wagers seat=3 banker=25 tie=5` maps the BET=AMOUNT pairs to the command's
stakes, and `tablectl status` shows the table's money briefly."""
import sys

import pytest

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1] / "controller" / "table"))
from test_table_money import fortune6_result  # noqa: E402

from cli.common import UsageError  # noqa: E402
from cli.send import parse_fields  # noqa: E402
from cli.status_text import status_lines  # noqa: E402
from controller.table import inputs as i  # noqa: E402


def test_bet_amount_pairs_become_the_stakes():
    assert parse_fields("wagers", ["seat=3", "banker=25", "tie=5"]) == {"seat": 3, "stakes": ["banker=25", "tie=5"]}
    assert parse_fields("wagers", ["seat=3"]) == {"seat": 3, "stakes": []}  # none: the seat's wagers cleared
    with pytest.raises(UsageError, match="seat"):
        parse_fields("wagers", ["banker=25"])
    with pytest.raises(UsageError, match="unknown field 'banker'"):
        parse_fields("no_more_bets", ["banker=25"])


def test_the_pairs_are_what_the_table_takes():
    from table_helpers import Run
    run = Run("fortune6")
    run.baccarat_shoe()
    assert run.cmd("place_bets").ok
    fields = parse_fields("wagers", ["seat=3", "banker=25", "tie=5"])
    run.send(i.Command("wagers", fields))
    assert run.table.snapshot()["money"]["commanded"] == [{"seat": 3, "bet": "banker", "stake": "25"},
                                                          {"seat": 3, "bet": "tie", "stake": "5"}]


def test_status_shows_the_money_briefly():
    run, sensor = fortune6_result()
    assert not run.cmd("confirm").ok  # seat 1 unpaid, seat 2's loss not collected
    lines = status_lines({"ok": True, "message": "status", **run.table.snapshot()})
    text = "\n".join(lines)
    assert "money       bet sensor live · payouts checked at confirm" in text
    assert "wagers      1 player 25 · 2 banker 10" in text
    assert "payouts     1 player back 50 · 2 banker back 0" in text
    assert "MISPAY      seat 1 player: holds 25, should hold 50 (under)" in text
    assert not any(line.startswith("money ") and "{" in line for line in lines)  # not dumped as JSON


def test_status_shows_the_player_dealers_bank_briefly():
    from table_helpers import Run
    run = Run("fortune7", collection_schedule=3)
    run.baccarat_shoe()
    assert run.cmd("place_bets").ok
    for seat, stakes in ((1, ["bank=100"]), (2, ["banker=30"])):
        run.send(i.Command("wagers", {"seat": seat, "stakes": stakes}))
    assert run.cmd("no_more_bets").ok
    text = "\n".join(status_lines({"ok": True, "message": "status", **run.table.snapshot()}))
    assert "bank        seat 1 banks 100 · fees 3 (schedule 3)" in text
    run.cards("As", "Kh", "8h", "Ks")  # Player wins: seat 2's 30 is collected into the bank
    text = "\n".join(status_lines({"ok": True, "message": "status", **run.table.snapshot()}))
    assert "bank        seat 1 banks 100 · fees 3 (schedule 3) · net 30, its space back 130" in text

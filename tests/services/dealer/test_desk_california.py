"""The dealer page's fold (services/dealer/desk.py) of a Fortune 7 round banked by a
player-dealer (rulings 25-26, docs/money.md): the bank's seat and stake and the fees taken
before the deal, then per wager in the rules' order paid / collected / returned with its
covered and returned parts and the bank's balance after it, where the bank was exhausted, the
player-dealer's net and what must stand on the bank's space; on a void, fees and stakes
returned. The records are a real Table's (california_script.py) in a real journal."""
from __future__ import annotations

from fractions import Fraction

import pytest
from california_script import EXHAUSTED, WALKED, BankedTable

from controller.journal import Journal, iter_records, open_readonly
from games.registry import get_game
from services.dealer.desk import Desk

TITLES = {key: wager.title for key, wager in get_game("fortune7").wagers.items()}


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        yield journal


def folded(journal) -> dict:
    desk = Desk("fortune7")
    with open_readonly(journal.path) as conn:
        for record in iter_records(conn, 0):
            desk.apply(record)
    assert desk.problems == []
    return desk.desk_json()


def test_the_fees_and_the_bank_before_the_deal(journal):
    table = BankedTable(journal)
    record = table.bets(WALKED)
    page = folded(journal)
    assert page["state"] == "dealing" and page["player_dealer"] == {"seat": 1, "stake": "100"}
    fees = record["fees"]
    assert page["fees"]["total"] == fees["total"] == "5" and page["fees"]["option"] == 3
    assert page["fees"]["table_action"] == fees["table_action"] == "115"
    assert [(f["seat"], f["bettor"], f["space"], f["title"], f["fee"]) for f in page["fees"]["lines"]] == \
        [(f["seat"], f["bettor"], f["space"], TITLES[f["space"]] if f["space"] else None, f["fee"]) for f in fees["lines"]]
    assert page["fees"]["lines"][-1]["space"] is None  # the player-dealer's own fee last
    assert page["bank"] is None and page["payouts"] == [] and page["fees_returned"] is False


def test_the_bank_walks_the_wagers_paid_collected_and_its_balance_after_each(journal):
    table = BankedTable(journal)
    table.bets(WALKED)
    money = table.deal()
    page = folded(journal)
    assert page["state"] == "result"
    assert [(p["seat"], p["bet"], p["bettor"], p["step"], p["covered"], p["returned"], p["fee"], p["bank_after"], p["back"])
            for p in page["payouts"]] == \
        [(w["seat"], w["bet"], w["bettor"], "paid" if w["net"][0] != "-" else "collected", w["covered"], w["returned"],
          w["fee"], after, w["back"]) for w, after in zip(money["wagers"], money["bank"]["after"])]
    assert [p["bank_after"] for p in page["payouts"]] == ["50", "110", "115"]
    assert [p["step"] for p in page["payouts"]] == ["paid", "collected", "collected"]
    assert page["bank"] == {"start": "100", "end": "115", "exhausted_at": None}
    assert not any(p["exhausted"] or p["untouched"] for p in page["payouts"])
    assert page["player_dealer"] == money["player_dealer"] == {"seat": 1, "stake": "100", "net": "15", "fee": "2", "back": "115"}
    assert page["house_net"] == money["house_net"] == "5"


def test_an_exhausted_bank_returns_every_later_wager_untouched(journal):
    table = BankedTable(journal)
    table.bets(EXHAUSTED)
    money = table.deal()
    page = folded(journal)
    assert page["bank"] == {"start": "100", "end": "0", "exhausted_at": 0} == \
        {k: money["bank"][k] for k in ("start", "end", "exhausted_at")}
    assert [(p["seat"], p["bet"], p["step"], p["covered"], p["returned"], p["exhausted"], p["untouched"])
            for p in page["payouts"]] == [(2, "player", "paid", "100", "0", True, False),
                                          (3, "player", "returned", "0", "25", False, True),
                                          (4, "banker", "returned", "0", "50", False, True),
                                          (4, "one_up", "returned", "0", "5", False, True)]
    assert (page["player_dealer"]["net"], page["player_dealer"]["back"]) == ("-100", "0")


def test_a_void_returns_the_fees_the_stakes_and_the_bank(journal):
    table = BankedTable(journal)
    taken = table.bets(WALKED)["fees"]
    money = table.void()
    page = folded(journal)
    assert page["state"] == "void" and page["returned"] is True and page["fees_returned"] is True
    assert page["fees"]["total"] == money["fees_returned"]["total"] == taken["total"] == "5"
    assert [(p["step"], p["returned"], p["fee"], p["net"]) for p in page["payouts"]] == \
        [("returned", w["stake"], "0", "0") for w in money["wagers"]]
    assert page["player_dealer"] == {"seat": 1, "stake": "100", "net": "0", "fee": "0", "back": "100"}
    assert page["house_net"] == "0" and page["bank"] is None


def test_the_next_round_starts_without_the_last_ones_bank(journal):
    table = BankedTable(journal)
    table.bets(WALKED)
    table.deal()
    assert table.confirm()
    assert table.run.cmd("place_bets").ok
    table.flush()
    page = folded(journal)
    assert (page["round"], page["player_dealer"], page["fees"], page["bank"]) == (2, None, None, None)


def test_the_payout_check_covers_the_bank_space_until_it_holds_what_must_stand(journal):
    """Read by the bet sensor: the bank's space left short at confirm is a mispay (local ruling
    L10), shown as any space's until the sensor reads it right and the round is confirmed."""
    table = BankedTable(journal, sensor=True)
    table.bets(WALKED)
    table.deal()
    table.pay_out(bank=Fraction(100))  # the bank's 15 not added to its space
    assert not table.confirm()
    page = folded(journal)
    assert page["payout_check"] is True and page["open_alerts"] == 1
    (alert,) = page["alerts"]
    assert (alert["kind"], alert["seat"], alert["bet"], alert["title"], alert["expected"], alert["found"], alert["direction"]) == \
        ("mispay", 1, "bank", "Bank", "115", "100", "under")
    table.pay_out()
    assert table.confirm()
    page = folded(journal)
    assert page["state"] == "settled" and page["open_alerts"] == 0 and page["cleared"]["by"] == "settled"


def test_a_bank_record_that_does_not_fit_is_named_and_the_rest_shown(journal):
    table = BankedTable(journal)
    table.bets(WALKED)
    money = table.deal()
    for bad, named in ((dict(money, bank={**money["bank"], "after": ["50"]}), "a balance for each of the 3 wagers"),
                       (dict(money, bank={**money["bank"], "exhausted_at": 7}), "exhausted_at '7' is not one of the wagers"),
                       (dict(money, player_dealer={**money["player_dealer"], "back": 115}), "player_dealer back")):
        record = journal.append("settlement", bad)
        desk = Desk("fortune7")
        with open_readonly(journal.path) as conn:
            for each in iter_records(conn, 0):
                desk.apply(each)
        assert desk.problems and f"record {record.seq} (settlement)" in desk.problems[-1] and named in desk.problems[-1]
        assert desk.desk_json()["payouts"]  # the settlement before it still shown

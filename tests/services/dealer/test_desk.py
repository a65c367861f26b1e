"""The dealer page's fold (services/dealer/desk.py) from a real journal written as the table
writes money: every game's wagers and payouts in the rules' order, with the amounts exactly as
games.money settles them; a void returns every stake; mispays and the other money
irregularities stay open until a `settled` or `payouts_accepted`; a record that does not fit
is named, never fatal."""
from __future__ import annotations

import pytest
from money_script import ROUNDS, MoneyTable, decided, stakes_of

from controller.journal import Journal, iter_records, open_readonly
from games.registry import get_game
from services.dealer.desk import DESK, Desk


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        yield journal


def folded(journal, desk: Desk | None = None, game: str = "fortune6") -> Desk:
    desk = desk or Desk(game)
    with open_readonly(journal.path) as conn:
        for record in iter_records(conn, desk.seq):
            desk.apply(record)
    return desk


@pytest.mark.parametrize("game", sorted(ROUNDS))
def test_every_games_payouts_in_the_rules_order_exactly_as_settled(journal, game):
    table = MoneyTable(journal, game)
    money = table.play()
    page = folded(journal, game="fortune6").desk_json()  # the journal's game wins over the configured one
    spec = get_game(game)
    assert (page["game"], page["game_title"], page["round"], page["state"]) == (game, spec.title, 1, "result")
    assert page["seat_word"] == ("spot" if spec.uses_spots else "seat")
    _, _, stakes, _ = decided(game)
    assert [(w["seat"], w["bet"], w["stake"], w["chips"]) for w in page["wagers"]] == \
        [(s.seat, s.bet, str(s.amount), int(s.amount // 5)) for s in stakes]
    settled = money.to_json()
    assert [{k: p[k] for k in ("seat", "bet", "stake", "net", "back", "commission")} for p in page["payouts"]] == \
        settled["wagers"]
    assert page["house_net"] == settled["house_net"]
    assert {p["bet"] for p in page["payouts"]} >= set(spec.wagers) - {"envy"}  # every bet key the game has
    for payout in page["payouts"]:
        assert payout["title"] == spec.wagers[payout["bet"]].title
        assert payout["outcome"] == ("lose" if payout["net"].startswith("-") else "push" if payout["net"] == "0" else "win")
    assert page["payout_check"] is True and page["wager_source"] == "sensor" and page["alerts"] == []


def test_paigow_commission_and_fubacc_play_come_as_settled(journal):
    MoneyTable(journal, "paigow").play()
    standard = folded(journal, game="paigow").desk_json()["payouts"][0]
    assert (standard["bet"], standard["stake"], standard["net"], standard["back"], standard["commission"]) == \
        ("standard", "25", "23", "48", "2")
    fubacc = Journal(journal.path.parent / "fubacc.sqlite")
    try:
        MoneyTable(fubacc, "fubacc").play()
        payouts = folded(fubacc, game="fubacc").desk_json()["payouts"]
    finally:
        fubacc.close()
    # the Play wager of twice the Ante, placed when the spot plays (fu-bacc procedure 8), settled after the Ante
    assert [(p["bet"], p["stake"], p["back"]) for p in payouts][:2] == [("ante", "5", "10"), ("play", "10", "20")]


def test_a_void_round_returns_every_stake(journal):
    table = MoneyTable(journal, "fortune6")
    stakes = stakes_of(["1:banker=25", "2:tie=5"])
    table.open()
    table.wagers(stakes)
    table.void(stakes, (), "fortune6 §5.4", "the shoe door was opened mid-round")
    page = folded(journal).desk_json()
    assert page["state"] == "void" and page["returned"] is True
    assert page["void"] == {"clause": "fortune6 §5.4", "reason": "the shoe door was opened mid-round"}
    assert [(p["seat"], p["bet"], p["stake"], p["net"], p["back"], p["outcome"]) for p in page["payouts"]] == \
        [(1, "banker", "25", "0", "25", "push"), (2, "tie", "5", "0", "5", "push")]
    assert page["house_net"] == "0"


def test_a_mispay_is_open_until_the_round_is_confirmed(journal):
    table = MoneyTable(journal, "fortune6")
    table.play()
    table.mispay(1, "banker", expected="50", found="45")
    desk = folded(journal)
    (alert,) = desk.desk_json()["alerts"]
    assert alert == {"seq": alert["seq"], "kind": "mispay", "clause": "local ruling L10",
                     "detail": "seat 1 banker holds 45, not 50", "open": True, "seat": 1, "bet": "banker",
                     "title": "Banker", "expected": "50", "found": "45", "difference": "-5", "direction": "under"}
    table.mispay(1, "banker", expected="50", found="55")  # the dealer added too much: the later reading stands
    page = folded(journal, desk).desk_json()
    assert [(a["found"], a["direction"], a["open"]) for a in page["alerts"]] == [("45", "under", False), ("55", "over", True)]
    assert page["open_alerts"] == 1
    table.settled()
    page = folded(journal, desk).desk_json()
    assert page["state"] == "settled" and page["open_alerts"] == 0
    assert page["cleared"]["by"] == "settled"


def test_the_supervisor_accepting_the_spaces_clears_the_mispay_and_says_who(journal):
    table = MoneyTable(journal, "fortune6")
    table.play()
    table.mispay(2, "fortune6", expected="65", found="60")
    table.accepted({"source": "socket", "user": "alice", "uid": 1000, "pid": 4242},
                   [{"seat": 2, "bet": "fortune6", "expected": "65", "found": "60"}])
    page = folded(journal).desk_json()
    assert page["open_alerts"] == 0 and page["state"] == "result"
    assert page["cleared"]["by"] == "payouts_accepted" and page["cleared"]["who"] == "alice (uid 1000)"
    assert page["accepted"][0]["differences"] == [{"seat": 2, "bet": "fortune6", "expected": "65", "found": "60"}]


def test_foreign_chips_late_and_removed_wagers_and_refused_wagers(journal):
    table = MoneyTable(journal, "fortune6")
    table.open()
    table.irregularity("foreign_chip", "local ruling L10", "an unknown chip on seat 3 tie", seat=3, bet="tie",
                       space=14, uid="04a1b2c3d4", value="25", why="unknown")
    table.wagers(stakes_of(["1:banker=25"]), refused=[{"seat": 3, "bet": "tie", "stake": "25",
                                                      "reason": "a foreign chip on the space", "clause": "local ruling L10"}])
    table.irregularity("late_wager", "paigow §5.6", "a chip added after no more bets", seat=1, bet="banker",
                       frozen="25", now="30")
    table.irregularity("wager_removed", "local ruling L10", "a chip taken away", seat=1, bet="banker",
                       frozen="25", now="20")
    page = folded(journal).desk_json()
    assert page["state"] == "dealing"
    assert [(a["kind"], a["open"]) for a in page["alerts"]] == [("foreign_chip", True), ("late_wager", True),
                                                                 ("wager_removed", True)]
    foreign = page["alerts"][0]
    assert (foreign["uid"], foreign["space"], foreign["value"], foreign["why"]) == ("04a1b2c3d4", 14, "25", "unknown")
    assert (page["alerts"][1]["frozen"], page["alerts"][1]["now"]) == ("25", "30")
    assert page["refused"] == [{"seat": 3, "bet": "tie", "title": "Tie", "stake": "25", "chips": None,
                                "reason": "a foreign chip on the space", "clause": "local ruling L10"}]
    assert [(w["seat"], w["bet"], w["stake"]) for w in page["wagers"]] == [(1, "banker", "25")]


def test_wagers_by_command_are_not_checked_and_a_new_round_starts_afresh(journal):
    table = MoneyTable(journal, "fortune6")
    table.play()
    table.mispay(1, "banker", expected="50", found="45")
    table.settled()
    table.open()
    desk = folded(journal)
    page = desk.desk_json()
    assert (page["round"], page["state"], page["wagers"], page["payouts"], page["alerts"]) == (2, "betting", [], [], [])
    assert page["payout_check"] is True  # the sensor read the last round's wagers
    table.wagers(stakes_of(["4:player=10"]), source="command")
    page = folded(journal, desk).desk_json()
    assert page["payout_check"] is False and page["wagers"][0]["chips"] is None


def test_a_record_that_does_not_fit_is_named_and_the_rest_is_shown(journal):
    table = MoneyTable(journal, "fortune6")
    table.open()
    floats = table.append("wagers", {"round": 1, "source": "sensor", "wagers": [{"seat": 1, "bet": "banker", "stake": 25.5}]})
    bad = table.append("settlement", {"round": 1, "void": False, "wagers": "all", "house_net": "0"})
    odd = table.irregularity("mispay", "local ruling L10", "found as a number", seat=1, bet="banker", expected="50",
                             found=45.5, direction="under")
    desk = folded(journal)
    page = desk.desk_json()
    assert page["wagers"] == [] and page["payouts"] == [] and page["round"] == 1
    assert page["problems"][0] == f"record {floats.seq} (wagers): wager 1: '25.5' is not an amount (a decimal string)"
    assert page["problems"][1] == f"record {bad.seq} (settlement): wagers: expected a list of at most 400 objects"
    # an irregularity is shown all the same, the field that does not fit as it was written
    assert page["problems"][2] == f"record {odd.seq} (irregularity): found: '45.5' is not an amount (a decimal string) (shown as written)"
    (alert,) = page["alerts"]
    assert (alert["kind"], alert["seat"], alert["expected"], alert["found"], alert["open"]) == ("mispay", 1, "50", "45.5", True)
    assert desk.apply(bad) == {DESK}


def test_an_acceptance_that_does_not_fit_still_clears_and_says_who(journal):
    table = MoneyTable(journal, "fortune6")
    table.play()
    table.mispay(1, "banker", expected="50", found="45")
    table.accepted({"source": "panel", "key": True}, "all of them")
    page = folded(journal).desk_json()
    assert page["open_alerts"] == 0 and page["cleared"]["who"] == "panel key" and page["accepted"][0]["differences"] == []
    assert "differences: expected a list of at most 400 objects" in page["problems"][0]


def test_a_payload_nested_too_deep_is_named_not_parsed(journal):
    """A journal edited by hand: the payload is refused unread (controller.bounded_json), the
    page goes on with the records after it."""
    table = MoneyTable(journal, "fortune6")
    table.open()
    edited = table.wagers(stakes_of(["1:banker=25"]))
    table.mispay(1, "banker", expected="50", found="45")
    journal.connection.execute("UPDATE records SET payload = ? WHERE seq = ?",
                               ('{"wagers":' + "[" * 100_000 + "]" * 100_000 + "}", edited.seq))
    journal.connection.commit()
    page = folded(journal).desk_json()
    assert page["problems"] == [f"record {edited.seq} (wagers): record {edited.seq}: its payload is refused unread "
                                "(nested deeper than the 32 levels allowed)"]
    assert page["wagers"] == [] and page["alerts"][0]["kind"] == "mispay"


def test_records_of_another_round_or_not_of_money_leave_the_page_alone(journal):
    table = MoneyTable(journal, "fortune6")
    table.play()
    desk = folded(journal)
    stray = table.append("settlement", {"round": 99, "void": False, "wagers": [], "house_net": "0"})
    assert desk.apply(stray) == set()
    extra = table.irregularity("extra_card", "fortune6 §5.2", "a card beyond the rules'")  # not money: not this page's
    assert desk.apply(extra) == set() and desk.desk_json()["alerts"] == []

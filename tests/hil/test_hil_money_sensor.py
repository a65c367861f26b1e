"""Money at the table through the real daemon, every game: the chips laid on the simulated bet
sensor (`tablectl sim bets` on a pty, its chips from the cage's rack) through its control
socket, the registry imported with `tablectl chips import`, the simulated shoe, panel and
lamp board on ptys (docs/money.md, local rulings L10, L11); every game the house banks (Fortune 7's
player-dealer bank: test_hil_california_bank.py). One daemon per game serves the module; each
test leaves the table settled and its spaces empty."""
from __future__ import annotations

import shutil
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hil_matrix import GAMES, SEEDS
from money_rig import (
    ODD_CHIP,
    ODD_REGISTERED,
    ODD_VALUE,
    TAG_UNIT,
    WAGERS,
    clear_table,
    deal_to_result,
    irregularities,
    mispay_lamp,
    money_rig,
    on_sensor,
    open_betting,
    owed,
    pay_out,
    place_wagers,
    set_to,
    settlement,
    space_id,
)

from games.money import parse_amount
from games.registry import get_game
from games.round import IrregularityKind
from simulation.rig import Rig

SCOREBOARD_TESTS = str(Path(__file__).resolve().parent.parent / "services" / "scoreboard")
if SCOREBOARD_TESTS not in sys.path:
    sys.path.append(SCOREBOARD_TESTS)
from kiosk import ScoreboardProcess, chromium, close_browser  # noqa: E402  (the scoreboard's harness, as the dealer page's tests)

pytestmark = pytest.mark.hil
# Fortune 7 at a running table is banked by its player-dealer (a collection schedule is always
# configured): its money through the sensor is test_hil_california_bank.py's, case for case.
HOUSE_BANKED = tuple(game for game in GAMES if game != "fortune7")
every_game = pytest.mark.parametrize("game", HOUSE_BANKED, scope="module")
WAIT = 20.0


class DealerPage(ScoreboardProcess):
    COMMAND = ("dealer", "--port", "0")
    NAME = "dealer page"


@pytest.fixture(scope="module")
def rigs():
    started: dict[str, object] = {}
    yield started
    alive = []
    for rig in started.values():
        rig.stop()
        children = [sim.child for sim in rig.sims.values()] + ([rig.daemon.child] if rig.daemon else [])
        alive += [f"{child.name} (pid {child.pid})" for child in children if child.running]
    assert not alive, f"still running after the rig stopped: {alive}"


@pytest.fixture(scope="module")
def pages():
    """`tablectl dealer` beside each game's daemon, one at a time; stopped by its PID."""
    started: dict[str, DealerPage] = {}
    yield started
    for page in started.values():
        page.stop()
    assert all(page.child.poll() is not None for page in started.values())


@pytest.fixture
def page(rig, pages, game):
    """The dealer page (port 0: a free one) on the game's real daemon, started once a module."""
    for other in [key for key in pages if key != game or pages[key].config != rig.config_path]:
        pages.pop(other).stop()  # another game's, or a table replaced after a failed test
    if game not in pages:
        pages[game] = DealerPage(rig.config_path, directory=rig.dir)
        pages[game].config = rig.config_path
    return pages[game]


def shown(page, number: int, ready=lambda desk: True) -> dict:
    """The dealer page's /round.json once it shows round `number` and `ready` holds."""
    found: dict = {}

    def there() -> bool:
        nonlocal found
        found = page.get_json("/round.json")
        return found["round"] == number and ready(found)

    Rig.wait_until(there, WAIT, f"round {number} on the dealer page", poll=0.05)
    return found


@pytest.fixture
def rig(rigs, game):
    """The game's rig (started once for the module), settled, with every space empty."""
    for other in [key for key in rigs if key != game]:
        rigs.pop(other).stop()  # one game's processes at a time
    if game in rigs:
        try:
            settle_what_is_left(rigs[game])
        except Exception:  # a failed test left it where it cannot go on: a fresh table
            rigs.pop(game).stop()
    if game not in rigs:
        rigs[game] = money_rig(game, SEEDS[game])
    rig = rigs[game]
    clear_table(rig)
    return rig


def settle_what_is_left(rig) -> None:
    """A round a failed test left open is dealt, paid and confirmed, so the next test can open one."""
    if rig.daemon is None or not rig.daemon.child.running:
        rig.start_daemon()
    status = rig.status()
    if status["state"] in ("idle", "settled", "void"):
        return
    if status["state"] == "betting":
        assert rig.press("no_more_bets")["ok"]
    if rig.status()["state"] != "result":
        deal_to_result(rig)
    rig.wait_until(lambda: rig.status()["money"]["sensor"] == "live", WAIT, "the sensor's session")
    pay_out(rig, settlement(rig, rig.status()["round"]["number"]))
    assert rig.press("confirm")["ok"]


def close_bets(rig, number: int) -> dict:
    assert rig.press("no_more_bets")["ok"]
    (record,) = [r.payload for r in rig.records() if r.kind == "wagers" and r.round == number]
    return record


def settle_cleanly(rig, number: int) -> None:
    """Pay every space as owed and confirm: the round settles."""
    pay_out(rig, settlement(rig, number))
    reply = rig.press("confirm")
    assert reply["ok"], reply
    assert [r.round for r in rig.records() if r.kind == "settled"][-1] == number


def chips_on(rig, seat: int, bet: str) -> list[list]:
    return [[chip["uid"], chip["value"]] for chip in on_sensor(rig)[(seat, bet)]]


# ---------------------------------------------------------------- wagers of record; late and removed chips


@every_game
def test_wagers_freeze_at_no_more_bets_and_late_and_removed_chips_leave_them_standing(rig, page, game):
    wagers = WAGERS[game]
    number = open_betting(rig)
    place_wagers(rig, wagers)
    laid = {key: chips_on(rig, *key) for key in wagers}
    record = close_bets(rig, number)
    assert record["source"] == "sensor" and record["refused"] == []
    assert {(w["seat"], w["bet"]): parse_amount(w["stake"]) for w in record["wagers"]} == wagers
    assert {(w["seat"], w["bet"]): w["chips"] for w in record["wagers"]} == laid  # each chip's UID and tag, bottom first

    (late_key, removed_key) = list(wagers)[:2]
    mark = rig.events.mark()
    set_to(rig, *late_key, wagers[late_key] + 5)  # past-posting
    late = rig.events.wait_for("irregularity", after=mark, kind="late_wager")
    clause = get_game(game).rule(IrregularityKind.LATE_WAGER).clause
    assert late["clause"] == f"{clause}, local ruling L10"
    assert (late["seat"], late["bet"], late["space"], late["frozen"], late["now"]) == (
        *late_key, space_id(rig, *late_key), str(wagers[late_key]), str(wagers[late_key] + 5))
    rig.bets.command("remove", space=f"{removed_key[0]}:{removed_key[1]}", n=1)  # one chip taken away
    removed = rig.events.wait_for("irregularity", after=mark, kind="wager_removed")
    assert removed["clause"] == get_game(game).rule(IrregularityKind.WAGER_REMOVED).clause
    amount_now = sum(Fraction(v, TAG_UNIT) for _, v in chips_on(rig, *removed_key))
    assert (removed["seat"], removed["bet"], removed["frozen"], removed["now"]) == (
        *removed_key, str(wagers[removed_key]), str(amount_now))
    assert amount_now < wagers[removed_key]
    assert rig.status()["state"] == "bets_closed"  # the round goes on
    desk = shown(page, number, lambda desk: desk["open_alerts"] == 2)  # the dealer sees the wagers and both
    assert [(w["seat"], w["bet"], w["stake"], w["chips"]) for w in desk["wagers"]] == [
        (w["seat"], w["bet"], w["stake"], len(w["chips"])) for w in record["wagers"]]
    assert {(a["kind"], a["seat"], a["bet"], a["frozen"], a["now"]) for a in desk["alerts"] if a["open"]} == {
        ("late_wager", *late_key, late["frozen"], late["now"]), ("wager_removed", *removed_key, removed["frozen"], removed["now"])}

    deal_to_result(rig)
    money = settlement(rig, number)
    staked = {(w["seat"], w["bet"]): parse_amount(w["stake"]) for w in money["wagers"] if w["bet"] in
              {bet for _, bet in wagers}}
    assert {key: staked[key] for key in wagers} == wagers  # the wagers of record, not what lies there now
    assert len(irregularities(rig, "late_wager", number)) == 1 and len(irregularities(rig, "wager_removed", number)) == 1
    settle_cleanly(rig, number)
    assert rig.verify().ok


# ---------------------------------------------------------------- foreign chips


@every_game
def test_a_foreign_chip_unknown_or_of_another_value_is_reported_and_its_wager_not_accepted(rig, page, game):
    (good, unknown_space, odd_space) = list(WAGERS[game])
    number = open_betting(rig)
    place_wagers(rig, {good: 25, unknown_space: 10})
    mark = rig.events.mark()
    foreign_uid = rig.bets.command("foreign", space=f"{unknown_space[0]}:{unknown_space[1]}", value=500)["foreign"]
    unknown = rig.events.wait_for("irregularity", after=mark, kind="foreign_chip", uid=foreign_uid)
    assert (unknown["seat"], unknown["bet"], unknown["space"], unknown["why"], unknown["value"]) == (
        *unknown_space, space_id(rig, *unknown_space), "unknown", "5")
    assert unknown["clause"] == "local ruling L10"
    rig.bets.command("place", space=f"{odd_space[0]}:{odd_space[1]}", values=str(ODD_VALUE * TAG_UNIT))
    odd = rig.events.wait_for("irregularity", after=mark, kind="foreign_chip", uid=ODD_CHIP)
    assert (odd["seat"], odd["bet"], odd["why"], odd["value"]) == (*odd_space, "value differs", str(ODD_VALUE))
    assert ODD_VALUE != ODD_REGISTERED
    rig.wait_lamps({"error": "fast"})  # surveillance's lamp

    record = close_bets(rig, number)
    assert [(w["seat"], w["bet"], w["stake"]) for w in record["wagers"]] == [(*good, "25")]
    refused = {(r["seat"], r["bet"]): r for r in record["refused"]}
    assert set(refused) == {unknown_space, odd_space}
    assert foreign_uid in refused[unknown_space]["reason"] and ODD_CHIP in refused[odd_space]["reason"]
    assert all(r["clause"] == "local ruling L10" for r in refused.values())
    assert len(irregularities(rig, "foreign_chip", number)) == 2  # once per chip and space
    desk = shown(page, number, lambda desk: len(desk["refused"]) == 2)
    assert {(a["seat"], a["bet"], a["uid"], a["why"]) for a in desk["alerts"] if a["kind"] == "foreign_chip"} == {
        (*unknown_space, foreign_uid, "unknown"), (*odd_space, ODD_CHIP, "value differs")}
    assert {(r["seat"], r["bet"]) for r in desk["refused"]} == {unknown_space, odd_space}

    mark = rig.events.mark()  # a counterfeit slipped onto a wager of record: foreign, and late
    slipped = rig.bets.command("foreign", space=f"{good[0]}:{good[1]}", value=2500)["foreign"]
    rig.events.wait_for("irregularity", after=mark, kind="foreign_chip", uid=slipped)
    late = rig.events.wait_for("irregularity", after=mark, kind="late_wager")
    assert (late["seat"], late["bet"], late["frozen"], late["evidence"]["added"]) == (*good, "25", [slipped])
    rig.bets.command("remove", space=f"{good[0]}:{good[1]}", uid=slipped)  # surveillance takes it away
    deal_to_result(rig)
    money = settlement(rig, number)
    assert unknown_space not in owed(money) and odd_space not in owed(money)
    assert [(w["seat"], w["bet"], w["stake"]) for w in money["wagers"] if w["bet"] != "play"] == [(*good, "25")]
    settle_cleanly(rig, number)  # the refused spaces emptied: the chips went back to the players


# ---------------------------------------------------------------- the payout check at confirm


def result_owing_something(rig, tries: int = 4) -> tuple[int, dict, tuple[int, str]]:
    """A round dealt to its result in which some wagered space is owed chips; (number,
    settlement, that space). A round in which every wager lost is paid and confirmed, and
    another dealt."""
    for _ in range(tries):
        number = open_betting(rig)
        place_wagers(rig, WAGERS[rig.game])
        close_bets(rig, number)
        deal_to_result(rig)
        money = settlement(rig, number)
        winners = [key for key, must in owed(money).items() if must > 0 and key in WAGERS[rig.game]]
        if winners:
            return number, money, winners[0]
        settle_cleanly(rig, number)
        clear_table(rig)
    raise AssertionError(f"{tries} rounds in which every wager lost")


def mispay_under_and_over(rig, money: dict, under: tuple[int, str]) -> tuple[tuple[int, str], dict]:
    """Every space paid, then `under` short by 1 and another space 5 over (a Fu Bacc Play
    space when a spot played: placed with the decision, checked like the others)."""
    must = pay_out(rig, money)
    spaces = [key for key in must if key[1] == "play" and key != under] + list(WAGERS[rig.game])
    over = next(key for key in spaces if key != under)
    set_to(rig, *under, int(must[under]) - 1)
    set_to(rig, *over, int(must.get(over, 0)) + 5)
    return over, must


def said(seat: int, bet: str, found, expected) -> str:
    return f"seat {seat} {bet} holds {found}, should hold {expected}"


@every_game
def test_a_mispay_over_and_under_refuses_confirm_until_corrected_and_the_dealer_page_shows_it(rig, page, game):
    number, money, under = result_owing_something(rig)
    desk = shown(page, number, lambda desk: bool(desk["payouts"]))
    assert [(p["seat"], p["bet"], p["stake"], p["net"], p["back"]) for p in desk["payouts"]] == [
        (w["seat"], w["bet"], w["stake"], w["net"], w["back"]) for w in money["wagers"]]
    assert desk["house_net"] == money["house_net"] and desk["payout_check"] is True

    over, must = mispay_under_and_over(rig, money, under)
    assert game != "fubacc" or over[1] == "play"  # the spots played (plain decisions): their Play checked too
    mark = rig.events.mark()
    reply = rig.press("confirm")
    assert not reply["ok"] and f"round {number} is mispaid (local ruling L10)" in reply["message"]
    assert said(*under, must[under] - 1, must[under]) in reply["message"]
    assert said(*over, must.get(over, 0) + 5, must.get(over, 0)) in reply["message"]
    mispays = {(r["seat"], r["bet"]): r for r in irregularities(rig, "mispay", number)}
    assert (mispays[under]["direction"], mispays[under]["difference"]) == ("under", "-1")
    assert (mispays[over]["direction"], mispays[over]["difference"]) == ("over", "5")
    rig.wait_lamps({mispay_lamp(game, *under): "fast", mispay_lamp(game, *over): "fast"})
    assert rig.status()["state"] == "result" and not rig.press("place_bets")["ok"]  # no round opens before
    desk = shown(page, number, lambda desk: desk["open_alerts"] == 2)
    assert {(a["seat"], a["bet"], a["expected"], a["found"], a["direction"]) for a in desk["alerts"] if a["open"]} == {
        (*under, str(must[under]), str(must[under] - 1), "under"),
        (*over, str(must.get(over, 0)), str(must.get(over, 0) + 5), "over")}

    set_to(rig, *under, int(must[under]))
    set_to(rig, *over, int(must.get(over, 0)))
    rig.events.wait_for("mispay_cleared", after=mark, seat=under[0], bet=under[1])
    rig.events.wait_for("mispay_cleared", after=mark, seat=over[0], bet=over[1])
    assert rig.status()["money"]["mispays"] == []
    rig.wait_until(lambda: "fast" not in (rig.lamps()[mispay_lamp(game, *under)], rig.lamps()[mispay_lamp(game, *over)]),
                   WAIT, "the mispaid spaces' lamps to stop blinking")
    assert rig.press("confirm")["ok"]
    desk = shown(page, number, lambda desk: desk["open_alerts"] == 0)
    assert desk["cleared"]["by"] == "settled" and desk["state"] == "settled"
    assert {(a["seat"], a["bet"]) for a in desk["alerts"] if a["kind"] == "mispay"} == {under, over}


@every_game
def test_a_mispay_accepted_with_the_supervisor_key_lets_the_round_be_confirmed(rig, page, game):
    number, money, under = result_owing_something(rig)
    over, must = mispay_under_and_over(rig, money, under)
    set_to(rig, *under, int(must[under]))  # only the over stands
    assert not rig.press("confirm")["ok"]
    refused = rig.send("accept_payouts")
    assert not refused["ok"] and "needs the supervisor key" in refused["error"], refused
    mark = rig.events.mark()
    rig.key(True)  # the supervisor's key, turned on the panel
    assert rig.send("accept_payouts")["ok"]
    accepted = rig.events.wait_for("payouts_accepted", after=mark)
    assert accepted["round"] == number
    (record,) = [r.payload for r in rig.records() if r.kind == "payouts_accepted" and r.round == number]
    assert record["differences"] == [{"seat": over[0], "bet": over[1], "expected": str(must.get(over, 0)),
                                      "found": str(must.get(over, 0) + 5)}]
    assert record["by"]
    desk = shown(page, number, lambda desk: desk["cleared"] is not None and desk["cleared"]["by"] == "payouts_accepted")
    assert desk["open_alerts"] == 0
    assert desk["accepted"][-1]["differences"] == [{"seat": over[0], "bet": over[1], "expected": str(must.get(over, 0)),
                                                    "found": str(must.get(over, 0) + 5)}]
    rig.key(False)
    assert rig.press("confirm")["ok"]
    assert [r.round for r in rig.records() if r.kind == "settled"][-1] == number


# ---------------------------------------------------------------- a restart between the result and the confirm


@every_game
def test_sigkill_between_result_and_confirm_keeps_the_payouts_owed_and_the_check(rig, page, game):
    number, money, under = result_owing_something(rig)
    must = pay_out(rig, money)
    set_to(rig, *under, int(must[under]) - 1)
    assert not rig.press("confirm")["ok"]  # the mispay found and journaled before the kill
    before = rig.records()
    assert rig.kill_daemon() == -9
    rig.start_daemon()
    assert rig.records()[:len(before)] == before
    mispaid = {"seat": under[0], "bet": under[1], "expected": str(must[under]), "found": str(must[under] - 1),
               "direction": "under"}
    assert rig.status()["money"]["mispays"] == [mispaid]  # it still stands
    rig.wait_lamps({mispay_lamp(game, *under): "fast"})
    rig.wait_until(lambda: rig.status()["money"]["sensor"] == "live", WAIT, "the sensor's session")
    status = rig.status()["money"]
    assert status["payouts"] == money["wagers"] and status["payout_check"] is True
    reply = rig.press("confirm")
    assert not reply["ok"] and said(*under, must[under] - 1, must[under]) in reply["message"]  # still found
    assert len(irregularities(rig, "mispay", number)) == 1  # the same reading: not journaled again
    assert rig.status()["state"] == "result"
    desk = shown(page, number, lambda desk: desk["link"]["online"] and desk["open_alerts"] == 1)
    assert [(a["seat"], a["bet"], a["found"]) for a in desk["alerts"] if a["open"]] == [(*under, str(must[under] - 1))]
    assert [(p["seat"], p["bet"], p["back"]) for p in desk["payouts"]] == [
        (w["seat"], w["bet"], w["back"]) for w in money["wagers"]]
    mark = rig.events.mark()
    set_to(rig, *under, int(must[under]))
    rig.events.wait_for("mispay_cleared", after=mark, seat=under[0], bet=under[1])
    assert rig.press("confirm")["ok"]
    assert shown(page, number, lambda desk: desk["open_alerts"] == 0)["cleared"]["by"] == "settled"
    assert [r.round for r in rig.records() if r.kind == "settlement"].count(number) == 1
    assert rig.verify().ok


@every_game
def test_a_mispay_corrected_while_the_sensor_is_unplugged_clears_when_it_is_heard_again(rig, game):
    number, money, under = result_owing_something(rig)
    must = pay_out(rig, money)
    set_to(rig, *under, int(must[under]) - 1)
    assert not rig.press("confirm")["ok"]
    mark = rig.events.mark()
    rig.bets.command("fault", kind="unplug")
    rig.wait_until(lambda: rig.status()["money"]["sensor"] == "lost", WAIT, "the sensor lost")
    reply = rig.press("confirm")
    assert not reply["ok"] and "which is not heard" in reply["message"]
    set_to(rig, *under, int(must[under]), wait=False)  # the dealer corrects it meanwhile
    rig.bets.command("fault", kind="replug")
    rig.events.wait_for("mispay_cleared", after=mark, seat=under[0], bet=under[1])
    rig.wait_until(lambda: rig.status()["money"]["sensor"] == "live", WAIT, "the sensor heard again")
    assert rig.press("confirm")["ok"]
    assert len(irregularities(rig, "mispay", number)) == 1


PAYOUT_ROWS = """return [...document.querySelectorAll('#payouts tbody tr')].map(r => [
    Number(r.dataset.seat), r.dataset.bet, r.querySelector('.back').textContent, r.classList.contains('mispay')])"""


@pytest.mark.skipif(not (shutil.which("chromium") and shutil.which("chromedriver")),
                    reason="Debian's chromium and chromium-driver are not installed (.ci/setup installs them)")
@pytest.mark.parametrize("game", ["paigow"], scope="module")  # one game: a browser is dear on a loaded machine
def test_in_chromium_the_mispaid_row_is_highlighted_until_the_space_is_corrected_and_confirmed(rig, page, game):
    number, money, under = result_owing_something(rig)
    must = pay_out(rig, money)
    browser = chromium(1280, 800)
    try:
        browser.get(page.url)
        rows = lambda: browser.execute_script(PAYOUT_ROWS)  # noqa: E731
        rig.wait_until(lambda: [row[:3] for row in rows()] == [[w["seat"], w["bet"], w["back"]] for w in money["wagers"]],
                       WAIT, "the settlement's payouts drawn")
        set_to(rig, *under, int(must[under]) - 1)
        assert not rig.press("confirm")["ok"]
        rig.wait_until(lambda: [tuple(row[:2]) for row in rows() if row[3]] == [under], WAIT, "the mispaid row highlighted")
        alert = browser.execute_script("return document.querySelector('#alerts .alert.open[data-kind=mispay]').innerText")
        assert f"must stand {must[under]}, found {must[under] - 1}, under by 1" in alert
        set_to(rig, *under, int(must[under]))
        assert rig.press("confirm")["ok"]
        rig.wait_until(lambda: browser.execute_script("return document.getElementById('alerts').hidden")
                       and not any(row[3] for row in rows()), WAIT, "the mispay cleared on the page")
    finally:
        browser.get("about:blank")
        close_browser(browser)


@pytest.mark.parametrize("game", ["fortune6"], scope="module")
def test_the_supervisor_accepts_a_mispay_with_the_panel_button_and_the_key(rig, game):
    """At the table, not only over the socket: the panel's accept_payouts button is refused
    without the key and accepts the spaces as they stand with it."""
    number, money, under = result_owing_something(rig)
    over, must = mispay_under_and_over(rig, money, under)
    set_to(rig, *under, int(must[under]))  # only the over stands
    refused = rig.press("accept_payouts")
    assert not refused["ok"] and "needs the supervisor key" in refused["message"], refused
    mark = rig.events.mark()
    rig.key(True)
    assert rig.press("accept_payouts")["ok"]
    accepted = rig.events.wait_for("payouts_accepted", after=mark)
    assert accepted["round"] == number
    (record,) = [r.payload for r in rig.records() if r.kind == "payouts_accepted" and r.round == number]
    assert record["differences"] == [{"seat": over[0], "bet": over[1], "expected": str(must.get(over, 0)),
                                      "found": str(must.get(over, 0) + 5)}]
    assert record["by"] == "panel"  # at the table, with the key: not a socket client
    rig.key(False)
    assert rig.press("confirm")["ok"]
    assert [r.round for r in rig.records() if r.kind == "settled"][-1] == number

"""`tablectl dealer` as a real process (uvicorn on 127.0.0.1:0) following a real journal and a
real control socket (ControlServer in this process, publishing as the daemon does), and the
page in a real browser (Debian's Chromium through Selenium and the system chromedriver).

No test here runs the real daemon: the commands and the table's side that write the money
records (`wagers`, `settlement`, `payouts_accepted`, the money irregularities) are not in this
tablectl yet, so the journal is written with the journal's own writer as the table will write
it (money_script.py), from the rules' real settlement."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from california_script import EXHAUSTED, WALKED, BankedTable
from kiosk import WAIT, EventReader, ScoreboardProcess, chromium, close_browser, low_contrast, wait_until
from money_script import MoneyTable, decided

from controller.config.schema import DEFAULT_CONFIG_PATH
from controller.control import ControlServer
from controller.journal import Journal, iter_records, open_readonly
from games.registry import get_game
from services.dealer.desk import Desk

needs_chromium = pytest.mark.skipif(not (shutil.which("chromium") and shutil.which("chromedriver")),
                                    reason="Debian's chromium and chromium-driver are not installed (.ci/setup installs them)")


class DealerProcess(ScoreboardProcess):
    COMMAND = ("dealer", "--port", "0")
    NAME = "dealer page"


def answer_nothing(request):
    request.fail("not a daemon")


class Table:
    """A journal and a control socket, written and published as the daemon would."""

    def __init__(self, directory, game: str = "fortune6") -> None:
        self.journal = Journal(directory / "journal.sqlite")
        self.socket = str(directory / "control.sock")
        self.server = ControlServer(self.socket, answer_nothing).start()
        self.money = MoneyTable(self.journal, game, publish=self.server.publish)
        self.config = directory / "tablectl.toml"
        self.config.write_text(f'game = "{game}"\n[journal]\npath = "{self.journal.path}"\n'
                               f'[control]\nsocket = "{self.socket}"\n')

    def desk(self) -> dict:
        """The page's data folded here from the same journal."""
        desk = Desk("fortune6")
        with open_readonly(self.journal.path) as conn:
            for record in iter_records(conn, 0):
                desk.apply(record)
        return desk.desk_json()

    def close(self) -> None:
        self.server.stop()
        self.journal.close()


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path)
    yield table
    table.close()


@pytest.fixture
def pages(tmp_path):
    started: list[DealerProcess] = []

    def start(config) -> DealerProcess:
        process = DealerProcess(config, directory=tmp_path)
        started.append(process)
        return process

    yield start
    for process in started:
        assert process.stop() == 0, process.output()


def test_round_json_and_the_events_are_the_desk_of_the_journal(table, pages):
    money = table.money.play()
    page = pages(table.config)
    got = page.get_json("/round.json")
    assert got.pop("link") in ({"online": True, "journal_error": None}, None)  # None until the follower tried the daemon
    assert got == table.desk()
    assert [(p["seat"], p["bet"], p["back"]) for p in got["payouts"]] == \
        [(w.seat, w.bet, str(w.back)) for w in money.wagers]

    reader = EventReader(page.host, page.port)
    assert reader.next()[0] == "link"
    _, snapshot = reader.next_update()
    assert snapshot["kind"] == "snapshot" and snapshot["desk"]["round"] == 1
    mispay = table.money.mispay(1, "banker", expected="50", found="45")
    event_id, update = reader.next_update()
    assert int(event_id) == mispay.seq and update["kind"] == "irregularity"
    assert update["desk"]["alerts"][0]["direction"] == "under" and update["desk"] == table.desk()
    reader.close()


def test_the_link_follows_the_daemons_event_stream(table, pages):
    table.money.play()
    page = pages(table.config)
    wait_until(lambda: (page.get_json("/round.json")["link"] or {}).get("online") is True, "online")
    table.server.stop()
    wait_until(lambda: page.get_json("/round.json")["link"]["online"] is False, "offline once the daemon is gone")
    table.server = ControlServer(table.socket, answer_nothing).start()
    table.money.publish = table.server.publish
    settled = table.money.settled()
    wait_until(lambda: page.get_json("/round.json")["seq"] == settled.seq, "the settled record after the daemon is back")
    assert page.get_json("/round.json")["link"]["online"] is True


def test_a_restart_rebuilds_the_same_page_from_the_last_rounds(table, pages):
    for _ in range(3):
        table.money.play()
        table.money.settled()
    table.money.open()
    table.money.wagers([], source="none")
    first = pages(table.config).get_json("/round.json")
    second = pages(table.config).get_json("/round.json")
    first.pop("link"), second.pop("link")  # None until the follower has tried the daemon: a race, not the page
    assert first == second and (first["round"], first["state"], first["payout_check"]) == (4, "dealing", True)


@needs_chromium
def test_the_page_shows_the_payouts_and_a_mispay_highlighted_until_confirmed(table, pages):
    money = table.money.play()
    page = pages(table.config)
    browser = chromium(1280, 800)
    try:
        browser.get(page.url)
        wait_until(lambda: browser.execute_script("return document.body.dataset.link") == "online", "the page online")
        rows = wait_until(lambda: browser.execute_script(PAYOUT_ROWS), "the payouts drawn")
        assert rows == [[str(w.seat), w.bet, str(w.stake), str(w.net), str(w.back), str(w.commission), False]
                        for w in money.wagers]
        # large enough to read at arm's length: the amount to stand on a space is the largest text of its row
        assert browser.execute_script("return parseFloat(getComputedStyle(document.querySelector('td.back')).fontSize)") >= 40
        assert "Payouts checked by the bet sensor" in browser.find_element("id", "payout-check").text

        table.money.mispay(1, "banker", expected="50", found="45")
        alert = wait_until(lambda: browser.execute_script(
            "const a = document.querySelector('#alerts .alert.open[data-kind=mispay]'); return a && a.innerText"),
            "the mispay shown")
        assert "Seat 1 Banker: must stand 50, found 45, under by 5" in alert and "local ruling L10" in alert
        rows = browser.execute_script(PAYOUT_ROWS)
        assert [row[6] for row in rows] == [w.seat == 1 and w.bet == "banker" for w in money.wagers]
        background = browser.execute_script(
            "return getComputedStyle(document.querySelector('tr.mispay td.back')).backgroundColor")
        assert background != browser.execute_script(
            "return getComputedStyle(document.querySelector('tr:not(.mispay) td.back')).backgroundColor")

        table.money.settled()
        wait_until(lambda: browser.execute_script("return document.getElementById('alerts').hidden"), "the mispay cleared")
        assert not any(row[6] for row in browser.execute_script(PAYOUT_ROWS))
        cleared = browser.find_element("id", "cleared").text
        assert "Mispay · Seat 1 Banker: must stand 50, found 45, under by 5 · cleared: the round was confirmed" in cleared
        assert browser.find_element("id", "round-state").text.lower() == "settled"
    finally:
        browser.get("about:blank")
        close_browser(browser)


@needs_chromium
def test_every_text_is_aa_contrast_and_uncovered_at_1920x1080(table, pages):
    """Alerts of every kind, a mispaid row, refused wagers, then the cleared ones and a void:
    each text at least 4.5:1 on what is painted under it (WCAG AA), none covered or clipped
    (the scoreboard's check, kiosk.low_contrast)."""
    result, money, stakes, _ = decided("fortune6")
    m = table.money
    m.open()
    m.irregularity("foreign_chip", "local ruling L10", "a chip the registry does not know", seat=3, bet="tie",
                   space=14, uid="04a1b2c3d4", value="25", why="unknown")
    m.wagers(stakes, refused=[{"seat": 5, "bet": "tie", "stake": "1", "reason": "below the table's minimum 5 for tie",
                               "clause": "local ruling L10"}])
    m.irregularity("late_wager", "paigow §5.6", "a chip added after no more bets", seat=2, bet="player", frozen="10", now="15")
    m.irregularity("wager_removed", "local ruling L10", "a chip taken away", seat=4, bet="player", frozen="10", now="5")
    m.result(result, money)
    m.mispay(1, "banker", expected="50", found="45")
    m.mispay(2, "fortune6", expected="65", found="70")
    page = pages(table.config)
    browser = chromium(1920, 1080)
    try:
        browser.get(page.url)
        wait_until(lambda: browser.execute_script("return document.querySelectorAll('#alerts .alert').length") == 5,
                   "every alert shown")
        assert low_contrast(browser) == []
        m.accepted({"source": "socket", "user": "alice", "uid": 1000, "pid": 4242},
                   [{"seat": 1, "bet": "banker", "expected": "50", "found": "45"}])
        wait_until(lambda: browser.execute_script("return !document.getElementById('cleared-panel').hidden"), "cleared")
        assert low_contrast(browser) == []
        m.open()
        m.wagers(stakes)
        m.void(stakes, (), "fortune6 §5.4", "the shoe door was opened mid-round")
        wait_until(lambda: not browser.execute_script("return document.getElementById('void-banner').hidden"), "the void")
        assert "return every stake" in browser.find_element("id", "void-banner").text
        assert low_contrast(browser) == []
    finally:
        browser.get("about:blank")
        close_browser(browser)


@pytest.fixture
def fortune7(tmp_path):
    table = Table(tmp_path, game="fortune7")
    yield table
    table.close()


@needs_chromium
def test_the_bank_of_a_player_dealer_walks_the_wagers_on_the_page(fortune7, pages):
    """Fortune 7 banked by seat 1, wagers read by the bet sensor, the rounds played by a real
    Table: the fees before the deal, each wager paid / collected / returned with the bank's
    balance after it, where the bank was exhausted, the bank's space mispaid then paid right;
    then a void returning the fees and stakes; every text AA contrast and uncovered."""
    banked = BankedTable(fortune7.journal, sensor=True, publish=fortune7.server.publish)
    taken = banked.bets(EXHAUSTED)["fees"]
    page = pages(fortune7.config)
    browser = chromium(1920, 1080)
    titles = {key: wager.title for key, wager in get_game("fortune7").wagers.items()}
    try:
        browser.get(page.url)
        wait_until(lambda: not browser.execute_script("return document.getElementById('bank-panel').hidden"), "the bank shown")
        assert browser.find_element("id", "bank-holder").text == "Seat 1 banks 100"
        assert browser.execute_script("return [...document.querySelectorAll('#fees li')].map(l => l.textContent)") == \
            [f"Seat {f['seat']} {titles[f['space']]}: {f['fee']}" if f["space"] else f"Player-dealer (Seat {f['seat']}): {f['fee']}"
             for f in taken["lines"]]
        assert browser.find_element("id", "fees-total").text == "Total 6 · table action 180 · collection schedule option 3"

        money = banked.deal()
        rows = wait_until(lambda: browser.execute_script(BANKED_ROWS), "the bank's walk drawn")
        assert rows == [[str(w["seat"]), w["bet"], {"100": "Paid"}.get(w["net"], "Returned"), w["covered"], w["returned"],
                         w["fee"], after, w["back"]] for w, after in zip(money["wagers"], money["bank"]["after"])]
        assert browser.execute_script(
            "return [...document.querySelectorAll('#payouts tbody tr')].map(r => r.className)") == \
            ["win exhausted", "push untouched", "push untouched", "push untouched"]  # returned: net 0
        shown = browser.execute_script("""return [...document.querySelectorAll('#payouts thead th')]
            .filter(th => getComputedStyle(th).display !== 'none').map(th => th.textContent)""")
        assert not {"Result", "Commission"} & set(shown) and {"Bank", "Covered", "Returned", "Fee", "Bank after"} <= set(shown)
        assert browser.find_element("id", "bank-walk").text == "Bank 100 → 0 → 0 → 0 → 0"
        assert browser.find_element("id", "bank-exhausted").text == \
            "Bank exhausted by Seat 2 Player line: every later wager returned untouched (ruling 26)"
        assert browser.find_element("id", "bank-net").text == \
            "Player-dealer net -100 · fee 2 · must stand on the bank's space 0"
        assert low_contrast(browser) == []

        banked.pay_out(bank=Fraction(100))  # the bank's chips left on its space: it must be emptied
        assert not banked.confirm()
        alert = wait_until(lambda: browser.execute_script(
            "const a = document.querySelector('#alerts .alert.open[data-kind=mispay]'); return a && a.innerText"),
            "the bank's mispay shown")
        assert "Seat 1 Bank: must stand 0, found 100, over by 100" in alert
        assert "mispay" in browser.find_element("id", "bank-back").get_attribute("class")
        assert "found 100 (over)" in browser.find_element("id", "bank-net").text
        assert low_contrast(browser) == []
        banked.pay_out()
        assert banked.confirm()
        wait_until(lambda: browser.execute_script("return document.getElementById('alerts').hidden"), "the mispay cleared")
        assert "mispay" not in browser.find_element("id", "bank-back").get_attribute("class")

        banked.bets(WALKED)
        banked.void()
        wait_until(lambda: not browser.execute_script("return document.getElementById('void-banner').hidden"), "the void")
        assert "return every stake, every fee and the bank's stake" in browser.find_element("id", "void-banner").text
        assert browser.find_element("id", "fees-title").text == "Fees returned (the round is void)"
        assert browser.execute_script("return document.getElementById('bank-walk').hidden") is True
        assert low_contrast(browser) == []
    finally:
        browser.get("about:blank")
        close_browser(browser)


BANKED_ROWS = """return [...document.querySelectorAll('#payouts tbody tr')].map(r => [
    r.dataset.seat, r.dataset.bet, r.querySelector('.step').textContent, r.querySelector('.covered').textContent,
    r.querySelector('.returned').textContent, r.querySelector('.fee').textContent, r.querySelector('.bank-after').textContent,
    r.querySelector('.back').textContent])"""

PAYOUT_ROWS = """return [...document.querySelectorAll('#payouts tbody tr')].map(r => [
    r.dataset.seat, r.dataset.bet, r.querySelector('.stake').textContent, r.querySelector('.net').textContent,
    r.querySelector('.back').textContent, r.querySelector('.commission').textContent, r.classList.contains('mispay')])"""


def _run(*argv: str, timeout: float = WAIT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", "dealer", *argv], capture_output=True, text=True,
                          timeout=timeout, check=False, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("argv, message", [
    (["--host", "localhost"], "tablectl dealer: --host 'localhost': expected an IP address, e.g. 127.0.0.1 or ::1"),
    (["--port", "70000"], "tablectl dealer: --port 70000: expected a port 0-65535"),
    (["--port", "http"], "argument --port: invalid int value: 'http'"),
])
def test_bad_options_exit_2_naming_them(table, argv, message):
    done = _run("--config", str(table.config), *argv)
    assert done.returncode == 2 and message in done.stderr and done.stdout == ""


def test_a_port_already_taken_exits_1(table):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = _run("--config", str(table.config), "--port", str(port))
    assert done.returncode == 1 and f"tablectl dealer: cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr


@pytest.mark.skipif(Path(DEFAULT_CONFIG_PATH).exists(), reason=f"a table is installed here ({DEFAULT_CONFIG_PATH})")
def test_without_any_config_it_says_so_and_names_the_demos_config(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "XDG_STATE_HOME"} | {"HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "cli", "dealer"], capture_output=True, text=True, timeout=WAIT,
                          stdin=subprocess.DEVNULL, env=env, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"tablectl dealer: no config at {DEFAULT_CONFIG_PATH}: give --config FILE, the table's config "
                           "(the demo's: --config ~/.local/state/tablectl/demo/tablectl.toml, with a free --port N; "
                           "docs/dealer.md)\n")


def test_a_journal_not_there_yet_is_said_and_the_page_served(tmp_path):
    config = tmp_path / "tablectl.toml"
    config.write_text(f'game = "paigow"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n[control]\nsocket = "{tmp_path / "c.sock"}"\n')
    page = DealerProcess(config, directory=tmp_path)
    try:
        got = page.get_json("/round.json")
        assert (got["game"], got["round"], got["state"], got["payout_check"]) == ("paigow", None, "waiting", None)
        assert (f"tablectl dealer: no journal at {tmp_path / 'j.sqlite'} yet (as {config} says): the page fills in "
                "once the daemon writes it") in page.output()
    finally:
        assert page.stop() == 0

"""The board in a real browser (Debian's Chromium through Selenium) against a simulated table:
the real daemon and simulators on ptys (simulation.rig) and `tablectl scoreboard` as its own
process on an ephemeral 127.0.0.1 port. The page loads; after N rounds the big-road cells in
the DOM are /roads.json's, which are the roads of the results the daemon journaled; a result
voided after the fact (an extra card, §5.2, then the supervisor's void) leaves the roads and
shows its banner and clause; stopping the daemon shows "Table offline" and starting it again
resumes; Fu Bacc shows spots and history; the labels come in Traditional Chinese."""
from __future__ import annotations

import shutil

import pytest
from kiosk import BIG_ROAD_IN_DOM, ScoreboardProcess, big_road_of, chromium, close_browser, wait_until

from games.baccarat.roads import Outcome, roads
from games.baccarat.round_marks import is_pair
from games.cards import parse_cards
from simulation.rig import Rig

pytestmark = [
    pytest.mark.hil,
    pytest.mark.skipif(not (shutil.which("chromium") and shutil.which("chromedriver")),
                       reason="Debian's chromium and chromium-driver are not installed (.ci/setup installs them)"),
]


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module (each start costs seconds of CPU); each test opens
    its own board in it, on its own port: nothing of one board's page stays for the next."""
    driver = chromium()
    yield driver
    close_browser(driver)


@pytest.fixture
def table(tmp_path, browser):
    """start(game, **rig options) -> (rig, scoreboard process, the browser on the board)."""
    started = []

    def start(game: str = "fortune6", **options):
        rig = Rig(game, config={"scoreboard": {"table_name": "Table 7"}}, **options).start()
        started.append(rig)
        board = ScoreboardProcess(rig.config_path, directory=tmp_path)
        started.append(board)
        browser.get(board.url)
        wait_until(lambda: browser.execute_script("return document.body.dataset.link") == "online", "the board online")
        return rig, board, browser

    yield start
    browser.get("about:blank")  # the page lets go of the board before the board stops
    for thing in reversed(started):
        if isinstance(thing, Rig):
            thing.stop()
        else:
            assert thing.stop() == 0, thing.output()


def shown(browser, selector: str) -> str:
    return browser.execute_script(f"const e = document.querySelector({selector!r}); return e && !e.hidden ? e.innerText : ''")


def board_caught_up(board: ScoreboardProcess, browser, rounds_on_road: int) -> dict:
    """/roads.json once it has `rounds_on_road` outcomes, and the page drawn from it."""
    state = wait_until(lambda: (s := board.get_json()) and len(s["bead_plate"]) == rounds_on_road and s,
                       f"{rounds_on_road} rounds on the roads")
    wait_until(lambda: browser.execute_script(BIG_ROAD_IN_DOM) == big_road_of(state), "the big road drawn")
    return state


def journaled_outcomes(rig: Rig) -> list[Outcome]:
    """The roads' input taken straight from the daemon's result records (voided rounds left out)."""
    voided = {r.round for r in rig.records() if r.kind == "void"}
    outcomes = []
    for record in rig.records():
        if record.kind == "result" and record.round not in voided:
            p = record.payload
            player, banker = (parse_cards(p["hands"][h]["cards"]) for h in ("player", "banker"))
            outcomes.append(Outcome({"banker": "B", "player": "P", "tie": "T"}[p["winner"]], is_pair(banker), is_pair(player)))
    return outcomes


def test_the_board_follows_the_table_voids_offline_and_back(table):
    rig, board, browser = table("fortune6", seed=11)
    assert shown(browser, "#table-name") == "Table 7"
    assert shown(browser, "#game-title") == "Fortune Six Baccarat Tournament"
    rig.new_shoe()
    for _ in range(8):
        rig.play_round()
    state = board_caught_up(board, browser, 8)
    expected = roads(journaled_outcomes(rig))
    assert [{k: c[k] for k in expected["big_road"][0]} for c in state["big_road"]] == expected["big_road"]
    for road in ("big_eye_boy", "small_road", "cockroach_pig", "ask", "counts"):
        assert state[road] == expected[road], road
    dom_beads = browser.execute_script("return [...document.querySelectorAll('#bead-plate g.cell')].map(g => g.dataset.outcome)")
    assert dom_beads == [b["outcome"] for b in state["bead_plate"]]
    counts = browser.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#counts .count')].map("
        "c => [c.dataset.count, Number(c.querySelector('.count-value').textContent)]))")
    assert {k: counts[k] for k in ("B", "P", "T", "banker_pair", "player_pair")} == state["counts"]
    assert counts["rounds"] == 8 and counts["naturals"] == state["game_counts"]["naturals"]

    # round 9: decided, then an extra card (a §5.2 hold) and the supervisor's void
    number = rig.open_round()
    first_two = [card["card"] for card in rig.draw(2)]  # the round in progress shows them as they are dealt
    wait_until(lambda: browser.execute_script(
        "return [...document.querySelectorAll('#live .card')].map(c => c.dataset.card)") == first_two, "the first two cards")
    assert browser.execute_script("return document.querySelector('#live .state').dataset.state") == "dealing"
    while rig.status()["state"] != "result":
        rig.draw(1)
    board_caught_up(board, browser, 9)
    assert "Round 9" in shown(browser, "#last-result")
    rig.draw(1)
    rig.wait_until(lambda: rig.status()["state"] == "held", 20, "the hold")
    wait_until(lambda: "fortune6 §5.2" in shown(browser, "#live"), "the hold's clause in the round in progress")
    rig.key(True)
    assert rig.press("void")["ok"]
    rig.key(False)
    board_caught_up(board, browser, 8)
    banner = wait_until(lambda: shown(browser, "#void-banner"), "the void banner")
    assert f"Round {number}'s result is void and taken off the roads" in banner and "fortune6 §5.2" in banner
    assert "Round 8" in shown(browser, "#last-result")

    # the daemon stops: the board says so and keeps what it shows
    rig.stop_daemon()
    wait_until(lambda: shown(browser, "#link-state") == "Table offline", "Table offline")
    assert "Table offline" in shown(browser, "#offline-banner")
    assert browser.execute_script(BIG_ROAD_IN_DOM) == big_road_of(board.get_json())
    # ... and comes back: the board resumes with the next round
    rig.start_daemon()
    wait_until(lambda: shown(browser, "#link-state") == "Table online", "Table online again")
    assert shown(browser, "#offline-banner") == ""
    rig.play_round()
    board_caught_up(board, browser, 9)
    assert shown(browser, "#void-banner") == ""  # a later result ends the banner


def test_traditional_chinese_labels(table):
    rig, board, browser = table("fafa4", seed=5)
    rig.new_shoe()
    for _ in range(3):
        rig.play_round()
    board_caught_up(board, browser, 3)
    browser.get(board.url + "?lang=zh-Hant")
    state = board_caught_up(board, browser, 3)
    beads = browser.execute_script("return [...document.querySelectorAll('#bead-plate .bead-label')].map(t => t.textContent)")
    assert beads == [{"B": "莊", "P": "閒", "T": "和"}[b["outcome"]] for b in state["bead_plate"]]
    assert shown(browser, "#big-road-panel h2") == "大路" and shown(browser, "#link-state") == "枱面在線"
    assert "五行八" in shown(browser, "#counts") and "發發4" in shown(browser, "#counts")


def test_fu_bacc_shows_spots_and_history(table):
    rig, board, browser = table("fubacc", seed=3)
    for _ in range(3):
        rig.play_round(spots=[2, 5])
    state = wait_until(lambda: (s := board.get_json()) and len(s["history"]) == 3 and s, "three rounds of history")
    wait_until(lambda: browser.execute_script("return document.querySelectorAll('#history tr').length") == 3, "the history drawn")
    assert browser.execute_script("return document.getElementById('baccarat').hidden") is True
    spots = browser.execute_script("return [...document.querySelectorAll('#spot-result .spot-result')].map(s => s.dataset.spot)")
    assert spots == list(state["last_result"]["spots"]) == ["2", "5"]
    mains = browser.execute_script("return [...document.querySelectorAll('#spot-result .spot-result')].map(s => s.dataset.main)")
    assert mains == [state["last_result"]["spots"][s]["main"] for s in ("2", "5")]
    assert "Dealer" in shown(browser, "#spot-result")
    tags = browser.execute_script("return [...document.querySelectorAll('#spot-result .spot-result')].map("
                                  "s => [...s.querySelectorAll('.tag')].map(t => t.dataset.tag))")
    assert tags == [[key for key, bet in state["last_result"]["spots"][s]["bets"].items()
                     if key != "ante" and bet["result"] == "win"] for s in ("2", "5")]

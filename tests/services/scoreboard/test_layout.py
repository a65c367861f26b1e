"""The board as players see it, in Debian's Chromium at 1920x1080 (Selenium, system chromedriver),
drawn by the real `tablectl scoreboard` process from a real journal: a fair 8-deck shoe dealt
through the table itself (full_shoe.py), and the big road's worst case (a new column every round).

- Every big-road cell of the whole shoe is inside the window, inside every box that could clip
  it (the road's own SVG included), and uncovered; its rings stay a readable size.
- Every text on the page has a WCAG AA contrast of at least 4.5:1 against what is painted under
  it: the first background found at the text's centre, from the topmost element down (SVG shapes
  by their fill, HTML boxes by their background colour), semi-transparent layers composited over
  the opaque one below. 4.5:1 is asked of all text, large text included (AA would allow 3:1
  there). The dimmed board behind the *Table offline* banner is left out: it is dimmed on purpose.
- The game's title comes from the labels of the board's language; without a table name no gap
  stands before it."""
from __future__ import annotations

import shutil

import pytest
from full_shoe import TableWriter, deal_fair_shoe, fair_shoe, write_alternating_shoe
from journal_script import HANDS, TableScript
from kiosk import BIG_ROAD_IN_DOM, ScoreboardProcess, big_road_of, chromium, close_browser, low_contrast, wait_until

from controller.control import ControlServer
from controller.journal import Journal
from controller.table import inputs as i
from games.registry import GAME_KEYS, get_game
from simulation.table_dealer import deal_shoe

pytestmark = pytest.mark.skipif(not (shutil.which("chromium") and shutil.which("chromedriver")),
                                reason="Debian's chromium and chromium-driver are not installed (.ci/setup installs them)")

WIDTH, HEIGHT = 1920, 1080

BIG_ROAD_CELLS = """
const svg = document.getElementById('big-road');
const clips = [];
for (let box = svg; box; box = box.parentElement) {
  const style = getComputedStyle(box);
  if (box === svg || style.overflowX !== 'visible' || style.overflowY !== 'visible') {
    const r = box.getBoundingClientRect();
    clips.push({name: box.id || box.tagName, left: r.left, top: r.top, right: r.right, bottom: r.bottom});
  }
}
const cells = [...svg.querySelectorAll('g.cell')].map(g => {
  const r = g.getBoundingClientRect();
  const ring = g.querySelector('circle.ring').getBoundingClientRect();
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {col: Number(g.dataset.col), row: Number(g.dataset.row), left: r.left, top: r.top, right: r.right,
          bottom: r.bottom, ring: Math.min(ring.width, ring.height), uncovered: hit !== null && svg.contains(hit)};
});
return {clips, cells, window: [innerWidth, innerHeight],
        scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]};
"""



class Table:
    """A real journal and control socket (published to as the daemon does); no table name."""

    def __init__(self, directory, game: str = "fortune6", table_name: str = "", lang: str = "en") -> None:
        self.journal = Journal(directory / "journal.sqlite")
        socket = directory / "control.sock"
        self.server = ControlServer(str(socket), lambda request: request.fail("not a daemon")).start()
        self.config = directory / "tablectl.toml"
        self.config.write_text(f'game = "{game}"\n[journal]\npath = "{self.journal.path}"\n[control]\nsocket = "{socket}"\n'
                               f'[scoreboard]\ntable_name = "{table_name}"\nlang = "{lang}"\n')
        self.writer = TableWriter(self.journal, game, self.server)

    def script(self) -> TableScript:
        """Records written one by one after what the table wrote (rounds numbered on)."""
        script = TableScript(self.journal, publish=self.server.publish, shoe=self.writer.table.shoe.number)
        script.round = self.journal.connection.execute("SELECT MAX(round) FROM records").fetchone()[0]
        return script

    def close(self) -> None:
        self.server.stop()
        self.journal.close()


@pytest.fixture(scope="module")
def browser():
    driver = chromium(WIDTH, HEIGHT)
    yield driver
    close_browser(driver)


class Started:
    """What a test starts: tables, then scoreboards on them; stopped in reverse order."""

    def __init__(self, directory, browser) -> None:
        self.directory, self.browser, self.things = directory, browser, []

    def table(self, **options) -> Table:
        table = Table(self.directory, **options)
        self.things.append(table)
        return table

    def board(self, table: Table) -> ScoreboardProcess:
        """`tablectl scoreboard` on the table's config, open in the browser and online."""
        board = ScoreboardProcess(table.config, directory=self.directory)
        self.things.append(board)
        self.browser.get(board.url)
        wait_until(lambda: self.browser.execute_script("return document.body.dataset.link") == "online", "the board online")
        return board

    def stop(self) -> None:
        for thing in reversed(self.things):
            if isinstance(thing, ScoreboardProcess):
                assert thing.stop() == 0, thing.output()
            else:
                thing.close()


@pytest.fixture
def started(tmp_path, browser):
    started = Started(tmp_path, browser)
    yield started
    started.stop()


def drawn(board: ScoreboardProcess, browser, rounds: int) -> dict:
    state = wait_until(lambda: (s := board.get_json()) and len(s["bead_plate"]) == rounds and s, f"{rounds} rounds on the roads")
    wait_until(lambda: browser.execute_script(BIG_ROAD_IN_DOM) == big_road_of(state), "the big road drawn")
    return state


def assert_whole_big_road_in_view(browser, state: dict, smallest_ring: float) -> None:
    seen = browser.execute_script(BIG_ROAD_CELLS)
    assert seen["window"] == [WIDTH, HEIGHT] and seen["scroll"] == [WIDTH, HEIGHT], "the page never scrolls"
    cells = seen["cells"]
    assert [(c["col"], c["row"]) for c in cells] == [(c["col"], c["row"]) for c in state["big_road"]]
    slack = 0.5  # px of sub-pixel rounding
    viewport = {"name": "the window", "left": 0, "top": 0, "right": WIDTH, "bottom": HEIGHT}
    for cell in cells:
        for box in [viewport, *seen["clips"]]:
            inside = (cell["left"] >= box["left"] - slack and cell["top"] >= box["top"] - slack
                      and cell["right"] <= box["right"] + slack and cell["bottom"] <= box["bottom"] + slack)
            assert inside, f"big-road cell {cell['col']},{cell['row']} is clipped by {box['name']}: {cell} outside {box}"
        assert cell["uncovered"], f"big-road cell {cell['col']},{cell['row']} is covered"
        assert cell["ring"] >= smallest_ring, f"big-road cell {cell['col']},{cell['row']}: a {cell['ring']:.1f} px ring"


def test_a_whole_shoe_s_big_road_is_in_view_at_1920x1080(started, browser):
    shoe = started.table()
    dealt = deal_fair_shoe(shoe.writer, seed=3)
    board = started.board(shoe)
    state = drawn(board, browser, len(dealt.results))
    assert state["shoe_finished"] and len(dealt.results) >= 70
    columns = 1 + max(c["col"] for c in state["big_road"])
    assert columns >= 30, "a realistic shoe for this check"
    assert_whole_big_road_in_view(browser, state, smallest_ring=30)

    # the worst case: every round a new column, more rounds than an 8-deck shoe deals
    write_alternating_shoe(shoe.journal, shoe=2, rounds=85, server=shoe.server)
    state = drawn(board, browser, 85)
    assert 1 + max(c["col"] for c in state["big_road"]) == 85
    assert_whole_big_road_in_view(browser, state, smallest_ring=15)

    # no table name: the game's title starts where the header's content starts
    assert browser.execute_script("return document.getElementById('table-name').textContent") == ""
    title_left, content_left = browser.execute_script(
        "const top = document.getElementById('top'); const style = getComputedStyle(top);"
        "return [document.getElementById('game-title').getBoundingClientRect().left,"
        "        top.getBoundingClientRect().left + parseFloat(style.paddingLeft)]")
    assert abs(title_left - content_left) < 1, (title_left, content_left)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_text_is_aa_contrast_on_what_is_under_it(started, browser, lang):
    shoe = started.table(table_name="Table 7", lang=lang)
    dealt = deal_fair_shoe(shoe.writer, seed=5)
    board = started.board(shoe)
    drawn(board, browser, len(dealt.results))
    # the shoe's end: the last result with its winning hand and tags, the counts and their note
    assert browser.execute_script("return document.querySelectorAll('#last-result .hand.winning').length") == 1
    assert low_contrast(browser) == []

    # a new shoe: a round with a pair and a Fortune Six (tags), then a round held with its clause
    script = shoe.script()
    script.new_shoe()
    for token in ("P+pp", "B6", "T", "B+bp"):
        script.play(token[0], *HANDS[token])
    drawn(board, browser, 4)
    assert browser.execute_script("return [...document.querySelectorAll('#last-result .tag')].length") >= 1
    assert low_contrast(browser) == []
    script.open()
    script.deal(*HANDS["P"])
    script.irregularity("extra_card", "fortune6 §5.2", "hold", "a card after the result")
    wait_until(lambda: "fortune6 §5.2" in browser.execute_script("return document.getElementById('live').innerText"), "the hold")
    assert low_contrast(browser) == []

    # the supervisor voids it: the banner with its clause
    script.void("extra_card", "fortune6 §5.2", "the supervisor voided the round")
    wait_until(lambda: browser.execute_script("return !document.getElementById('void-banner').hidden"), "the void banner")
    assert low_contrast(browser) == []

    # the daemon goes away: the header and the offline banner (the board behind is dimmed on purpose)
    shoe.server.stop()
    wait_until(lambda: browser.execute_script("return document.body.dataset.link") == "offline", "Table offline")
    assert low_contrast(browser, "#top") == [] and low_contrast(browser, "#offline-banner") == []


def test_the_game_title_comes_from_the_labels_of_each_language(started, browser):
    board = started.board(started.table(lang="zh-Hant"))
    wait_until(lambda: browser.execute_script("return document.getElementById('game-title').textContent"), "the title")
    titles = browser.execute_script(
        "return Object.fromEntries(Object.entries(LABELS).map(([lang, words]) => [lang, Object.fromEntries("
        "Object.entries(words).filter(([key]) => key.startsWith('game_')))]))")
    assert titles["en"] == {f"game_{key}": get_game(key).title for key in GAME_KEYS}
    chinese = titles["zh-Hant"]
    assert set(chinese) == set(titles["en"])
    for key, title in chinese.items():
        assert any("\u4e00" <= ch <= "\u9fff" for ch in title), f"{key}: {title!r} is not in Chinese"
    assert browser.execute_script("return document.getElementById('game-title').textContent") == chinese["game_fortune6"]
    browser.get(board.url + "?lang=en")
    wait_until(lambda: browser.execute_script("return document.getElementById('game-title').textContent")
               == "Fortune Six Baccarat Tournament", "the English title")


def test_a_spot_game_s_board_is_aa_contrast_too(started, browser):
    table = started.table(game="paigow", table_name="Table 7")
    table.writer.handle(i.Command("spots", {"spots": [2, 5]}))
    results = voids = 0
    for seed in (1, 2):  # a deck a round: the deck runs out mid-round, a void with its clause
        dealt = deal_shoe(table.writer, fair_shoe("paigow", seed))
        results, voids = results + len(dealt.results), voids + len(dealt.voids)
    assert results and voids
    board = started.board(table)
    rounds = results + voids
    state = wait_until(lambda: (s := board.get_json()) and len(s["history"]) == rounds and s, "the rounds' history")
    assert sum("void" in entry for entry in state["history"]) == voids
    wait_until(lambda: browser.execute_script("return document.querySelectorAll('#history tr').length") == rounds,
               "the history drawn")
    assert browser.execute_script("return document.querySelectorAll('#spot-result .spot-result').length") == 2
    assert low_contrast(browser) == []

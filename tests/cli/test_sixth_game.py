"""A sixth game from a copy of one game's folder plus one registry line, end to end.

Lucky Six is games/fortune6/ copied into a temporary directory under a new key (every
"fortune6" and "Fortune Six" in it renamed) and registered by one line, the `tablectl.games`
entry point of a package installed beside tablectl (a .dist-info on PYTHONPATH, as pip would
leave it). Nothing in the repository is edited. In subprocesses, as a user would run them:
`tablectl play`, `tablectl odds`, `tablectl demo --rounds 3` (the real daemon and simulators),
the generated clauses page (written and then --check'ed: its stale check passes and the new
game's clauses are on it), and the scoreboard's /roads.json and /game-labels.js for the
demo's journal."""
from __future__ import annotations

import http.client
import json
import os
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WAIT = 180  # a bound that fails a hung command; never a measure of speed
KEY = "lucky6"
RENAMES = (("fortune6", KEY), ("Fortune Six", "Lucky Six"), ("fortune_six", "lucky_six"), ("幸運六", "幸運六路"))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The copied folder and its registry line, on a directory put on PYTHONPATH."""
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(ROOT / "games" / "fortune6", site / KEY, ignore=shutil.ignore_patterns("__pycache__"))
    for path in (site / KEY).glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for old, new in RENAMES:
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    info = site / "lucky6_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lucky6-game\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[tablectl.games]\n{KEY} = {KEY}\n", encoding="utf-8")  # the one line
    return site


@pytest.fixture(scope="module")
def env(site) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)])}


def tablectl(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=WAIT, stdin=subprocess.DEVNULL)


def test_the_copy_is_a_game_of_its_own(site, env):
    play = tablectl(env, "play", KEY, "2s", "3h", "Kd", "3c", "9s", "--json")
    assert play.returncode == 0, play.stderr
    result = json.loads(play.stdout)
    assert result["void"] is False and result["winner"] == "banker"
    assert set(result["bets"]) == {"player", "banker", "tie", "player_pair", "banker_pair", KEY}
    short = json.loads(tablectl(env, "play", KEY, "2s", "3h", "Kd", "--json").stdout)
    assert short["void"] is True and short["clause"].startswith(f"{KEY} §5")  # its own clause, not fortune6's


def test_its_odds_are_fortune6s_under_its_own_name(env):
    ours, theirs = (tablectl(env, "odds", game, "--json") for game in (KEY, "fortune6"))
    assert ours.returncode == 0 == theirs.returncode, ours.stderr + theirs.stderr
    lucky, fortune = json.loads(ours.stdout), json.loads(theirs.stdout)
    assert lucky["bets"][KEY] == fortune["bets"]["fortune6"] and lucky["bets"]["banker"] == fortune["bets"]["banker"]


def test_its_clauses_are_on_the_generated_page(tmp_path, env):
    page = tmp_path / "clauses.md"
    make = subprocess.run([sys.executable, "-m", "docgen.clauses", "--page", str(page)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=WAIT)
    assert make.returncode == 0, make.stderr
    check = subprocess.run([sys.executable, "-m", "docgen.clauses", "--check", "--page", str(page)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=WAIT)
    assert check.returncode == 0, check.stderr
    text = page.read_text(encoding="utf-8")
    assert f"## Lucky Six Baccarat Tournament (`{KEY}`)" in text
    assert f"| `{KEY} §5.1` | a foreign card found: the round is void, earlier results stand |" in text
    assert "## Fortune Six Baccarat Tournament (`fortune6`)" in text  # the five games are all still there


def test_demo_rounds_and_the_scoreboard(tmp_path, env):
    demo = tablectl(env, "demo", "--game", KEY, "--rounds", "3", "--seed", "21", "--dir", str(tmp_path / "demo"))
    assert demo.returncode == 0, demo.stderr
    lines = [json.loads(line) for line in demo.stdout.splitlines()]
    assert [(line["game"], line["round"]) for line in lines] == [(KEY, 1), (KEY, 2), (KEY, 3)]
    assert all(set(line["bets"]) >= {"banker", KEY} for line in lines)
    board = scoreboard_json(tmp_path / "demo" / "tablectl.toml", env, tmp_path)
    roads, labels = board["/roads.json"], board["/game-labels.js"]
    assert roads["game"] == KEY and roads["game_title"] == "Lucky Six Baccarat Tournament"
    assert [bead["round"] for bead in roads["bead_plate"]] == [1, 2, 3]
    assert set(roads["game_counts"]) == {"naturals", "lucky_six"}
    assert roads["count_labels"] == {"lucky_six": {"en": "Lucky Six", "zh-Hant": "幸運六路"}}
    assert '"lucky_six": "Lucky Six"' in labels and '"lucky_six": "幸運六路"' in labels


def scoreboard_json(config: Path, env: dict[str, str], directory: Path) -> dict[str, object]:
    """/roads.json (parsed) and /game-labels.js (text) from `tablectl scoreboard` on `config`."""
    with open(directory / "scoreboard.err", "wb") as log:
        child = subprocess.Popen([sys.executable, "-m", "cli", "scoreboard", "--config", str(config),
                                  "--listen", "127.0.0.1:0"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log,
                                 stdin=subprocess.DEVNULL)
    try:
        assert child.stdout is not None
        ready, _, _ = select.select([child.stdout], [], [], WAIT)
        line = child.stdout.readline().decode() if ready else ""
        assert "serving http://" in line, (directory / "scoreboard.err").read_text(errors="replace")
        host, port = line.split("serving http://", 1)[1].split("/", 1)[0].rsplit(":", 1)
        got: dict[str, object] = {}
        for path in ("/roads.json", "/game-labels.js"):
            conn = http.client.HTTPConnection(host, int(port), timeout=WAIT)
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read().decode()
            assert response.status == 200, (path, response.status, body[:500])
            got[path] = json.loads(body) if path.endswith(".json") else body
            conn.close()
        return got
    finally:
        child.terminate()  # our own child, by its handle
        child.wait(WAIT)
        if child.stdout is not None:
            child.stdout.close()

"""Each game is a folder found through games.registry: game.py (GAME, TABLE) and clauses.py
(BOOK). What the registry, the clause books and the table profiles accept, and what they
refuse with a clear error."""
from __future__ import annotations

import pathlib
import re
from importlib.metadata import EntryPoint

import pytest

from games.clause_book import Clause, ClauseBook
from games.clauses import BOOKS, CLAUSES, GAME_PREFIX, citations
from games.registry import GAME_FOLDERS, GAME_KEYS, BadGameLine, UnknownGame, get_clause_book, get_game, installed_lines
from games.table_profile import BOARD_LANGUAGES, BoardCount

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name, value, "tablectl.games")


def test_an_installed_game_is_one_entry_point_line():
    assert installed_lines([_point("lucky6", "mygames.lucky6")]) == {"lucky6": "mygames.lucky6"}
    assert installed_lines([_point("lucky6", "a.b"), _point("lucky6", "a.b")]) == {"lucky6": "a.b"}  # found twice


@pytest.mark.parametrize("points, says", [
    ([_point("fortune6", "mygames.fortune6")], "'fortune6' is a game already"),
    ([_point("lucky6", "a.b"), _point("lucky6", "c.d")], "'lucky6' is a game already"),
    ([_point("Lucky 6", "a.b")], "expected key = package"),
    ([_point("lucky6", "a.b:GAME")], "expected key = package"),
])
def test_a_bad_entry_point_is_refused(points, says):
    with pytest.raises(BadGameLine, match=re.escape(says)):
        installed_lines(points)


def test_an_unknown_game_is_an_error_naming_the_games():
    with pytest.raises(UnknownGame) as raised:
        get_game("fortune8")
    assert str(raised.value) == f"unknown game 'fortune8' (one of {', '.join(GAME_KEYS)})"
    with pytest.raises(UnknownGame):
        get_clause_book("fortune8")


@pytest.mark.parametrize("game", GAME_KEYS)
def test_each_folder_holds_its_game_and_its_clauses(game):
    folder = ROOT.joinpath(*GAME_FOLDERS[game].split("."))
    assert (folder / "game.py").is_file() and (folder / "clauses.py").is_file()
    assert get_game(game).key == game
    book = get_clause_book(game)
    assert book.clauses and all(CLAUSES[key] == entry for key, entry in book.clauses.items())


def test_every_game_is_cited_by_its_own_name():
    assert GAME_PREFIX == {key: BOOKS[key].cited_as for key in GAME_KEYS}
    assert citations("fafa4 §5.2 and fortune6 §5.1") == ["fafa §5.2", "fortune6 §5.1"]
    assert citations("§3.14", "paigow") == ["paigow §3.14"]  # a bare section: the game in hand
    assert citations("fubacc procedures 12-13, way 2") == ["fubacc procedure 12", "fubacc procedure 13", "fubacc way 2"]
    assert citations("the House Way (Appendix A)") == ["paigow Appendix A"]
    assert citations("Tie Bet") == [] and citations("fortune7 Tie Bet") == ["fortune7 Tie Bet"]  # named: after the game


def test_a_clause_book_keeps_to_its_own_name():
    with pytest.raises(ValueError, match=r"clauses \['fafa §1'\] do not start with the game's citation name 'lucky6'"):
        ClauseBook("lucky6", {"lucky6 §1": Clause("a", "b"), "fafa §1": Clause("c", "d")})


def test_a_board_count_speaks_every_language_of_the_board():
    with pytest.raises(ValueError, match="board count 'sevens': no label in zh-Hant"):
        BoardCount("sevens", {"en": "Sevens"}, (("banker", None),))


def test_the_board_speaks_the_languages_labels_js_has():
    script = (ROOT / "services" / "scoreboard" / "static" / "labels.js").read_text(encoding="utf-8")
    table = script.split("const LABELS = {", 1)[1].split("\n};", 1)[0]
    assert tuple(re.findall(r'^  "([^"]+)": \{', table, re.MULTILINE)) == BOARD_LANGUAGES

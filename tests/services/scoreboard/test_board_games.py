"""The board takes each game's words and counts from the game's table profile, and an unknown
game is an error, never another game: a record naming one is kept as a problem and the board
stays on its game."""
from __future__ import annotations

import dataclasses

import pytest
from journal_script import TableScript

from controller.journal import Journal, iter_records, open_readonly
from games import registry
from games.registry import UnknownGame, get_table_profile
from games.table_profile import BoardCount
from services.scoreboard import board as board_module
from services.scoreboard.board import Board, game_labels, game_labels_script


def test_an_unknown_game_is_an_error():
    with pytest.raises(UnknownGame, match="unknown game 'fortune8'"):
        Board("fortune8")


def test_a_record_naming_an_unknown_game_is_a_problem_and_the_board_stays(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        TableScript(journal).append("daemon_started", {"game": "fortune8"})
        board = Board("fafa4")
        with open_readonly(journal.path) as conn:
            for record in iter_records(conn, 0):
                board.apply(record)
    shown = board.board_json()
    assert shown["game"] == "fafa4" and shown["game_title"] == "Fa Fa Fabulous 4 Baccarat"
    assert len(board.problems) == 1 and "unknown game 'fortune8'" in board.problems[0]


def test_the_counts_and_their_labels_are_the_games():
    shown = Board("fafa4").board_json()
    assert list(shown["game_counts"]) == ["naturals", "element_eights", "fabulous4"]
    assert shown["count_labels"] == {"element_eights": {"en": "Element Eights", "zh-Hant": "五行八"},
                                     "fabulous4": {"en": "Fabulous 4", "zh-Hant": "發發4"}}
    assert "count_labels" not in Board("paigow").board_json()  # no roads, no counts


def test_the_page_gets_every_games_labels_in_every_language():
    labels = game_labels()
    assert labels["en"]["fortune_six"] == "Fortune Six" and labels["zh-Hant"]["three_card_7"] == "三張七"
    script = game_labels_script()
    assert 'Object.assign(LABELS["zh-Hant"], {' in script and '"fortune_six": "幸運六"' in script


def test_two_games_calling_one_count_two_things_is_refused(monkeypatch):
    profile = get_table_profile("fortune6")
    other = dataclasses.replace(profile, board_counts=(
        BoardCount("fortune_six", {"en": "Six of Fortune", "zh-Hant": "幸運六"}, (("fortune6", None),)),))
    real = board_module.get_table_profile
    monkeypatch.setattr(registry, "GAME_KEYS", (*registry.GAME_KEYS, "sixes"))
    monkeypatch.setattr(board_module, "GAME_KEYS", registry.GAME_KEYS)
    monkeypatch.setattr(board_module, "get_table_profile", lambda key: other if key == "sixes" else real(key))
    with pytest.raises(ValueError, match="board count 'fortune_six': sixes calls it 'Six of Fortune' in en"):
        game_labels()

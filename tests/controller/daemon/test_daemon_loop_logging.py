"""The loop's log lines by level: results and other LOGGED_EVENTS at info; a card's event is
a debug line, built only when the configured level writes debug lines (the loop asks once,
when it is built). Real Table, real SQLite journal, the real structlog setup on a StringIO."""
from __future__ import annotations

import io
import json

import pytest
from loop_rig import LoopRig

from controller.logs import configure_logging, reset_logging

NINE_H, TWO_C, KING_D, THREE_C = 0x0119, 0x0132, 0x012D, 0x0133  # player 9h Kd: a natural 9; banker 5


def play_a_round(tmp_path, level: str) -> list[dict]:
    stream = io.StringIO()
    configure_logging("json", level, stream=stream)
    try:
        rig = LoopRig(tmp_path, burn=False)
        try:
            for command in ("new_shoe", "place_bets", "no_more_bets"):
                rig.press(command)
            for code in (NINE_H, TWO_C, KING_D, THREE_C):
                rig.card(code)
            assert rig.events("result")
        finally:
            rig.close()
    finally:
        reset_logging()
    return [json.loads(line) for line in stream.getvalue().splitlines()]


@pytest.mark.parametrize("level", ["info", "debug"])
def test_card_events_are_debug_lines_results_info_lines(tmp_path, level):
    lines = play_a_round(tmp_path, level)
    results = [line for line in lines if line["event"] == "result"]
    assert [(r["level"], r["winner"]) for r in results] == [("info", "player")]
    cards = [line for line in lines if line["event"] == "card"]
    if level == "debug":
        assert len(cards) == 4 and all(c["level"] == "debug" for c in cards)
        assert [c["card"] for c in cards] == ["9h", "2c", "Kd", "3c"]
    else:
        assert cards == []

"""`BoardStream`: the board kept current from the journal and handed to the web server's loop
(services/fold_stream.py does the following, the update log and the displays' queues).

Server-sent events (`/events`):
  update  id = the journal record's seq; data {"seq", "kind", "at", "board"?, "round"?}: the
          parts that record changed, each whole ("at": when it was journaled). The first update a display gets is a snapshot
          ("kind": "snapshot", both parts) unless its Last-Event-ID is in the log: then it
          gets exactly the updates after that id, so nothing is missed either way.
  link    no id; data {"online", "journal_error"}: the daemon's event stream is there or not.
A display that falls QUEUE updates behind is cut off; its browser reconnects with its
Last-Event-ID and is brought up to date from the log.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.fold_stream import LOG_BYTES, QUEUE, RETRY_MS, SEQ_DIGITS, BadLastEventId, Display, FoldStream, StartedFold, last_event_id
from services.follow import POLL_S
from services.scoreboard.board import BOARD, HISTORY, ROUND, Board
from services.scoreboard.start_point import start_point

__all__ = ["LOG_BYTES", "QUEUE", "RETRY_MS", "SEQ_DIGITS", "BadLastEventId", "BoardStream", "Display", "last_event_id"]


class BoardStream(FoldStream):
    PARTS = (BOARD, ROUND)
    THREAD_NAME = "scoreboard-follower"

    def __init__(self, journal_path: str, socket_path: str, *, game: str, table_name: str = "", lang: str = "en",
                 poll_s: float = POLL_S, log_bytes: int = LOG_BYTES, on_failure: Callable[[str], None] | None = None):
        super().__init__(journal_path, socket_path, poll_s=poll_s, log_bytes=log_bytes, on_failure=on_failure)
        self.game, self.table_name, self.lang = game, table_name, lang

    @property
    def board(self) -> dict[str, Any]:
        board: dict[str, Any] = self.parts.get(BOARD) or {}
        return board

    @property
    def round(self) -> dict[str, Any] | None:
        round_: dict[str, Any] | None = self.parts.get(ROUND)
        return round_

    def start_fold(self) -> StartedFold:
        start = start_point(self.journal_path, self.game, HISTORY)
        return StartedFold(Board(self.game, self.table_name, self.lang), start.since, start.since_hash)

    def part_json(self, fold: Board, name: str) -> Any:
        return fold.board_json() if name == BOARD else fold.round_json()

    def snapshot(self) -> dict[str, Any]:
        """/roads.json: the board, the round in progress ("live") and the link. `round` is the
        latest round opened (the board part changes only with results, voids and shoes)."""
        latest = self.round["round"] if self.round else self.board.get("round")
        return {**self.board, "round": latest, "seq": self.seq, "live": self.round, "link": self.link}

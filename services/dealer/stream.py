"""`DeskStream`: the dealer page's `Desk` kept current from the journal and handed to the web
server's loop (services/fold_stream.py: the follower thread, the update log for Last-Event-ID,
one bounded queue per display). Its server-sent `update` events carry {"seq", "kind", "at",
"desk"}; `link` says whether the daemon's event stream is there."""
from __future__ import annotations

import sqlite3
from typing import Any

from controller.journal import JournalError, iter_records, open_readonly
from services.dealer.desk import DESK, Desk
from services.fold_stream import LOG_BYTES, FoldStream, StartedFold
from services.follow import POLL_S

ROUNDS_BACK = 2  # a restart reads the round in play and the one before (whose wagers say if a sensor is there)


class DeskStream(FoldStream):
    PARTS = (DESK,)
    THREAD_NAME = "dealer-follower"

    def __init__(self, journal_path: str, socket_path: str, *, game: str, poll_s: float = POLL_S,
                 log_bytes: int = LOG_BYTES) -> None:
        super().__init__(journal_path, socket_path, poll_s=poll_s, log_bytes=log_bytes)
        self.game = game

    def start_fold(self) -> StartedFold:
        since, since_hash = recent_rounds_start(self.journal_path, ROUNDS_BACK)
        return StartedFold(Desk(self.game), since, since_hash)

    def part_json(self, fold: Desk, name: str) -> Any:
        return fold.desk_json()

    def snapshot(self) -> dict[str, Any]:
        """/round.json: what the page shows, and the link."""
        return {**(self.parts.get(DESK) or {}), "seq": self.seq, "link": self.link}


def recent_rounds_start(journal_path: str, rounds: int) -> tuple[int, str | None]:
    """Where to start reading: just before the `rounds`-th last `round_opened` (through the
    journal's index), with that record's hash; (0, None), the beginning, when the journal is
    not there or holds fewer rounds. The follower reports a journal it cannot read."""
    try:
        conn = open_readonly(journal_path)
    except (JournalError, sqlite3.Error, OSError):
        return 0, None
    try:
        row = conn.execute("SELECT seq FROM records WHERE kind = 'round_opened' ORDER BY round DESC LIMIT 1 OFFSET ?",
                           (rounds - 1,)).fetchone()
        if row is None or row[0] <= 1:
            return 0, None
        anchor = list(iter_records(conn, row[0] - 2, row[0] - 1))
        return row[0] - 1, anchor[0].hash if anchor else None
    finally:
        conn.close()

"""Where the board starts reading the journal, so a restart does not read a whole day's
records: a baccarat board needs the current shoe (from its last `shoe` {"event": "new"}),
a Fu Bacc or Pai Gow board its recent rounds (from the HISTORY-th last `round_opened`).
Both are found through the journal's partial indexes."""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass

from controller import bounded_json
from controller.journal import JournalError, iter_records, open_readonly
from controller.journal.records import PAYLOAD_BYTES
from games.registry import GAME_KEYS, get_game


@dataclass(frozen=True)
class StartPoint:
    since: int  # the follower's cursor: records after this one are read
    since_hash: str | None  # that record's hash (the follower's check that the file stays the same)
    game: str | None  # the game of the last round opened, if any


def start_point(journal_path: str, game: str, history: int) -> StartPoint:
    """From the journal at `journal_path` (read-only); `game` is the configured one, used until
    the journal names its own. No journal yet: from the beginning."""
    if not os.path.exists(journal_path):
        return StartPoint(0, None, None)
    try:
        conn = open_readonly(journal_path)
    except (JournalError, sqlite3.Error):
        return StartPoint(0, None, None)  # the follower reports why, and keeps trying
    try:
        last = conn.execute("SELECT seq, payload FROM records WHERE kind = 'round_opened' "
                            "ORDER BY round DESC LIMIT 1").fetchone()
        played = _game_of(last[1]) if last else None
        game = played or game
        if game in GAME_KEYS and get_game(game).uses_spots:
            row = conn.execute("SELECT seq FROM records WHERE kind = 'round_opened' ORDER BY round DESC "
                               "LIMIT 1 OFFSET ?", (history - 1,)).fetchone()
            first = row[0] if row else None
        else:
            first = _last_new_shoe(conn)
        if first is None or first <= 1:
            return StartPoint(0, None, played)
        anchor = list(iter_records(conn, first - 2, first - 1))
        return StartPoint(first - 1, anchor[0].hash if anchor else None, played)
    finally:
        conn.close()


def _payload(text: object) -> dict:
    """A record's payload, or {} when it cannot be read (the board names that record when it
    folds it; here it only does not count): read within bounds, as Record.payload reads it."""
    try:
        value = bounded_json.loads(text if isinstance(text, str) else "", max_bytes=PAYLOAD_BYTES)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _game_of(payload_text: str) -> str | None:
    game = _payload(payload_text).get("game")
    return game if isinstance(game, str) else None


def _last_new_shoe(conn: sqlite3.Connection) -> int | None:
    for seq, payload in conn.execute("SELECT seq, payload FROM records WHERE kind = 'shoe' ORDER BY seq DESC"):
        if _payload(payload).get("event") == "new":
            return int(seq)
    return None

"""`last_rounds(path, n)`: the last N rounds, oldest first, for `tablectl recall`."""
from __future__ import annotations

import os

from controller.journal.kinds import RecordKind
from controller.journal.readonly import reading
from controller.journal.records import COLUMNS, record_from_row
from controller.journal.rounds import RoundView, fold_rounds

DEFAULT_RECALL = 10  # the last ten rounds, as table-game regulations expect a recall to show


def last_rounds(path: str | os.PathLike, n: int = DEFAULT_RECALL) -> list[RoundView]:
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    with reading(path) as conn:
        opened = conn.execute(
            f"SELECT round, seq FROM records WHERE kind = '{RecordKind.ROUND_OPENED}' ORDER BY round DESC LIMIT ?",
            (n,)).fetchall()
        if not opened:
            return []
        numbers = [number for number, _ in opened]
        marks = ",".join("?" * len(numbers))
        # a round's records all follow its round_opened: scan the primary key from the oldest
        rows = conn.execute(f"SELECT {COLUMNS} FROM records WHERE seq >= ? AND round IN ({marks}) ORDER BY seq",
                            [min(seq for _, seq in opened), *numbers])
        views = fold_rounds(record_from_row(row) for row in rows)
    return [views[number] for number in sorted(views)]

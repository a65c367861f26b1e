"""`last_rounds(path, n)`: the last N rounds, oldest first, for `tablectl recall`."""
from __future__ import annotations

import os

from controller.journal.kinds import RecordKind
from controller.journal.readonly import reading
from controller.journal.records import COLUMNS, record_from_row
from controller.journal.rounds import INPUT_KINDS, RoundView, fold_rounds

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
        inputs = ",".join("?" * len(INPUT_KINDS))
        # a round's records all follow its round_opened, which follows the input record it was
        # written for (who opened the round): scan the primary key from that record
        first = min(seq for _, seq in opened)
        before = conn.execute(f"SELECT max(seq) FROM records WHERE seq < ? AND kind IN ({inputs})",
                              [first, *INPUT_KINDS]).fetchone()[0]
        rows = conn.execute(f"SELECT {COLUMNS} FROM records WHERE seq >= ? AND (round IN ({marks}) "
                            f"OR (round IS NULL AND kind IN ({inputs}))) ORDER BY seq",
                            [before or first, *numbers, *INPUT_KINDS])
        views = fold_rounds(record_from_row(row) for row in rows)
    return [views[number] for number in sorted(views)]

"""`export_jsonl(path, out)`: every record as one JSON object per line (JSON Lines)."""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import TextIO

from controller.journal.readonly import open_for_scan
from controller.journal.records import DamagedRecord
from controller.journal.scan import Unreadable, scan


def export_jsonl(path: str | os.PathLike, out: TextIO, since: int = 0,
                 on_problem: Callable[[Unreadable], None] | None = None) -> int:
    """Write records with seq > since to `out`, in order; returns how many were written.
    A record that cannot be exported (bytes that are not UTF-8, a payload that is not a JSON
    object, ...) or the point where a damaged file ends goes to `on_problem` and the export
    goes on with what can still be read; without on_problem the first one raises
    DamagedRecord (a JournalError) naming it."""
    count = 0
    conn, damage, size = open_for_scan(path)
    try:
        for item in scan(conn, since, damage, size):
            if not isinstance(item, Unreadable):
                try:
                    line = json.dumps(item.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n"
                except DamagedRecord as error:
                    item = Unreadable(error.seq, error.seq, error.reason)
                else:
                    out.write(line)
                    count += 1
                    continue
            if on_problem is None:
                raise DamagedRecord(item.seq, item.reason)
            on_problem(item)
        conn.check_unchanged()
    finally:
        conn.close()
    return count

"""`export_jsonl(path, out)`: every record as one JSON object per line (JSON Lines)."""
from __future__ import annotations

import json
import os
from typing import TextIO

from controller.journal.store import iter_records, reading


def export_jsonl(path: str | os.PathLike, out: TextIO, since: int = 0) -> int:
    """Write records with seq > since to `out`, in order; returns how many were written."""
    count = 0
    with reading(path) as conn:
        for record in iter_records(conn, since):
            out.write(json.dumps(record.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n")
            count += 1
    return count

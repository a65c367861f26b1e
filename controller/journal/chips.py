"""The chip registry's records: every `chips` record of a journal, oldest first.

    registry = ChipRegistry.from_records(chip_records(journal))   # at start-up

The registry is not in the journal's tail (an import may be years old), so the daemon reads
these at start-up through their own partial index (`chips_set`), a few records however long
the journal.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from controller.journal.kinds import RecordKind
from controller.journal.readonly import reading
from controller.journal.records import COLUMNS, record_from_row
from controller.journal.store import Journal


def chip_records(source: Journal | str | os.PathLike) -> list[Mapping[str, Any]]:
    with reading(source) as conn:
        rows = conn.execute(f"SELECT {COLUMNS} FROM records INDEXED BY chips_set WHERE kind = '{RecordKind.CHIPS}' "
                            "ORDER BY seq")
        return [record_from_row(row).payload for row in rows]

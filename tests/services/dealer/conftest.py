"""The dealer page's tests share the scoreboard's helpers (journal_script.py, kiosk.py: the
table's story written into a real journal, the SSE reader, Debian's Chromium through Selenium)
and the table's (table_helpers.py: a real Table driven by its inputs) rather than copies of them."""
from __future__ import annotations

import sys
from pathlib import Path

SCOREBOARD_TESTS = str(Path(__file__).resolve().parent.parent / "scoreboard")
TABLE_TESTS = str(Path(__file__).resolve().parents[2] / "controller" / "table")
for helpers in (SCOREBOARD_TESTS, TABLE_TESTS):
    if helpers not in sys.path:
        sys.path.append(helpers)

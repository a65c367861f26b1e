"""The dealer page's tests share the scoreboard's helpers (journal_script.py, kiosk.py: the
table's story written into a real journal, the SSE reader, Debian's Chromium through Selenium)
rather than copies of them."""
from __future__ import annotations

import sys
from pathlib import Path

SCOREBOARD_TESTS = str(Path(__file__).resolve().parent.parent / "scoreboard")
if SCOREBOARD_TESTS not in sys.path:
    sys.path.append(SCOREBOARD_TESTS)

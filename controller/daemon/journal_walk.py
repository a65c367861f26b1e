"""The walk of the whole journal that the start-up check leaves to the background.

On a journal with more than `journal.walk_at_start` records before its anchor, the daemon checks at
start what `check_journal(full=False)` checks (the anchor, signed by this table; the records
since it) and deals on, while a thread of its own walks every record and every signed head
from record 1 (`verify(path, verifier)`, its own read-only connection). The answer goes to
the loop: a broken journal holds the next shoe (`new_shoe` is refused, naming the first broken
record as `tablectl journal verify` does); the round and shoe in play finish.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

import structlog

from controller.journal import VerifyReport, verify
from controller.journal.signing import TableVerifier

log = structlog.get_logger("daemon")


class BackgroundWalk:
    def __init__(self, path: str, verifier: TableVerifier, done: Callable[[VerifyReport], None]) -> None:
        self.path, self.verifier, self.done = path, verifier, done
        self.thread = threading.Thread(target=self._run, name="journal-walk", daemon=True)

    def start(self) -> BackgroundWalk:
        log.info("journal_walk_started", journal=self.path)
        self.thread.start()
        return self

    def _run(self) -> None:
        started = time.perf_counter()
        try:
            report = verify(self.path, self.verifier)
        except Exception as error:  # noqa: BLE001 - a walk that cannot run is a check that failed
            report = VerifyReport(False, 0, 0, "", None, f"the walk of the journal failed: {type(error).__name__}: {error}")
        log.info("journal_walk_done", ok=report.ok, records=report.records, seconds=round(time.perf_counter() - started, 3))
        self.done(report)

"""Who vouches for the journal, and what the background walk of it found
(controller/daemon/journal_walk.py): `tablectl status` shows both (`journal.signing`,
`shoe_held`), STATUS= says what is to be said (unsigned, broken), and a journal that failed
its walk holds the next shoe: the round and shoe in play finish, `new_shoe` is refused."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog

from controller.journal import VerifyReport

log = structlog.get_logger("daemon")


class JournalTrust:
    def __init__(self, journal_path: str, signing: dict[str, Any], note: str, *,
                 publish: Callable[[dict[str, Any]], None], changed: Callable[[], None]) -> None:
        """signing: who signs the journal (`{"signed": False}` for an unsigned one); note: what
        STATUS= says of it first; changed: STATUS= is to be refreshed."""
        self.journal_path, self.signing, self.note = journal_path, signing, note
        self._publish, self._changed = publish, changed
        self.shoe_held: str | None = None  # why no new shoe may be declared: the journal failed its walk

    def walked(self, report: VerifyReport) -> None:
        """The background walk of the whole journal answered."""
        self.signing["walk"] = report.to_json()
        if report.ok:
            log.info("journal_verified", records=report.records, signed_seq=report.signed_seq)
            return
        at = "" if report.broken_seq is None else f" at record {report.broken_seq}"
        self.shoe_held = (f"journal broken{at}: {report.reason} (last good record {report.head_seq}) · "
                          "no new shoe: the supervisor starts a new chain (docs/journal.md, Recovery)")
        self.note = f"journal broken{at}: the next shoe is held"
        log.critical("journal_broken", journal=self.journal_path, first_broken_record=report.broken_seq,
                     problem=report.problem or "broken_chain", reason=report.reason, last_good_record=report.head_seq,
                     consequence="the round and shoe in play finish; no new shoe")
        self._publish({"event": "journal_broken", "first_broken_record": report.broken_seq, "reason": report.reason,
                       "last_good_record": report.head_seq, "problem": report.problem or "broken_chain"})
        self._changed()

"""The controller's journal: SQLite (WAL), append-only, every record hash-chained to the last.

    journal = Journal("/var/lib/tablectl/journal.sqlite")
    journal.append("card", {"round": 7, "card": "As", ...})
    journal.append("result", {...}, durable=True)   # fsynced before the lamps light
    recover(journal)        # after a restart: last round, interrupted round, shoe state
    verify(path); last_rounds(path, 10); export_jsonl(path, sys.stdout)   # readers

See docs/journal.md for the record kinds and the hash formula.
"""
from controller.journal.export import export_jsonl
from controller.journal.readonly import open_readonly
from controller.journal.recall import DEFAULT_RECALL, last_rounds
from controller.journal.records import GENESIS, JournalError, Record, canonical_json, record_hash
from controller.journal.recovery import Recovery, ShoeState, recover, restart_records
from controller.journal.rounds import CardSeen, RoundView, fold_rounds
from controller.journal.store import SYNC_MODES, Journal, JournalBusy, JournalFull, iter_records
from controller.journal.verify import VerifyReport, verify

__all__ = [
    "CardSeen", "DEFAULT_RECALL", "GENESIS", "Journal", "JournalBusy", "JournalError", "JournalFull", "Record", "Recovery",
    "RoundView", "SYNC_MODES", "ShoeState", "VerifyReport", "canonical_json", "export_jsonl",
    "fold_rounds", "iter_records", "last_rounds", "open_readonly", "record_hash", "recover", "restart_records", "verify",
]

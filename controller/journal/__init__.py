"""The controller's journal: SQLite (WAL), append-only, every record hash-chained to the last.

    journal = Journal("/var/lib/tablectl/journal.sqlite")
    journal.append("card", {"round": 7, "card": "As", ...})
    journal.append("result", {...}, durable=True)   # fsynced before the lamps light
    read_tail(journal)      # after a restart: the records it needs (the daemon restores the table from them)
    recover(journal)        # the same tail as tablectl journal recovery shows it: last round, interrupted round, shoe
    verify(path); last_rounds(path, 10); export_jsonl(path, sys.stdout)   # readers

Record kinds are named in controller.journal.kinds; docs/journal.md says what each holds
and gives the hash formula.
"""
from controller.journal.export import export_jsonl
from controller.journal.kinds import RecordKind, ShoeEvent
from controller.journal.recall import DEFAULT_RECALL, last_rounds
from controller.journal.records import GENESIS, JournalError, Record, canonical_json, record_hash
from controller.journal.recovery import JournalTail, Recovery, ShoeState, read_tail, recover, restart_records
from controller.journal.rounds import CardSeen, RoundView, fold_rounds
from controller.journal.store import SYNC_MODES, Journal, JournalBusy, iter_records, open_readonly
from controller.journal.verify import VerifyReport, verify

__all__ = [
    "CardSeen", "DEFAULT_RECALL", "GENESIS", "Journal", "JournalBusy", "JournalError", "JournalTail", "Record",
    "RecordKind", "Recovery", "RoundView", "SYNC_MODES", "ShoeEvent", "ShoeState", "VerifyReport", "canonical_json",
    "export_jsonl", "fold_rounds", "iter_records", "last_rounds", "open_readonly", "read_tail", "record_hash", "recover",
    "restart_records", "verify",
]

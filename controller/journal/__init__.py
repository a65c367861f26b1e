"""The controller's journal: SQLite (WAL), append-only, every record hash-chained to the last.

    check = check_journal(path, signer)   # at start-up, before opening it: the journal left, intact, signed by this table?
    journal = Journal("/var/lib/tablectl/journal.sqlite", signer=signer)   # signer: the table's key (signing.py)
    journal.append("card", {"round": 7, "card": "As", ...})
    journal.append("result", {...}, durable=True)   # fsynced before the lamps light
    journal.anchor()        # at start, every checkpoint and at shutdown: the head, signed, in a file beside it
    journal.anchor(mirror=True)   # at a checkpoint: and the signed head journaled (`signed_head`)
    read_tail(journal)      # after a restart: the records it needs (the daemon restores the table from them)
    recover(journal)        # the same tail as tablectl journal recovery shows it: last round, interrupted round, shoe
    verify(path, verifier); last_rounds(path, 10); export_jsonl(path, sys.stdout)   # readers
    start_new_chain(path, by={...}, reason="...")   # the recovery from a broken journal

Record kinds are named in controller.journal.kinds; docs/journal.md says what each holds
and gives the hash formula.
"""
from controller.journal.anchor import Anchor, anchor_path, read_anchor
from controller.journal.export import export_jsonl
from controller.journal.kinds import RecordKind, ShoeEvent
from controller.journal.new_chain import CHAIN_STARTED, NewChain, start_new_chain
from controller.journal.readonly import open_readonly
from controller.journal.recall import DEFAULT_RECALL, last_rounds
from controller.journal.records import GENESIS, DamagedRecord, JournalError, Record, canonical_json, record_hash
from controller.journal.recovery import JournalTail, Recovery, ShoeState, read_tail, recover, restart_records
from controller.journal.rounds import CardSeen, RoundView, fold_rounds
from controller.journal.startup import StartupCheck, check_journal
from controller.journal.store import SYNC_MODES, Journal, JournalBusy, JournalFull, iter_records
from controller.journal.verify import VerifyReport, verify

__all__ = [
    "Anchor", "CHAIN_STARTED", "CardSeen", "DEFAULT_RECALL", "DamagedRecord", "GENESIS", "Journal", "JournalBusy",
    "JournalError", "JournalFull", "JournalTail", "NewChain", "Record", "RecordKind", "Recovery", "RoundView",
    "SYNC_MODES", "ShoeEvent", "ShoeState", "StartupCheck", "VerifyReport", "anchor_path", "canonical_json",
    "check_journal", "export_jsonl", "fold_rounds", "iter_records", "last_rounds", "open_readonly", "read_anchor",
    "read_tail", "record_hash", "recover", "restart_records", "start_new_chain", "verify",
]

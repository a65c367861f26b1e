"""The whole journal's meters folded in parts at once, a process a part (docs/meters.md, "Cost").

A long fold is Python's work a round, not SQLite's: on a machine with two cores a million
records fold in about half the time in two parts. Each part after the first begins at a
round's opening, whose record names the game, decks and shoe; what else the fold carries
over from before that point (the shift open, the highest round opened, who gave a shift
command not yet journaled as a shift) is read through the journal's indexes. Each part
finishes its rounds as the next part's first opening would, and the parts' sums are added in
order: the figures are those of one fold, record by record (tests/controller/journal/test_meters_split.py).

Only the full-shoe theory of a whole journal is split: the exact theory's rounds need every card
since their shoe began, and a fold of one shoe or shift is short.
"""
from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import orjson

from controller.journal.kinds import RecordKind
from controller.journal.meters import READ_KINDS, MetersFold, fold_rows
from controller.journal.readonly import reading
from controller.journal.records import JournalError

RECORDS_A_PART = 150_000  # fewer: the processes' start costs more than they save
MOST_PARTS = 4
FIRST_SHARE = 0.9  # the first part's size against another's: its process also adds the parts up and reports


@dataclass(frozen=True)
class Part:
    """Where a part begins (seq of a round's opening; 0 for the first) and what it carries over."""

    first: int
    end: int | None
    next_round: int | None  # the round whose opening ends it: its rounds before it are finished
    last_opened: int = 0
    open_shift: int | None = None
    shift_by: Any = None


def parts_wanted() -> int:
    return max(1, min(len(os.sched_getaffinity(0)), MOST_PARTS))


def plan(path: str | os.PathLike[str], parts: int) -> list[Part]:
    """The parts of the journal at `path` (one when it is short or has no round to split at)."""
    with reading(path) as conn:
        head = conn.execute("SELECT max(seq) FROM records").fetchone()[0] or 0
        parts = min(parts, head // RECORDS_A_PART)
        starts: list[tuple[int, int]] = []
        for k in range(1, parts):
            near = int(head * (FIRST_SHARE + k - 1) / (FIRST_SHARE + parts - 1))
            row = conn.execute("SELECT seq, round, payload FROM records WHERE kind = 'round_opened' AND seq >= ? "
                               "ORDER BY seq LIMIT 1", (near,)).fetchone()
            if row is None or not isinstance(row[1], int) or starts and row[0] <= starts[-1][0]:
                continue
            payload = orjson.loads(row[2])
            if isinstance(payload, dict) and {"game", "decks", "shoe"} <= payload.keys():
                starts.append((row[0], row[1]))  # the fold takes no state of the shoe from before it
        out, first, carried = [], 0, Part(0, None, None)
        for seq, number in starts:
            out.append(Part(first, seq, number, carried.last_opened, carried.open_shift, carried.shift_by))
            carried = _carried(conn, seq)
            first = seq
        out.append(Part(first, None, None, carried.last_opened, carried.open_shift, carried.shift_by))
        return out


def _carried(conn: Any, seq: int) -> Part:
    """The fold's state from the records before `seq`, read through the indexes."""
    last_opened = conn.execute("SELECT max(round) FROM records WHERE kind = 'round_opened' AND seq < ?",
                               (seq,)).fetchone()[0] or 0
    open_shift, last_shift = None, 0
    for at_seq, payload in conn.execute("SELECT seq, payload FROM records WHERE kind = 'shift' AND seq < ? "
                                        "ORDER BY seq", (seq,)):
        p = orjson.loads(payload)
        number, action = p.get("shift"), p.get("action")
        last_shift = at_seq
        if not isinstance(number, int):
            continue  # the part before raises BadMoneyRecord on it
        if action == "open":
            open_shift = number
        elif action == "close" and open_shift == number:
            open_shift = None
    command = conn.execute(  # a shift command after the last shift record: who gives the next one
        "SELECT payload FROM records WHERE seq > ? AND seq < ? AND kind = 'command' "
        "AND json_extract(payload, '$.name') = 'shift' ORDER BY seq DESC LIMIT 1", (last_shift, seq)).fetchone()
    shift_by = orjson.loads(command[0]).get("by") if command else None
    return Part(seq, None, None, last_opened, open_shift, shift_by)


def fold_part(path: str | os.PathLike[str], part: Part) -> MetersFold:
    fold = MetersFold("full_shoe")
    fold.last_opened, fold.open_shift, fold.shift_by = part.last_opened, part.open_shift, part.shift_by
    fold_rows(fold, path, [kind for kind in READ_KINDS if kind != RecordKind.CARD], part.first, part.end)
    if part.next_round is not None:
        fold.finish_before(part.next_round)
    return fold


def fold_in_parts(path: str | os.PathLike[str], parts: list[Part]) -> MetersFold | None:
    """The fold of the whole journal from its parts, folded at once (the first here, each other
    in a process of its own); None when a part ends with a round still open after the next
    part's first opening (rounds out of order: fold it whole)."""
    context = multiprocessing.get_context("fork")  # the child has the modules loaded already
    children = []
    try:
        for part in parts[1:]:
            receiving, sending = context.Pipe(duplex=False)
            child = context.Process(target=_fold_and_send, args=(sending, path, part), daemon=True)
            child.start()
            sending.close()
            children.append((child, receiving))
        folds = [fold_part(path, parts[0])]  # an error of the first part is the first error
        for _, receiving in children:
            outcome, value = receiving.recv()
            if outcome == "error":
                raise value
            folds.append(value)
    finally:
        for child, receiving in children:
            if child.is_alive() and child.exitcode is None:
                child.terminate()
            child.join()
            receiving.close()
    if any(fold.rounds for fold in folds[:-1]):
        return None
    return merged(folds)


def _fold_and_send(sending: Connection, path: str | os.PathLike[str], part: Part) -> None:
    try:
        message: tuple[str, Any] = ("fold", fold_part(path, part))
    except Exception as error:  # the parent raises it as the fold would have
        message = ("error", error)
    try:
        sending.send(message)
    except Exception as error:  # an error that cannot be pickled: its text
        sending.send(("error", JournalError(f"{path}: {error!r} in the fold of records {part.first}-")))
    sending.close()


def merged(folds: list[MetersFold]) -> MetersFold:
    """The folds of consecutive parts as one fold, as if it had read every record in order."""
    whole = folds[0]
    for fold in folds[1:]:
        for key, group in fold.parts.items():
            whole.group(key).merge(group)
        whole.notes |= fold.notes
        whole.shoes_seen |= fold.shoes_seen
        for number, shift in fold.shifts.items():
            before = whole.shifts.get(number)
            if before is not None and shift.opened_at is None:  # only closed in this part: the same shift
                before.closed_at, before.closed_by = shift.closed_at, shift.closed_by
            else:
                whole.shifts[number] = shift
        whole.rounds = fold.rounds
        whole.last_opened = max(whole.last_opened, fold.last_opened)
        whole.game, whole.decks, whole.shoe = fold.game, fold.decks, fold.shoe
        whole.open_shift, whole.shift_by = fold.open_shift, fold.shift_by
    return whole

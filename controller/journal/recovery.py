"""`recover(journal)`: what the journal knows after a restart, for the daemon to act on.

The daemon reads this before it opens the next round: the last round number (rounds are
numbered on from it), the round a crash interrupted (opened but neither void nor settled;
it may already have a durable result), and the shoe's state (which cards have left it, burn
done, cut card seen). Deciding whether to void or resume is the table's job (local ruling L4).
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass

from controller.journal.readonly import reading
from controller.journal.records import COLUMNS, Record, record_from_row
from controller.journal.rounds import RoundView, card_seen, fold_rounds
from controller.journal.store import Journal


@dataclass(frozen=True)
class ShoeState:
    number: int | None  # None: no "shoe" {"event": "new"} record yet
    cards: tuple[str, ...] = ()  # every card read since the shoe began, burned and dealt, in shoe order
    cards_dealt: int = 0  # cards that left the shoe (misreads count; a reconstruction does not count twice)
    burn_done: bool = False
    cut_card_seen: bool = False
    rounds_after_cut: int = 0  # rounds opened after the cut card came out
    finished: bool = False
    last_draw_counter: int | None = None  # the shoe's counter on the last card journaled

    def to_json(self) -> dict:
        return {
            "number": self.number, "cards": list(self.cards), "cards_dealt": self.cards_dealt,
            "burn_done": self.burn_done, "cut_card_seen": self.cut_card_seen,
            "rounds_after_cut": self.rounds_after_cut, "finished": self.finished,
            "last_draw_counter": self.last_draw_counter,
        }


@dataclass(frozen=True)
class Recovery:
    last_seq: int  # 0 for an empty journal
    last_round: int  # the highest round_opened (0 if none): rounds are numbered on from it
    interrupted: RoundView | None  # status "open" (void it or resume) or "decided" (result stands)
    shoe: ShoeState

    @property
    def next_round(self) -> int:
        return self.last_round + 1

    def to_json(self) -> dict:
        return {
            "last_seq": self.last_seq, "last_round": self.last_round, "next_round": self.next_round,
            "interrupted": None if self.interrupted is None else self.interrupted.to_json(),
            "shoe": self.shoe.to_json(),
        }


def recover(source: Journal | str | os.PathLike) -> Recovery:
    """From the writer itself (in its thread, before the first append) or from a path."""
    with reading(source) as conn:
        return _recover(conn)


def _recover(conn: sqlite3.Connection) -> Recovery:
    last_seq = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM records").fetchone()[0]
    opened = conn.execute(
        "SELECT round, seq FROM records WHERE kind = 'round_opened' ORDER BY round DESC LIMIT 1").fetchone()
    last_round, interrupted = (opened[0] if opened else 0), None
    if opened:
        rows = conn.execute(f"SELECT {COLUMNS} FROM records WHERE seq >= ? AND round = ? ORDER BY seq", (opened[1], last_round))
        view = fold_rounds(record_from_row(row) for row in rows)[last_round]
        interrupted = None if view.finished else view
    return Recovery(last_seq, last_round, interrupted, _shoe_state(conn))


SHOE_STARTS = ("new", "new_deck")  # a new shoe; Pai Gow: a new deck each round
STICKY_KINDS = {"spots": "spots_set", "player_dealer": "player_dealer_set"}  # kind -> its index: settings that hold until set again


def _shoe_start(conn: sqlite3.Connection) -> tuple[int, int] | None:
    """(seq, shoe number) of the last record that began a shoe (the shoe_events index)."""
    for row in conn.execute(f"SELECT {COLUMNS} FROM records WHERE kind = 'shoe' ORDER BY seq DESC"):
        payload = record_from_row(row).payload
        if payload.get("event") in SHOE_STARTS:
            return row[0], payload.get("shoe")
    return None


def restart_records(source: Journal | str | os.PathLike) -> list[Record]:
    """The records a restart needs, oldest first, without reading the whole journal: the last
    record of each sticky setting (live spots, Fortune 7's player-dealer) and everything from
    the start of the current shoe or the last round_opened, whichever is earlier. Folding
    these gives what folding every record gives (controller/table's TableRecovery)."""
    with reading(source) as conn:
        return _restart_records(conn)


def _restart_records(conn: sqlite3.Connection) -> list[Record]:
    shoe = _shoe_start(conn)
    row = conn.execute("SELECT seq FROM records WHERE kind = 'round_opened' ORDER BY round DESC LIMIT 1").fetchone()
    last_opened = row[0] if row else None
    starts = [seq for seq in (shoe[0] if shoe else None, last_opened) if seq is not None]
    from_seq = min(starts) if starts else conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM records").fetchone()[0]
    sticky = []
    for kind, index in STICKY_KINDS.items():  # spelled out: a partial index needs the literal
        row = conn.execute(f"SELECT {COLUMNS} FROM records INDEXED BY {index} WHERE kind = '{kind}' AND seq < ? "
                           "ORDER BY seq DESC LIMIT 1", (from_seq,)).fetchone()
        sticky += [record_from_row(row)] if row else []
    tail = [record_from_row(row) for row in conn.execute(
        f"SELECT {COLUMNS} FROM records WHERE seq >= ? ORDER BY seq", (from_seq,))]
    return sorted(sticky, key=lambda r: r.seq) + tail


def _shoe_state(conn: sqlite3.Connection) -> ShoeState:
    start = _shoe_start(conn)
    if start is None:
        return ShoeState(number=None)
    start_seq, number = start
    cards: list[str] = []
    dealt, burn, cut, after_cut, finished, counter = 0, False, False, 0, False, None
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM records WHERE kind IN ('shoe', 'card', 'round_opened') AND seq > ? ORDER BY seq",
        (start_seq,))
    for record in map(record_from_row, rows):
        payload = record.payload
        if record.kind == "card":
            seen = card_seen(record.seq, payload)
            cards.extend([seen.card] if seen.card else [])
            dealt += 0 if seen.reconstructed else 1
            counter = seen.draw_counter if seen.draw_counter is not None else counter
        elif record.kind == "round_opened":
            after_cut += 1 if cut else 0
        elif payload.get("event") in ("burn", "burn_done"):
            burned = list(payload.get("cards") or [])  # burn cards listed here or journaled as card records
            burn, dealt = True, dealt + len(burned)
            cards.extend(burned)
        elif payload.get("event") == "cut_card" and not payload.get("ignored"):
            cut = True
        elif payload.get("event") == "finished":
            finished = True
    return ShoeState(number, tuple(cards), dealt, burn, cut, after_cut, finished, counter)

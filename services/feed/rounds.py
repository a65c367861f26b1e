"""The feed's view of the rounds it sends: each round folded from its records (the journal's
own fold, controller.journal.rounds), so a result or a void can be summed up whole, and a
void that follows a result of the same round (§5.2: possible until the next round opens)
names the result it supersedes. After a restart mid-round, the round's earlier records are
read back from the journal."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable

from controller.journal import Record, RoundView, iter_records

KEEP_ROUNDS = 3


class RoundTracker:
    def __init__(self, open_journal: Callable[[], sqlite3.Connection]) -> None:
        self.open_journal = open_journal
        self.views: dict[int, RoundView] = {}
        self.result_seq: dict[int, int] = {}
        self.held: dict[int, bool] = {}
        self.current: RoundView | None = None

    def apply(self, record: Record) -> RoundView | None:
        """Fold the record into its round; the round's view (None for a record of no round)."""
        if record.round is None:
            return None
        view = self.views.get(record.round)
        if view is None:
            view = self.views[record.round] = RoundView(record.round)
            if record.kind != "round_opened":
                self._read_back(view, record.seq)
            while len(self.views) > KEEP_ROUNDS:
                del self.views[min(self.views)]
        self._fold(view, record)
        if self.current is None or view.round >= self.current.round:
            self.current = view
        return view

    def _fold(self, view: RoundView, record: Record) -> None:
        view.apply(record)
        if record.kind == "result":
            self.result_seq[view.round] = record.seq
        if record.kind == "irregularity" and record.payload.get("consequence") == "hold":
            self.held[view.round] = True
        elif record.kind in ("round_resumed", "result", "void"):
            self.held[view.round] = False

    def _read_back(self, view: RoundView, before: int) -> None:
        """The round's records before `before`, from its round_opened on (indexed)."""
        conn = self.open_journal()
        row = conn.execute("SELECT seq FROM records WHERE kind = 'round_opened' AND round = ? ORDER BY seq DESC LIMIT 1",
                           (view.round,)).fetchone()
        if row is None:
            return
        for earlier in iter_records(conn, row[0] - 1, before - 1):
            if earlier.round == view.round:
                self._fold(view, earlier)

    def superseded(self, record: Record) -> int | None:
        """For a void: the seq of the same round's result it replaces, if there was one."""
        if record.kind == "void" and record.round is not None:
            return self.result_seq.get(record.round)
        return None

    def state(self) -> dict:
        """The table's round as the status line shows it."""
        view = self.current
        if view is None:
            return {"round": None, "round_state": None, "shoe": None}
        status = view.status
        if status == "open":
            status = "held" if self.held.get(view.round) else "dealing" if view.bets_closed else "betting"
        return {"round": view.round, "round_state": status, "shoe": view.shoe}

"""The floor's meters: the table's meters fold (controller/journal/meters.py) run by the pit on
each table's records as they join its checked chain, every round's meters stored in the pit's
database as its money stands (and again if a void follows), so `tablectl pit meters` answers
from the database alone, on SQLite as on PostgreSQL.

    meters = PitMeters(store)            # the fold of each table taken up from its stored records
    meters.add(table, record)            # in chain order, inside the store's batch (same commit)
    report = floor_meters(store.conn, alarm_sd=Fraction(3))   # per table and for the floor

Each round is one row of `meters_rounds` (its tallies as integers, controller/journal/meters.py,
in `meters`; drop, house net and theoretical win as decimal text for a back office's queries);
each shift one row of `meters_shifts`.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from controller.journal import DamagedRecord, Record
from controller.journal.kinds import RecordKind
from controller.journal.meter_sums import (
    DEFAULT_ALARM_SD,
    Figures,
    Group,
    MetersReport,
    RoundMeters,
    Shift,
    decimal_text,
)
from controller.journal.meters import READ_KINDS, BadMoneyRecord, MetersFold
from games.money import format_amount
from services.pit.database import Database

METERS_SCHEMA = """
CREATE TABLE IF NOT EXISTS meters_rounds (
    table_id TEXT NOT NULL, round INTEGER NOT NULL, shoe INTEGER, shift INTEGER, game TEXT, void INTEGER NOT NULL,
    opened_at TEXT NOT NULL, ended_at TEXT, drop_amount TEXT NOT NULL, house_net TEXT NOT NULL,
    theoretical_win TEXT NOT NULL, meters TEXT NOT NULL,
    PRIMARY KEY (table_id, round));
CREATE TABLE IF NOT EXISTS meters_shifts (
    table_id TEXT NOT NULL, shift INTEGER NOT NULL, name TEXT, opened_at TEXT, closed_at TEXT, opened_by TEXT,
    closed_by TEXT, PRIMARY KEY (table_id, shift));
"""
_KINDS = {str(kind) for kind in READ_KINDS}


class PitMeters:
    def __init__(self, conn: Database, on_problem: Callable[[str, Record, str], None] | None = None) -> None:
        """`on_problem(table, record, why)`: a money record the meters cannot read (it is stored
        and checked as any other; its round is not counted)."""
        self.conn = conn
        conn.create(METERS_SCHEMA)
        self.folds: dict[str, MetersFold] = {}
        self.on_problem = on_problem or (lambda table, record, why: None)

    def fold(self, table: str, before: int) -> MetersFold:
        """The table's fold, taken up from its stored records before seq `before` (the chain up to
        it): from its last shoe (the cards left) or last round opened, whichever is earlier, and
        its last shift record."""
        fold = self.folds.get(table)
        if fold is not None:
            return fold
        fold = self.folds[table] = MetersFold(summing=False)
        start = self.conn.execute(
            "SELECT min(seq) FROM (SELECT max(seq) AS seq FROM records WHERE table_id = ? AND seq < ? "
            "AND kind = 'round_opened' UNION ALL SELECT max(seq) FROM records WHERE table_id = ? AND seq < ? "
            "AND kind = 'shoe' AND (payload LIKE ? OR payload LIKE ?)) AS starts",
            (table, before, table, before, '%"event":"new"%', '%"event":"new_deck"%')).fetchone()[0]
        shift = self.conn.execute("SELECT max(seq) FROM records WHERE table_id = ? AND seq < ? AND kind = 'shift'",
                                  (table, before)).fetchone()[0]
        # the shift record and the command before it (who gave it: the same commit, just before)
        for row in self.conn.execute(
                "SELECT seq, at, mono_ns, kind, round, payload, prev_hash, hash FROM records WHERE table_id = ? "
                "AND (seq >= ? OR seq = ? OR seq = ?) AND seq < ? ORDER BY seq",
                (table, start or 0, shift or 0, (shift or 1) - 1, before)):
            record = Record(*row)
            if _folded(record):
                fold.add(record)
        return fold

    def add(self, table: str, record: Record) -> None:
        """A record that joined the table's chain, in order."""
        if not _folded(record):
            return
        fold = self.fold(table, record.seq)
        try:
            money = fold.add(record)
        except (BadMoneyRecord, DamagedRecord) as error:
            self.on_problem(table, record, str(error))
            return
        if record.kind == RecordKind.SHIFT:
            number = record.payload.get("shift")
            if isinstance(number, int) and number in fold.shifts:
                self._store_shift(table, fold.shifts[number])
        try:
            meters = None if money is None else fold.meters_of(money)
        except BadMoneyRecord as error:
            self.on_problem(table, record, str(error))
            return
        if meters is not None:
            self._store_round(table, meters)
        if record.kind == RecordKind.ROUND_OPENED:  # rounds before the last two are final: forget them
            for number in [n for n in fold.rounds if n < (record.round or 0) - 1]:
                del fold.rounds[number]

    def _store_round(self, table: str, meters: RoundMeters) -> None:
        figures = Figures(tuple(meters.total))
        self.conn.execute(
            "INSERT INTO meters_rounds VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (table_id, round) DO UPDATE SET "
            "shoe = excluded.shoe, shift = excluded.shift, game = excluded.game, void = excluded.void, "
            "opened_at = excluded.opened_at, ended_at = excluded.ended_at, drop_amount = excluded.drop_amount, "
            "house_net = excluded.house_net, theoretical_win = excluded.theoretical_win, meters = excluded.meters",
            (table, meters.round, meters.shoe, meters.shift, meters.game, int(meters.void), meters.opened_at,
             meters.ended_at, format_amount(figures.drop), format_amount(figures.house_net),
             decimal_text(figures.theoretical_win, 12),
             json.dumps({"total": meters.total, "bets": meters.bets}, separators=(",", ":"))))

    def _store_shift(self, table: str, shift: Shift) -> None:
        by = [None if who is None else json.dumps(who, ensure_ascii=False, sort_keys=True)
              for who in (shift.opened_by, shift.closed_by)]
        self.conn.execute(
            "INSERT INTO meters_shifts VALUES (?,?,?,?,?,?,?) ON CONFLICT (table_id, shift) DO UPDATE SET "
            "name = excluded.name, opened_at = COALESCE(excluded.opened_at, meters_shifts.opened_at), "
            "closed_at = excluded.closed_at, opened_by = COALESCE(excluded.opened_by, meters_shifts.opened_by), "
            "closed_by = excluded.closed_by",
            (table, shift.number, shift.name, shift.opened_at, shift.closed_at, *by))

    def rebuild(self, table: str, records: Iterable[Record]) -> None:
        """Fold the table again from all its records (its stored records changed: a forgery
        displaced by the table's own)."""
        self.conn.execute("DELETE FROM meters_rounds WHERE table_id = ?", (table,))
        self.conn.execute("DELETE FROM meters_shifts WHERE table_id = ?", (table,))
        self.folds[table] = MetersFold(summing=False)
        for record in records:  # the fold begins empty: nothing is read back
            self.add(table, record)


@dataclass
class FloorMeters:
    tables: dict[str, MetersReport]
    alarm_sd: Fraction
    floor: Group = field(default_factory=Group)

    def alarms(self) -> list[dict[str, Any]]:
        return [{"table": table, **alarm} for table, report in self.tables.items() for alarm in report.alarms()]

    def to_json(self) -> dict[str, Any]:
        tables = []
        for table, report in self.tables.items():
            data = report.to_json()
            tables.append({"table": table, **data["table"], "shifts": data["shifts"], "shoes": data["shoes"]})
        return {"alarm_sd": decimal_text(self.alarm_sd, 2), "floor": {"tables": len(self.tables), **self.floor.to_json()},
                "tables": tables, "alarms": self.alarms()}


def floor_meters(conn: Database, alarm_sd: Fraction = DEFAULT_ALARM_SD, table: str | None = None,
                 shift: int | None = None) -> FloorMeters:
    """Every table's meters (or one table's) and the floor's, from the pit's database."""
    where, args = ("WHERE table_id = ?", [table]) if table is not None else ("", [])
    rounds: dict[str, list[RoundMeters]] = {}
    for row in conn.execute("SELECT table_id, round, shoe, shift, game, void, opened_at, ended_at, meters FROM "
                            f"meters_rounds {where} ORDER BY table_id, round", args):
        if shift is not None and row[3] != shift:
            continue
        tallies = json.loads(row[8])
        rounds.setdefault(row[0], []).append(RoundMeters(row[1], row[4], row[2], row[3], row[6], row[7], bool(row[5]),
                                                         tallies["total"], tallies["bets"]))
    shifts: dict[str, dict[int, Shift]] = {}
    for row in conn.execute("SELECT table_id, shift, name, opened_at, closed_at, opened_by, closed_by FROM "
                            f"meters_shifts {where} ORDER BY table_id, shift", args):
        if shift is None or row[1] == shift:
            shifts.setdefault(row[0], {})[row[1]] = Shift(row[1], row[2], row[3], _who(row[5]), row[4], _who(row[6]))
    out = FloorMeters({}, alarm_sd)
    for name in sorted(set(rounds) | set(shifts)):
        report = MetersReport.of(rounds.get(name, ()), shifts.get(name, {}), alarm_sd, "exact", [], shift=shift)
        out.tables[name] = report
        out.floor.merge(report.table)
    return out


def _folded(record: Record) -> bool:
    """The records the meters read: the money, the rounds, the cards, the shifts and who gave them."""
    return record.kind in _KINDS or record.kind == RecordKind.COMMAND and '"name":"shift"' in record.payload_text


def _who(text: str | None) -> Mapping[str, Any] | None:
    return None if text is None else json.loads(text)

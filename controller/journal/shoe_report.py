"""`shoe_report(path, shoe=None)`: one shoe as the journal tells it, for `tablectl shoe report`.

What a surveillance officer and a table-games manager ask of a shoe: its cards in order (burn
and cut card marked), every card counted against the decks, the rounds with their results and
the game's counts, voids and holds with their clauses, irregularities, the integrity checks'
statistics (recomputed from the journal's cards against every earlier shoe), the pace
(hands per hour, time between rounds).
"""
from __future__ import annotations

import os
import statistics
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from controller.journal.kinds import RecordKind, ShoeEvent
from controller.journal.readonly import reading
from controller.journal.records import COLUMNS, Record, record_from_row
from controller.journal.round_money import money_over
from controller.journal.rounds import RoundView, fold_rounds
from controller.journal.shoes import ShoeLoad, add_to_history, iter_loads
from controller.journal.store import Journal
from games.integrity import DEFAULT_FALSE_ALARM_RATE, Alarm, CheckStatistic, ShoeHistory, ShoeWatch
from games.registry import GAME_KEYS, get_game


class NoSuchShoe(LookupError):
    def __init__(self, wanted: int | None, known: list[int]):
        self.wanted, self.known = wanted, known
        have = ("no shoe yet" if not known else f"shoe {known[0]}" if len(known) == 1
                else f"shoes {known[0]}-{known[-1]}")
        super().__init__(f"the journal has {have}" + ("" if wanted is None else f"; no shoe {wanted}"))


@dataclass
class Reconciliation:
    """One load's cards counted against the decks it holds."""
    label: str
    size: int  # cards the load holds
    read: int  # cards read (keyed-in ones included)
    unread: int  # cards that left unread and were never keyed in
    counter_gaps: int  # cards the shoe's draw counter says left unheard
    over: dict[str, int]  # card -> copies seen beyond what the decks hold
    foreign: list[str]  # read, but not of the deck kind
    counts: dict[str, int]  # card -> copies read

    @property
    def left(self) -> int:
        return max(0, self.size - self.read - self.unread - self.counter_gaps)

    @property
    def ok(self) -> bool:
        return not self.over and not self.foreign and not self.unread and not self.counter_gaps

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "size": self.size, "read": self.read, "unread": self.unread,
                "counter_gaps": self.counter_gaps, "left": self.left, "over": self.over, "foreign": self.foreign,
                "ok": self.ok, "counts": self.counts}


@dataclass
class LoadIntegrity:
    label: str
    statistics: tuple[CheckStatistic, ...]
    alarms: tuple[Alarm, ...]

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "statistics": [s.to_json() for s in self.statistics],
                "alarms": [a.to_json() for a in self.alarms]}


@dataclass
class Pace:
    rounds: int
    first_opened: str | None
    last_finished: str | None
    hands_per_hour: float | None
    between_rounds_s: list[float]  # from one round's end to the next round's opening
    round_length_s: list[float]  # from a round's opening to its end

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "first_opened": self.first_opened, "last_finished": self.last_finished,
                "hands_per_hour": self.hands_per_hour, "between_rounds_s": _summary(self.between_rounds_s),
                "round_length_s": _summary(self.round_length_s)}


@dataclass
class ShoeReport:
    shoe: int
    game: str | None
    decks: int | None
    first_seq: int
    last_seq: int
    finished: bool
    loads: list[ShoeLoad]
    reconciliation: list[Reconciliation]
    rounds: list[RoundView]
    winners: dict[str, int]
    bets: dict[str, dict[str, int]]  # wager -> result -> count (spot games: every spot's)
    voids: list[dict[str, Any]]
    holds: list[dict[str, Any]]
    irregularities: list[dict[str, Any]]
    integrity: list[LoadIntegrity]
    pace: Pace
    false_alarm_rate: Fraction = DEFAULT_FALSE_ALARM_RATE
    notes: list[str] = field(default_factory=list)
    # the supervisor's answers to the integrity alarms journaled (local ruling L7): "accepted" (the
    # shoe played on) or "new shoe" (the next shoe's record), the alarms answered, who gave it
    answers: list[dict[str, Any]] = field(default_factory=list)

    @property
    def money(self) -> dict[str, Any] | None:
        """The shoe's wagered rounds, drop and house net (round_money.money_over); None without money."""
        return money_over(view.money for view in self.rounds)

    def to_json(self) -> dict[str, Any]:
        return {
            "shoe": self.shoe, "game": self.game, "decks": self.decks, "first_seq": self.first_seq,
            "last_seq": self.last_seq, "finished": self.finished, "loads": [load.to_json() for load in self.loads],
            "reconciliation": [r.to_json() for r in self.reconciliation],
            "rounds": [r.to_json() for r in self.rounds], "winners": self.winners, "bets": self.bets,
            "voids": self.voids, "holds": self.holds, "irregularities": self.irregularities,
            "integrity": [i.to_json() for i in self.integrity], "pace": self.pace.to_json(),
            "false_alarm_rate": float(self.false_alarm_rate), "notes": self.notes, "answers": self.answers,
            "money": self.money,
        }


def shoe_report(source: Journal | str | os.PathLike, shoe: int | None = None,
                false_alarm_rate: Fraction = DEFAULT_FALSE_ALARM_RATE) -> ShoeReport:
    """The report of shoe number `shoe` (default: the last). NoSuchShoe when there is none."""
    history = ShoeHistory()
    before: list[ShoeLoad] = []
    numbers: list[int] = []
    for load in iter_loads(source):
        if load.shoe is not None and (not numbers or numbers[-1] != load.shoe):
            numbers.append(load.shoe)
        before.append(load)
    wanted = shoe if shoe is not None else (numbers[-1] if numbers else None)
    if wanted is None or wanted not in numbers:
        raise NoSuchShoe(shoe, numbers)
    mine = [load for load in before if load.shoe == wanted]
    for load in before:
        if load.start_seq >= mine[0].start_seq:
            break
        add_to_history(history, load)
    later = [load.start_seq for load in before if load.start_seq > mine[-1].start_seq and load.shoe != wanted]
    last_seq = (later[0] - 1) if later else None
    with reading(source) as conn:
        query = f"SELECT {COLUMNS} FROM records WHERE seq >= ?" + ("" if last_seq is None else " AND seq <= ?")
        args = (mine[0].start_seq,) if last_seq is None else (mine[0].start_seq, last_seq)
        records = [record_from_row(row) for row in conn.execute(query + " ORDER BY seq", args)]
        following = conn.execute(f"SELECT {COLUMNS} FROM records WHERE seq = ?", (later[0],)).fetchone() if later else None
    report = _report(wanted, mine, records, history, false_alarm_rate)
    report.answers = _answers(records, None if following is None else record_from_row(following))
    return report


def _answers(records: list[Record], next_start: Record | None) -> list[dict[str, Any]]:
    """The answers to this shoe's integrity alarms: its `accepted` records, and the next shoe's
    `new` record when it names alarms; each with who gave the command that led to it (the
    input's own record, just before it in the same commit)."""
    out = []
    chain = [*records, *([next_start] if next_start is not None else [])]
    for before, record in zip(chain, chain[1:]):
        p = record.payload
        answers = record.kind == RecordKind.SHOE and p.get("answers")
        if answers and (p.get("event") == ShoeEvent.ACCEPTED or (record is next_start and p.get("event") == ShoeEvent.NEW)):
            by = before.payload.get("by") if before.kind in (RecordKind.COMMAND, RecordKind.DEVICE) else None
            out.append({"seq": record.seq, "at": record.at, "how": "accepted" if p["event"] == ShoeEvent.ACCEPTED
                        else "new shoe", "alarms": p["answers"], "by": by})
    return out


def _report(number: int, loads: list[ShoeLoad], records: list[Record], history: ShoeHistory,
            rate: Fraction) -> ShoeReport:
    views = fold_rounds(records)
    rounds = [views[n] for n in sorted(views)]
    game = next((load.game for load in loads if load.game), None)
    decks = next((load.decks for load in loads if load.decks), None)
    loads_with_cards = [load for load in loads if load.cards] or loads[:1]
    irregular = [{"seq": r.seq, "at": r.at, "round": r.round, **r.payload} for r in records
                 if r.kind == RecordKind.IRREGULARITY]
    finished = any(r.kind == RecordKind.SHOE and r.payload.get("event") == ShoeEvent.FINISHED for r in records)
    winners, bets = _tallies(rounds)
    report = ShoeReport(
        shoe=number, game=game, decks=decks, first_seq=records[0].seq if records else loads[0].start_seq,
        last_seq=records[-1].seq if records else loads[-1].end_seq, finished=finished, loads=loads_with_cards,
        reconciliation=[_reconcile(load) for load in loads_with_cards], rounds=rounds, winners=winners, bets=bets,
        voids=[{"round": v.round, **(v.void or {})} for v in rounds if v.void is not None],
        holds=[i for i in irregular if i.get("consequence") == "hold"],
        irregularities=irregular, integrity=_integrity(loads_with_cards, history, rate),
        pace=_pace(rounds, records), false_alarm_rate=rate,
    )
    if game not in GAME_KEYS:
        report.notes.append(f"game {game!r} unknown: cards not reconciled, integrity not computed")
    return report


def _reconcile(load: ShoeLoad) -> Reconciliation:
    kind = get_game(load.game).deck_kind if load.game in GAME_KEYS else None
    decks = load.decks or 0
    counts: Counter[str] = Counter()
    foreign: list[str] = []
    unread = 0
    for card in load.cards:
        parsed = card.parsed()
        if card.card is None:
            unread += 1
        elif parsed is None or (kind is not None and not kind.contains(parsed)):
            foreign.append(card.card)
        else:
            counts[str(parsed)] += 1
    gaps, last = 0, None
    for card in load.cards:
        if card.draw_counter is not None:
            if last is not None and card.draw_counter > last + 1:
                gaps += card.draw_counter - last - 1
            last = card.draw_counter
    size = decks * len(kind.cards) if kind is not None else 0
    over = {card: n - decks for card, n in counts.items() if n > decks}
    if kind is not None:
        counts = Counter({str(c): counts.get(str(c), 0) for c in kind.cards})
    read = sum(counts.values()) + len(foreign)
    return Reconciliation(load.label, size, read, unread, gaps, over, foreign, dict(counts))


def _integrity(loads: list[ShoeLoad], history: ShoeHistory, rate: Fraction) -> list[LoadIntegrity]:
    out = []
    for load in loads:
        if load.game not in GAME_KEYS or not load.decks or not load.cards:
            continue
        watch = ShoeWatch(get_game(load.game).deck_kind, load.decks, history, rate)
        watch.new_shoe(load.label, load.cards_to_deal())
        alarms = watch.resume((c.parsed(), c.draw_counter) for c in load.cards)
        out.append(LoadIntegrity(load.label, watch.statistics(), alarms))
        watch.finish()
    return out


def _tallies(rounds: list[RoundView]) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    winners: Counter[str] = Counter()
    bets: dict[str, Counter[str]] = {}
    for view in rounds:
        if view.void is not None:
            winners["void"] += 1
            continue
        if view.result is None:
            continue
        if view.result.get("winner"):
            winners[view.result["winner"]] += 1
        results = [view.result.get("bets") or {}]
        results += [spot.get("bets") or {} for spot in (view.result.get("spots") or {}).values()]
        for bet_results in results:
            for key, bet in bet_results.items():
                label = bet.get("result", "?") + (f" {bet['pays']}" if bet.get("pays") else "")
                bets.setdefault(key, Counter())[label] += 1
    return dict(winners), {key: dict(tally) for key, tally in bets.items()}


def _when(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


def _pace(rounds: list[RoundView], records: list[Record]) -> Pace:
    ends: dict[int, str] = {}
    for record in records:
        if record.kind in (RecordKind.SETTLED, RecordKind.VOID) and record.round is not None:
            ends[record.round] = record.at
    spans = [(_when(v.opened_at), _when(ends[v.round])) for v in rounds if v.opened_at and v.round in ends]
    between = [(nxt[0] - cur[1]).total_seconds() for cur, nxt in zip(spans, spans[1:])]
    lengths = [(end - start).total_seconds() for start, end in spans]
    hours = (spans[-1][1] - spans[0][0]).total_seconds() / 3600 if spans else 0
    return Pace(len(rounds), rounds[0].opened_at if rounds else None,
                max(ends.values()) if ends else None,
                (len(spans) / hours) if hours > 0 else None, between, lengths)


def _summary(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values), "mean": statistics.fmean(values)}

"""A round as the journal tells it: fold a round's records into a `RoundView`.

Used by recall (the last N rounds) and by recovery (the round a crash interrupted).
Record kinds are named in controller.journal.kinds and described in docs/journal.md; kinds not known here are counted
under `other` and otherwise left alone.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.journal.kinds import RecordKind as R
from controller.journal.records import Record
from controller.journal.round_money import MoneySeen


@dataclass(frozen=True)
class CardSeen:
    """A card as it left the shoe. `card` is None for a misread."""

    seq: int
    card: str | None
    code: int | None
    hand: str | None
    position: int | None
    draw_counter: int | None
    reconstructed: bool = False  # dealt again from a hold or keyed in: the shoe counted it already
    keyed_in: bool = False  # keyed in by the supervisor for a misread (local ruling L5)
    status: str | None = None  # the table's word: "dealt", "burn", "extra", "misread", "after_void", ...

    def to_json(self) -> dict:
        return {
            "seq": self.seq, "card": self.card, "code": self.code, "hand": self.hand,
            "position": self.position, "draw_counter": self.draw_counter,
            "reconstructed": self.reconstructed, "keyed_in": self.keyed_in, "status": self.status,
        }


def card_seen(seq: int, p: Mapping[str, Any]) -> CardSeen:
    return CardSeen(
        seq=seq, card=p.get("card"), code=p.get("code"), hand=p.get("hand"),
        position=p.get("position"), draw_counter=p.get("draw_counter"),
        reconstructed=bool(p.get("reconstructed", False)), keyed_in=bool(p.get("keyed_in", False)),
        status=p.get("status"),
    )


@dataclass
class RoundView:
    round: int
    game: str | None = None
    decks: int | None = None
    shoe: int | None = None
    spots: list[int] = field(default_factory=list)
    opened_at: str | None = None
    bets_closed: bool = False
    cards: list[CardSeen] = field(default_factory=list)
    decisions: list[dict] = field(default_factory=list)
    irregularities: list[dict] = field(default_factory=list)
    result: dict | None = None
    void: dict | None = None
    settled: bool = False
    resumed: int = 0  # times the round was resumed after a restart or a hold
    commands: list[dict] = field(default_factory=list)  # the commands that touched it: {"seq", "command", "by"}
    voided_by: dict | None = None  # who gave the command the void followed ({"source": "socket", "user", ...})
    money: MoneySeen = field(default_factory=MoneySeen)  # wagers, settlement, acceptances (round_money.py)
    other: dict[str, int] = field(default_factory=dict)  # opaque record kinds -> count
    first_seq: int = 0
    last_seq: int = 0

    @property
    def status(self) -> str:
        """void | settled | decided (result journaled, not yet confirmed) | open"""
        if self.void is not None:
            return "void"
        if self.result is not None:
            return "settled" if self.settled else "decided"
        return "open"

    @property
    def finished(self) -> bool:
        return self.status in ("void", "settled")

    def apply(self, record: Record) -> None:
        handler = _APPLY.get(record.kind)
        if handler is None:
            self.other[record.kind] = self.other.get(record.kind, 0) + 1
        else:
            handler(self, record, record.payload)
        self.first_seq = self.first_seq or record.seq
        self.last_seq = record.seq

    def to_json(self) -> dict:
        return {
            "round": self.round, "status": self.status, "game": self.game, "decks": self.decks,
            "shoe": self.shoe, "spots": self.spots, "opened_at": self.opened_at,
            "bets_closed": self.bets_closed, "cards": [c.to_json() for c in self.cards],
            "decisions": self.decisions, "irregularities": self.irregularities,
            "result": self.result, "void": self.void, "settled": self.settled,
            "resumed": self.resumed, "commands": self.commands, "voided_by": self.voided_by, "money": self.money.to_json(),
            "other": self.other,
            "first_seq": self.first_seq, "last_seq": self.last_seq,
        }


def _opened(view: RoundView, record: Record, p: Mapping[str, Any]) -> None:
    view.game, view.decks, view.shoe = p.get("game"), p.get("decks"), p.get("shoe")
    view.spots = list(p.get("spots") or [])
    view.opened_at = record.at


def _without_round(p: Mapping[str, Any]) -> dict:
    return {k: v for k, v in p.items() if k != "round"}


# What each round record does to its RoundView (any other kind is counted in `other`).
_APPLY: dict[str, Callable[[RoundView, Record, Mapping[str, Any]], None]] = {
    R.ROUND_OPENED: _opened,
    R.BETS_CLOSED: lambda view, record, p: setattr(view, "bets_closed", True),
    R.CARD: lambda view, record, p: view.cards.append(card_seen(record.seq, p)),
    R.DECISION: lambda view, record, p: view.decisions.append(_without_round(p)),
    R.IRREGULARITY: lambda view, record, p: view.irregularities.append(_without_round(p)),
    R.RESULT: lambda view, record, p: setattr(view, "result", _without_round(p)),
    R.VOID: lambda view, record, p: setattr(view, "void", _without_round(p)),
    R.SETTLED: lambda view, record, p: setattr(view, "settled", True),
    R.ROUND_RESUMED: lambda view, record, p: setattr(view, "resumed", view.resumed + 1),
    R.WAGERS: lambda view, record, p: setattr(view.money, "wagers", _without_round(p)),
    R.SETTLEMENT: lambda view, record, p: setattr(view.money, "settlement", _without_round(p)),
    R.PAYOUTS_ACCEPTED: lambda view, record, p: view.money.accepted.append(_without_round(p)),
}


# The daemon writes an input's own record first and the table's records for it right after,
# in the same commit: a round's records are attributed to the input record before them.
INPUT_KINDS = (R.COMMAND, R.DEVICE, "timer_expired", R.DAEMON_STARTED)


def fold_rounds(records: Iterable[Record]) -> dict[int, RoundView]:
    """Round number -> its view, for every record that names a round. Input records among
    `records` (kinds INPUT_KINDS) say who gave each command that touched a round."""
    views: dict[int, RoundView] = {}
    given: dict | None = None  # the command of the last input record, with who gave it
    touched: set[int] = set()  # rounds already credited with it
    for record in records:
        if record.round is None:
            if record.kind in INPUT_KINDS:
                given, touched = command_given(record), set()
            continue
        view = views.setdefault(record.round, RoundView(record.round))
        view.apply(record)
        if given is not None:
            if record.round not in touched:
                touched.add(record.round)
                view.commands.append(given)
            if record.kind == R.VOID:
                view.voided_by = given["by"]
    return views


def command_given(record: Record) -> dict | None:
    """{"seq", "command", "by"} for a command from the socket or the panel (its record names
    who gave it: `by`); None for any other input."""
    if record.kind not in (R.COMMAND, R.DEVICE) or '"by"' not in record.payload_text:
        return None
    payload = record.payload
    by = payload.get("by")
    if not isinstance(by, dict):
        return None
    if record.kind == R.COMMAND:
        name = payload.get("name")
    else:
        name = payload.get("command") or (f"supervisor key {by['key']}" if "key" in by else None)
    return {"seq": record.seq, "command": name, "by": by}

"""The floor as the pit shows it: one `TableView` per table, folded from the table's records
in sequence order (as they join its verified chain) and from its feed's status line."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from controller.journal import Record

PAYLOAD_READ = frozenset(("round_opened", "result", "void", "shoe", "irregularity", "daemon_started"))


@dataclass
class TableView:
    table: str  # SITE/TABLE
    game: str | None = None
    round: int | None = None
    round_state: str | None = None  # betting | dealing | held | decided | settled | void
    shoe: int | None = None
    last_result: str | None = None  # "banker" / "spot 1 win, spot 3 lose" / "VOID (fafa §5.2)"
    holds: list[str] = field(default_factory=list)  # open holds: "round 12: misdeal (§5.2)"
    irregularities: int = 0  # this shoe
    last_irregularity: str | None = None
    link: str = "unknown"  # the feed: online | offline | unknown
    link_since: str | None = None
    link_reason: str | None = None
    daemon: str | None = None
    records: int = 0  # every record up to this seq is here
    held_back: int = 0  # records the table has journaled that are not here yet (as last reported)
    alarms: int = 0  # open alarms
    table_seq: int = 0  # the table's last journal record, as its feed last reported
    enrolled: str | None = None  # the key id the pit checks this table's signatures with (None: not enrolled)
    verified: int = 0  # every record up to this seq is vouched for by the table's signature

    def apply(self, record: Record, payload: Mapping[str, Any] | None = None) -> None:
        """Fold the next record in; `payload`: its payload already read, if the caller has it."""
        kind = record.kind
        # most records (cards, devices) change nothing here but the count: no payload read for them
        p: Mapping[str, Any] = {} if kind not in PAYLOAD_READ else record.payload if payload is None else payload
        if kind == "round_opened":
            self.round, self.round_state, self.game = record.round, "betting", _text(p.get("game")) or self.game
            self.shoe = _number(p.get("shoe"), self.shoe)
        elif kind == "bets_closed":
            self.round_state = "dealing"
        elif kind == "result":
            self.round_state, self.last_result = "decided", _result_text(p)
            self.holds = []
        elif kind == "void":
            self.round_state, self.last_result = "void", f"VOID {p.get('kind')} ({p.get('clause')})"
            self.holds = []
        elif kind == "settled":
            self.round_state = "settled"
        elif kind == "round_resumed":
            self.round_state, self.holds = "dealing", []
        elif kind == "shoe" and p.get("event") == "new":
            self.irregularities, self.last_irregularity = 0, None
        if kind == "irregularity":
            self.irregularities += 1
            self.last_irregularity = f"{p.get('kind')} ({p.get('clause')}, {p.get('consequence')})"
            if p.get("consequence") == "hold":
                self.round_state = "held"
                self.holds.append(f"round {record.round}: {p.get('kind')} ({p.get('clause')})")
        if kind == "daemon_started" and _text(p.get("game")):
            self.game = p["game"]
        self.records = record.seq
        self.held_back = max(0, self.table_seq - self.records)

    def apply_status(self, status: dict[str, Any], received_at: str) -> None:
        state = status.get("state")
        if state == "offline" and self.link != "offline":
            self.link_since = _text(status.get("at")) or received_at
        elif state == "online":
            self.link_since = _text(status.get("since")) or received_at
        self.link = state if state in ("online", "offline") else "unknown"
        self.link_reason = _text(status.get("reason"))
        self.game = _text(status.get("game")) or self.game
        self.daemon = _text(status.get("daemon")) if "daemon" in status else self.daemon
        if isinstance(status.get("journal_seq"), int):
            self.table_seq = status["journal_seq"]
        self.held_back = max(0, self.table_seq - self.records)

    def to_json(self) -> dict:
        return asdict(self)


def _text(value: Any) -> str | None:
    """A text field from outside as the view shows it: a string, else nothing (a message of
    the wrong shape must not reach the view, where it would fail at every redraw and restart)."""
    return value if isinstance(value, str) else None


def _number(value: Any, otherwise: int | None) -> int | None:
    return value if type(value) is int else otherwise


def _result_text(p: Mapping[str, Any]) -> str:
    if p.get("winner"):
        return str(p["winner"])
    spots = p.get("spots")
    if isinstance(spots, dict) and spots:
        return ", ".join(f"spot {spot} {(detail or {}).get('result', '?') if isinstance(detail, dict) else detail}"
                         for spot, detail in spots.items())
    return "decided"

"""`EdgeTracker`: the journal's records folded into the cards out of the shoe, and after every
round the exact house edge of every wager for the next one (games.live_edge), with an alert for
each wager that turns in the players' favour past the margin.

Pure bookkeeping over records (no I/O): the follower in services/edge/follow.py feeds it.
A new shoe or deck empties the cards out; a new game or deck count (a `daemon_started` or
`round_opened` that says so) starts again. On a deck-per-round table the next round is dealt
from a fresh deck, so its line is the full deck's. Wagers already in the players' favour off a
full shoe (Fortune Six's Banker: even money, no commission, a tournament game) are not alerts:
`standing` names them once.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from controller.journal import Record
from controller.journal.kinds import SHOE_STARTS, RecordKind, ShoeEvent
from games.cards import Card, CardError, parse_card
from games.live_edge import EdgeReport, live_edge
from games.registry import GAME_KEYS, get_game

ROUND_ENDS = (RecordKind.SETTLED, RecordKind.VOID)


@dataclass(frozen=True)
class EdgeLine:
    """One line of `tablectl edge`: the edge of every wager for the round after `round`."""

    seq: int  # the record that ended the round (the follower's cursor)
    at: str
    round: int | None  # None: a new shoe, before its first round
    shoe: int | None
    report: EdgeReport
    alerts: dict[str, Fraction] = field(default_factory=dict)  # wager -> house edge (negative)
    margin: Fraction = Fraction(0)

    def text(self) -> str:
        head = f"round {self.round}" if self.round is not None else f"shoe {self.shoe} new"
        edges = "  ".join(f"{key} {float(edge):+.3%}" for key, edge in self.report.edges().items())
        line = f"{self.at[11:19]}  {head:<10}  cards left {self.report.cards_left:>3}  {edges}"
        return "\n".join([line] + [self.alert_text(key, edge) for key, edge in self.alerts.items()])

    def alert_text(self, key: str, edge: Fraction) -> str:
        return (f"ALERT {self.report.game} round {self.round}: {key} house edge {float(edge):+.3%} "
                f"(the players' edge beyond {float(self.margin):.3%}) with {self.report.cards_left} cards left")

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "at": self.at, "round": self.round, "shoe": self.shoe, "game": self.report.game,
            "decks": self.report.decks, "cards_out": self.report.cards_out, "cards_left": self.report.cards_left,
            "edges": {key: float(edge) for key, edge in self.report.edges().items()},
            "edges_exact": {key: str(edge) for key, edge in self.report.edges().items()},
            "alerts": {key: float(edge) for key, edge in self.alerts.items()}, "margin": float(self.margin),
        }


class EdgeTracker:
    def __init__(self, game: str, decks: int, *, deck_per_round: bool | None = None, margin: Fraction = Fraction(0)):
        self.margin = Fraction(margin)
        self.deck_per_round_setting = deck_per_round
        self.shoe: int | None = None
        self.out: Counter[Card] = Counter()
        self._start(game, decks)

    def _start(self, game: str, decks: int) -> None:
        if game not in GAME_KEYS:
            raise ValueError(f"unknown game {game!r} (one of {', '.join(GAME_KEYS)})")
        self.game, self.decks = game, decks
        self.deck_per_round = (get_game(game).uses_spots if self.deck_per_round_setting is None
                               else self.deck_per_round_setting)
        self.out = Counter()
        self.standing = live_edge(game, decks).in_players_favour(self.margin)  # off the top: not alerts

    def feed(self, record: Record) -> EdgeLine | None:
        """The next record; an EdgeLine when a round ended (or a shoe began)."""
        p = record.payload
        kind = record.kind
        if kind in (RecordKind.DAEMON_STARTED, RecordKind.ROUND_OPENED):
            game, decks = p.get("game", self.game), p.get("decks", self.decks)
            if (game, decks) != (self.game, self.decks) and game in GAME_KEYS and isinstance(decks, int):
                self._start(game, decks)
        elif kind == RecordKind.SHOE and p.get("event") in SHOE_STARTS:
            self.out, self.shoe = Counter(), p.get("shoe", self.shoe)
            if p.get("event") == ShoeEvent.NEW and not self.deck_per_round:
                return self.line(record, None)
        elif kind == RecordKind.SHOE and p.get("event") in (ShoeEvent.BURN, ShoeEvent.BURN_DONE):
            for text in p.get("cards") or []:  # burn cards listed in the event (older journals)
                self._card({"card": text})
        elif kind == RecordKind.CARD:
            self._card(p)
        elif kind in ROUND_ENDS and record.round is not None:
            return self.line(record, record.round)
        return None

    def _card(self, p: Mapping[str, Any]) -> None:
        if p.get("reconstructed") and not p.get("keyed_in"):
            return  # dealt again from a hold: already counted out
        try:
            card = parse_card(p["card"]) if p.get("card") else None
        except CardError:
            card = None
        if card is not None and get_game(self.game).deck_kind.contains(card) and self.out[card] < self.decks:
            self.out[card] += 1  # a card beyond the decks' copies is the table's irregularity, not a card out

    def line(self, record: Record, round_no: int | None) -> EdgeLine | None:
        """The edge now; on a deck-per-round table, of the fresh deck the next round gets.
        None when too few cards are left for a round (the shoe is done)."""
        out = [] if self.deck_per_round else list(self.out.elements())
        try:
            report = live_edge(self.game, self.decks, out)
        except ValueError:
            return None
        alerts = {key: edge for key, edge in report.in_players_favour(self.margin).items() if key not in self.standing}
        return EdgeLine(record.seq, record.at, round_no, self.shoe, report, alerts, self.margin)

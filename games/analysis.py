"""What `tablectl odds` reports: exact counts, probabilities and house edges, per wager."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class OutcomeOdds:
    outcome: str  # as the pay table names it, or "lose" / "push"
    pays: str  # "8:1", "push", "lose"
    count: int  # exact number of equally likely cases (ordered card sequences, hands...)
    probability: Fraction
    net: Fraction  # money won (+) or lost (-) per unit wagered when this outcome happens

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "pays": self.pays,
            "count": self.count,
            "probability": float(self.probability),
            "probability_exact": str(self.probability),
        }


@dataclass(frozen=True)
class BetOdds:
    key: str
    outcomes: tuple[OutcomeOdds, ...]
    total: int  # the count every probability is out of
    notes: tuple[str, ...] = ()

    @property
    def house_edge(self) -> Fraction:
        """Positive = house advantage, per unit wagered (a fraction, not a percent)."""
        return -sum((o.probability * o.net for o in self.outcomes), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "house_edge": float(self.house_edge),
            "house_edge_exact": str(self.house_edge),
            "total": self.total,
            "outcomes": [o.to_json() for o in self.outcomes],
        }
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def bet_odds(key: str, rows: list[tuple[str, str, int, Fraction]], total: int, notes: Iterable[str] = ()) -> BetOdds:
    """Build a BetOdds from (outcome, pays, count, net-per-unit) rows; checks the counts add up."""
    if sum(r[2] for r in rows) != total:
        raise ValueError(f"{key}: outcome counts sum to {sum(r[2] for r in rows)}, not {total}")
    return BetOdds(
        key=key,
        outcomes=tuple(OutcomeOdds(o, p, c, Fraction(c, total), Fraction(n)) for o, p, c, n in rows),
        total=total,
        notes=tuple(notes),
    )


@dataclass(frozen=True)
class OddsReport:
    game: str
    decks: int
    bets: Mapping[str, BetOdds]
    tables: Mapping[str, object] = field(default_factory=dict)  # e.g. Fu Bacc's strategy table
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "decks": self.decks, "bets": {k: b.to_json() for k, b in self.bets.items()}}
        if self.tables:
            out["tables"] = dict(self.tables)
        if self.notes:
            out["notes"] = list(self.notes)
        return out

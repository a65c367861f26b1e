"""A table's limits: the least and the most a betting space may hold as a wager, per bet.

    limits = TableLimits.from_mapping(game, {"banker": {"min": "5", "max": "5000"}})
    limits.refusal(game, Stake(1, "banker", Fraction(2)))   # ("below the table's minimum 5 for banker", clause)

Where the rules text speaks of table limits it is cited (each game's `limits_clause`: Fu Bacc's
procedure 1, "according to posted table limits"; Fortune 7's Wagering Limits); the others name
none, and local ruling L11 applies the same to them.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from games.money.amounts import BadAmount, format_amount, parse_amount
from games.money.settle import Stake
from games.round import Game


def limit_clause(game: Game) -> str:
    """The clause a wager outside the limits is refused under (the game's `limits_clause`)."""
    return game.limits_clause


@dataclass(frozen=True)
class Limit:
    low: Fraction | None = None
    high: Fraction | None = None

    def to_json(self) -> dict[str, str]:
        out = {}
        if self.low is not None:
            out["min"] = format_amount(self.low)
        if self.high is not None:
            out["max"] = format_amount(self.high)
        return out


@dataclass(frozen=True)
class TableLimits:
    """bet key -> Limit; a bet not named has no limit."""

    by_bet: Mapping[str, Limit] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, game: Game, table: Mapping[str, object]) -> TableLimits:
        """From a `[limits]` table as TOML reads it: each key a bet of `game`, each value a table
        with `min` and/or `max` as decimal strings. BadAmount names the first bad key."""
        out: dict[str, Limit] = {}
        for bet, value in table.items():
            if bet not in game.wagers:
                raise BadAmount(f"limits.{bet}: {game.key} has no bet {bet!r} (one of {', '.join(game.wagers)})")
            if not isinstance(value, Mapping) or not value or set(value) - {"min", "max"}:
                raise BadAmount(f"limits.{bet}: expected a table such as {{min = \"5\", max = \"5000\"}}, got {value!r}")
            ends: dict[str, Fraction] = {}
            for end in ("min", "max"):
                if end in value:
                    text = value[end]
                    if not isinstance(text, str):
                        raise BadAmount(f"limits.{bet}.{end}: expected a decimal string such as \"5\", got {text!r}")
                    try:
                        ends[end] = parse_amount(text)
                    except BadAmount as bad:
                        raise BadAmount(f"limits.{bet}.{end}: {bad}") from None
            if "min" in ends and "max" in ends and ends["min"] > ends["max"]:
                raise BadAmount(f"limits.{bet}: min {value['min']} is above max {value['max']}")
            out[bet] = Limit(ends.get("min"), ends.get("max"))
        return cls(out)

    def refusal(self, game: Game, stake: Stake) -> tuple[str, str] | None:
        """(why, clause) when `stake` lies outside the table's limits for its bet, else None."""
        limit = self.by_bet.get(stake.bet)
        if limit is None:
            return None
        if limit.low is not None and stake.amount < limit.low:
            return f"below the table's minimum {format_amount(limit.low)} for {stake.bet}", limit_clause(game)
        if limit.high is not None and stake.amount > limit.high:
            return f"above the table's maximum {format_amount(limit.high)} for {stake.bet}", limit_clause(game)
        return None

    def to_json(self) -> dict[str, dict[str, str]]:
        return {bet: limit.to_json() for bet, limit in self.by_bet.items()}

"""The baccarat roads: what a scoreboard beside the table draws from the shoe's outcomes.

Pure functions of the outcomes in shoe order (void rounds never among them). Every road is
6 rows high; a position is a 0-based `(col, row)`, row 0 at the top.

  bead plate     every outcome, ties included, column by column: outcome i at (i // 6, i % 6)
  big road       one cell per banker or player win; ties count on the cell before them
                 (leading ties on the first win's cell); a new column when the winner changes
  derived roads  Big Eye Boy (k=1), Small Road (k=2), Cockroach Pig (k=3): a red or blue mark
                 per big-road entry, from the big road's logical columns (true streak lengths)
  ask road       the colour each derived road would add if the next outcome were B, or P

Placement (the big road and each derived road's own grid): a new logical column starts at
(start column of the previous logical column + 1, 0), moving right along row 0 past occupied
cells; a streak goes down one row per entry, and when the next row is off the grid or
occupied it turns right along its row and stays there (a dragon tail never drops back down).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

ROWS = 6
BANKER, PLAYER, TIE = "B", "P", "T"
WINNERS = (BANKER, PLAYER, TIE)
RED, BLUE = "red", "blue"
PAIR_SUFFIXES = {"bp": "banker_pair", "pp": "player_pair"}
# name -> k: each derived road compares a logical column with the one k columns before it
DERIVED_ROADS = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}

Position = tuple[int, int]


class OutcomeError(ValueError):
    """A token that names no outcome; `token` is the bad input."""

    def __init__(self, token: str, reason: str) -> None:
        self.token = token
        self.reason = reason
        super().__init__(f"{token!r}: {reason}")


@dataclass(frozen=True, slots=True)
class Outcome:
    """One round as the roads see it: who won, and whether each hand's first two cards paired."""

    winner: str  # B, P or T
    banker_pair: bool = False
    player_pair: bool = False

    def __str__(self) -> str:
        return self.winner + ("+bp" if self.banker_pair else "") + ("+pp" if self.player_pair else "")


def parse_outcome(token: str) -> Outcome:
    """`B`, `P` or `T`, each optionally followed by `+bp` and/or `+pp` in any order,
    case-insensitive (`B+bp`, `t+pp+bp`)."""
    winner, *suffixes = token.strip().lower().split("+")
    if winner.upper() not in WINNERS:
        raise OutcomeError(token, "an outcome is B, P or T, optionally followed by +bp and/or +pp")
    pairs: dict[str, bool] = {}
    for suffix in suffixes:
        if suffix not in PAIR_SUFFIXES:
            raise OutcomeError(token, f"unknown mark {'+' + suffix!r} (+bp banker pair, +pp player pair)")
        if PAIR_SUFFIXES[suffix] in pairs:
            raise OutcomeError(token, f"+{suffix} given twice")
        pairs[PAIR_SUFFIXES[suffix]] = True
    return Outcome(winner.upper(), **pairs)


def parse_outcomes(tokens: Iterable[str]) -> list[Outcome]:
    return [parse_outcome(token) for token in tokens]


@dataclass(frozen=True, slots=True)
class Bead:
    col: int
    row: int
    outcome: Outcome

    def to_json(self) -> dict[str, Any]:
        o = self.outcome
        return {"col": self.col, "row": self.row, "outcome": o.winner,
                "banker_pair": o.banker_pair, "player_pair": o.player_pair}


@dataclass(frozen=True, slots=True)
class BigRoadCell:
    col: int
    row: int
    winner: str  # B or P
    ties: int  # ties that followed this win (and, on the first cell, those before it)
    banker_pair: bool  # of the round that made the cell
    player_pair: bool
    column: int  # the logical column (the streak) it belongs to
    index: int  # the outcome that made it, 0-based in shoe order

    def to_json(self) -> dict[str, Any]:
        return {"col": self.col, "row": self.row, "winner": self.winner, "ties": self.ties,
                "banker_pair": self.banker_pair, "player_pair": self.player_pair, "column": self.column,
                "index": self.index}


@dataclass(frozen=True, slots=True)
class Mark:
    """A derived road's mark."""

    col: int
    row: int
    colour: str  # red or blue

    def to_json(self) -> dict[str, Any]:
        return {"col": self.col, "row": self.row, "colour": self.colour}


def place(keys: Sequence[str]) -> list[Position]:
    """Grid positions of a road's entries in order, a new logical column whenever the key
    changes (the big road's winner, a derived road's colour)."""
    occupied: set[Position] = set()
    positions: list[Position] = []
    start_col, col, row, tailing = -1, 0, 0, False
    previous: str | None = None
    for key in keys:
        if key != previous:
            col, row, tailing = start_col + 1, 0, False
            while (col, row) in occupied:  # a staircase of tails reached row 0
                col += 1
            start_col = col
        elif not tailing and row + 1 < ROWS and (col, row + 1) not in occupied:
            row += 1
        else:
            tailing, col = True, col + 1
            while (col, row) in occupied:  # no earlier tail can lie here; never share a cell if one did
                col += 1
        occupied.add((col, row))
        positions.append((col, row))
        previous = key
    return positions


def bead_plate(outcomes: Sequence[Outcome]) -> list[Bead]:
    return [Bead(i // ROWS, i % ROWS, outcome) for i, outcome in enumerate(outcomes)]


def _wins(outcomes: Sequence[Outcome]) -> list[tuple[int, Outcome, int]]:
    """(index, outcome, ties after it) for every banker or player win; leading ties go on the first."""
    wins: list[tuple[int, Outcome, int]] = []
    leading = 0
    for index, outcome in enumerate(outcomes):
        if outcome.winner == TIE:
            if wins:
                i, o, ties = wins[-1]
                wins[-1] = (i, o, ties + 1)
            else:
                leading += 1
        else:
            wins.append((index, outcome, leading if not wins else 0))
    return wins


def _logical(winners: Sequence[str]) -> list[tuple[int, int]]:
    """(logical column n, row within it m) of each entry: a new column when the key changes."""
    entries: list[tuple[int, int]] = []
    for i, key in enumerate(winners):
        if i and key == winners[i - 1]:
            n, m = entries[-1]
            entries.append((n, m + 1))
        else:
            entries.append((entries[-1][0] + 1 if entries else 0, 0))
    return entries


def big_road(outcomes: Sequence[Outcome]) -> list[BigRoadCell]:
    wins = _wins(outcomes)
    winners = [o.winner for _, o, _ in wins]
    return [BigRoadCell(col, row, o.winner, ties, o.banker_pair, o.player_pair, n, index)
            for (index, o, ties), (col, row), (n, _) in zip(wins, place(winners), _logical(winners))]


def column_lengths(outcomes: Sequence[Outcome]) -> list[int]:
    """The big road's logical columns: the length of each streak, ties ignored."""
    lengths: list[int] = []
    for n, m in _logical([o.winner for o in outcomes if o.winner != TIE]):
        if m == 0:
            lengths.append(0)
        lengths[n] += 1
    return lengths


def derived_colour(lengths: Sequence[int], n: int, m: int, k: int) -> str | None:
    """The mark the derived road with offset k adds for the big-road entry at row m of logical
    column n (columns before n are complete in `lengths`), or None when the columns it
    compares with do not exist yet."""
    if m >= 1:
        if n - k < 0:
            return None
        return BLUE if lengths[n - k] == m else RED
    if n - 1 - k < 0:
        return None
    return RED if lengths[n - 1] == lengths[n - 1 - k] else BLUE


def derived_colours(outcomes: Sequence[Outcome], k: int) -> list[str]:
    """The marks' colours in order: one per big-road entry past the road's start point."""
    lengths = column_lengths(outcomes)
    entries = _logical([o.winner for o in outcomes if o.winner != TIE])
    colours = (derived_colour(lengths, n, m, k) for n, m in entries)
    return [colour for colour in colours if colour is not None]


def derived_road(outcomes: Sequence[Outcome], k: int) -> list[Mark]:
    colours = derived_colours(outcomes, k)
    return [Mark(col, row, colour) for colour, (col, row) in zip(colours, place(colours))]


def ask(outcomes: Sequence[Outcome]) -> dict[str, dict[str, str | None]]:
    """For a next outcome of B and of P: the colour each derived road would add (None: none)."""
    lengths = column_lengths(outcomes)
    last = next((o.winner for o in reversed(outcomes) if o.winner != TIE), None)
    answer: dict[str, dict[str, str | None]] = {}
    for winner in (BANKER, PLAYER):
        if last is None:
            n, m, then = 0, 0, [1]
        elif winner == last:
            n, m = len(lengths) - 1, lengths[-1]
            then = lengths[:-1] + [lengths[-1] + 1]
        else:
            n, m, then = len(lengths), 0, lengths + [1]
        answer[winner] = {name: derived_colour(then, n, m, k) for name, k in DERIVED_ROADS.items()}
    return answer


def counts(outcomes: Sequence[Outcome]) -> dict[str, int]:
    return {
        BANKER: sum(o.winner == BANKER for o in outcomes),
        PLAYER: sum(o.winner == PLAYER for o in outcomes),
        TIE: sum(o.winner == TIE for o in outcomes),
        "banker_pair": sum(o.banker_pair for o in outcomes),
        "player_pair": sum(o.player_pair for o in outcomes),
    }


def roads(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Every road, the ask road and the counts, as `tablectl roads --json` prints them."""
    return {
        "bead_plate": [bead.to_json() for bead in bead_plate(outcomes)],
        "big_road": [cell.to_json() for cell in big_road(outcomes)],
        **{name: [mark.to_json() for mark in derived_road(outcomes, k)] for name, k in DERIVED_ROADS.items()},
        "ask": ask(outcomes),
        "counts": counts(outcomes),
    }

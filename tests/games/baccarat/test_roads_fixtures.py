"""The roads on shoes worked out by hand from the rules (games/baccarat/roads.py's docstring,
docs/scoreboard.md). Each fixture says why its answer is what it is; nothing here was
copied from the code's output.

Notation: big road cells (col, row, winner, ties); derived marks (col, row, "r" or "b");
L[n] is the length of the big road's logical column n (a streak, ties ignored).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from games.baccarat.roads import (
    Outcome,
    OutcomeError,
    ask,
    bead_plate,
    big_road,
    counts,
    derived_road,
    parse_outcome,
    parse_outcomes,
    roads,
)

NONE = {"big_eye_boy": None, "small_road": None, "cockroach_pig": None}


def column(col: int, colour: str, rows: int) -> list[tuple[int, int, str]]:
    return [(col, row, colour) for row in range(rows)]


def tail(first_col: int, last_col: int, row: int, colour: str) -> list[tuple[int, int, str]]:
    return [(col, row, colour) for col in range(first_col, last_col + 1)]


def same_colour(count: int, colour: str) -> list[tuple[int, int, str]]:
    """`count` marks of one colour on a derived road: column 0 rows 0-5, then a tail along row 5."""
    return column(0, colour, min(count, 6)) + tail(1, count - 6, 5, colour)


@dataclass
class Shoe:
    tokens: str
    why: str
    big: list[tuple[int, int, str, int]] | None = None
    big_eye_boy: list[tuple[int, int, str]] | None = None
    small_road: list[tuple[int, int, str]] | None = None
    cockroach_pig: list[tuple[int, int, str]] | None = None
    ask: dict | None = None
    counts: dict | None = None
    bead: list[tuple[int, int, str]] | None = None
    extra: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------------- the shoes
# A dragon tail staircase down to row 0 (used below): B x7, P x6, B x5, P x4, B x3, P x2, B x2, P.
STAIRCASE = Shoe(
    " ".join(["B"] * 7 + ["P"] * 6 + ["B"] * 5 + ["P"] * 4 + ["B"] * 3 + ["P"] * 2 + ["B"] * 2 + ["P"]),
    "Each streak is one shorter than the last, so each is stopped one row higher by the tail "
    "before it. B x7 fills column 0 and tails to (1,5). P x6 starts at (1,0), goes down to (1,4), "
    "finds (1,5) taken and tails to (2,4). B x5: (2,0)-(2,3), then (3,3). P x4: (3,0)-(3,2), then "
    "(4,2). B x3: (4,0), (4,1), then (5,1). P x2 starts at (5,0); (5,1) is taken, so it tails "
    "along row 0 to (6,0). B x2 should start at (6,0), the column after P x2's start, but the "
    "tail is there: it moves right along row 0 to (7,0) and goes down to (7,1). The last P "
    "starts one column after B x2's start: (8,0).",
    big=[(0, r, "B", 0) for r in range(6)] + [(1, 5, "B", 0)]
    + [(1, r, "P", 0) for r in range(5)] + [(2, 4, "P", 0)]
    + [(2, r, "B", 0) for r in range(4)] + [(3, 3, "B", 0)]
    + [(3, r, "P", 0) for r in range(3)] + [(4, 2, "P", 0)]
    + [(4, 0, "B", 0), (4, 1, "B", 0), (5, 1, "B", 0)]
    + [(5, 0, "P", 0), (6, 0, "P", 0)]
    + [(7, 0, "B", 0), (7, 1, "B", 0)]
    + [(8, 0, "P", 0)],
)

BBP_20 = " ".join(["B B P"] * 20)
BBP_WHY = (
    "Logical columns alternate BB (L=2, even n) and P (L=1, odd n), 40 of them. Big Eye Boy: a "
    "column start compares L[n-1] and L[n-2], always one 2 and one 1, so blue; a B column's second "
    "entry (m=1) sees L[n-1] = 1 = m, blue. Column 1 has one entry, so the road starts at column 2: "
    "60 - 2 - 1 = 57 blue marks. Small Road: a start compares L[n-1] and L[n-3], same parity, equal: "
    "red; m=1 sees L[n-2] = 2, not 1: red; it starts at column 2 row 1: 55 + 1 = 56 red. Cockroach "
    "Pig: a start compares L[n-1] and L[n-4], different parity: blue; m=1 (n even) sees L[n-3] = 1: "
    "blue; column 3 has one entry, so it starts at column 4: 60 - 6 = 54 blue. Same-colour marks "
    "fill column 0 and tail along row 5. Ask: the last P ends column 39. A B opens column 40: L[39]=1 "
    "against L[38]=2 (blue), L[37]=1 (red), L[36]=2 (blue). A P is row 1 of column 39: L[38]=2 (red), "
    "L[37]=1 (blue), L[36]=2 (red)."
)
BBP_ASK = {"B": {"big_eye_boy": "blue", "small_road": "red", "cockroach_pig": "blue"},
           "P": {"big_eye_boy": "red", "small_road": "blue", "cockroach_pig": "red"}}


def bbp_big(ties_on_p: int) -> list[tuple[int, int, str, int]]:
    cells: list[tuple[int, int, str, int]] = []
    for j in range(40):
        cells += [(j, 0, "B", 0), (j, 1, "B", 0)] if j % 2 == 0 else [(j, 0, "P", ties_on_p)]
    return cells


SHOES = {
    "empty": Shoe(
        "", "No outcomes: every road is empty, the ask road has nothing to add, every count is 0.",
        big=[], big_eye_boy=[], small_road=[], cockroach_pig=[], bead=[],
        ask={"B": NONE, "P": NONE}, counts={"B": 0, "P": 0, "T": 0, "banker_pair": 0, "player_pair": 0}),
    "only ties": Shoe(
        "T T T", "Ties take no big-road cell and there is no win to carry them: the big road is empty, "
        "the bead plate has all three. A next B or P would be column 0 row 0, which no derived road marks.",
        bead=[(0, 0, "T"), (0, 1, "T"), (0, 2, "T")], big=[], big_eye_boy=[], ask={"B": NONE, "P": NONE},
        counts={"B": 0, "P": 0, "T": 3, "banker_pair": 0, "player_pair": 0}),
    "leading ties": Shoe(
        "T T B P", "The two ties before the first win go on its cell (B, ties 2); P changes the winner: "
        "column 1. Column 1 has one entry, so Big Eye Boy would start at column 2: no marks yet. Ask: a B "
        "opens column 2 (L[1]=1 = L[0]=1: red); a P is row 1 of column 1 (L[0]=1 = m: blue); the other "
        "roads need columns that do not exist.",
        big=[(0, 0, "B", 2), (1, 0, "P", 0)], big_eye_boy=[], small_road=[],
        ask={"B": {"big_eye_boy": "red", "small_road": None, "cockroach_pig": None},
             "P": {"big_eye_boy": "blue", "small_road": None, "cockroach_pig": None}}),
    "ties and pairs on the cells": Shoe(
        "T+pp B+bp T P+pp T+bp T B",
        "B's cell has the leading tie and the one after it (ties 2) and the pairs of the round that made "
        "it: banker pair only (the leading T+pp's player pair stays on its bead). P's cell: player pair, "
        "ties 2. Counts: 4 ties; banker pairs B+bp and T+bp; player pairs T+pp and P+pp. Seven beads: "
        "the seventh starts bead column 1.",
        big=[(0, 0, "B", 2), (1, 0, "P", 2), (2, 0, "B", 0)],
        bead=[(0, 0, "T"), (0, 1, "B"), (0, 2, "T"), (0, 3, "P"), (0, 4, "T"), (0, 5, "T"), (1, 0, "B")],
        counts={"B": 2, "P": 1, "T": 4, "banker_pair": 2, "player_pair": 2},
        extra={"pairs": [(True, False), (False, True), (False, False)]}),
    "ties inside a streak": Shoe(
        "B T B T T B", "Ties do not break a streak: one column, each tie on the cell before it.",
        big=[(0, 0, "B", 1), (0, 1, "B", 2), (0, 2, "B", 0)]),
    "a streak of exactly 6": Shoe(
        "B B B B B B P", "Six wins fill rows 0-5 of column 0 with no tail; P starts column 1.",
        big=[(0, r, "B", 0) for r in range(6)] + [(1, 0, "P", 0)]),
    "a dragon tail (9 in a row)": Shoe(
        "P P P P P P P P P B", "Rows 0-5 of column 0, then row 6 is off the grid: the streak turns right "
        "along row 5 to (1,5), (2,5), (3,5). B starts at (start column 0) + 1 = (1,0), free above the tail.",
        big=[(0, r, "P", 0) for r in range(6)] + [(1, 5, "P", 0), (2, 5, "P", 0), (3, 5, "P", 0), (1, 0, "B", 0)]),
    "a tail blocked by an earlier tail": Shoe(
        " ".join(["B"] * 8 + ["P"] * 8 + ["B"]),
        "B x8: column 0 and a tail (1,5), (2,5). P x8 starts at (1,0) and goes down to (1,4); (1,5) is B's "
        "tail, so it turns right along row 4: (2,4), (3,4), (4,4). From column 3 on, row 5 is free, but a "
        "tail never drops back down: it stays in row 4. The last B starts at (2,0).",
        big=[(0, r, "B", 0) for r in range(6)] + [(1, 5, "B", 0), (2, 5, "B", 0)]
        + [(1, r, "P", 0) for r in range(5)] + [(2, 4, "P", 0), (3, 4, "P", 0), (4, 4, "P", 0)] + [(2, 0, "B", 0)]),
    "a staircase of tails reaching row 0": STAIRCASE,
    "alternating B P B P B P": Shoe(
        "B P B P B P", "Six logical columns of one entry each. Big Eye Boy starts at column 2 (column 1 has "
        "one entry); each start compares two columns of length 1: red, 4 marks. Small Road: columns 3-5, "
        "3 red; Cockroach Pig: columns 4-5, 2 red. Ask: a B opens column 6, every comparison is 1 vs 1: "
        "red; a P is row 1 of column 5 and every column it looks back at has exactly 1 entry: blue.",
        big=[(i, 0, "BP"[i % 2], 0) for i in range(6)],
        big_eye_boy=column(0, "r", 4), small_road=column(0, "r", 3), cockroach_pig=column(0, "r", 2),
        ask={"B": {"big_eye_boy": "red", "small_road": "red", "cockroach_pig": "red"},
             "P": {"big_eye_boy": "blue", "small_road": "blue", "cockroach_pig": "blue"}}),
    "Big Eye Boy starts at column 1 row 1 (blue)": Shoe(
        "B P P", "Column 1's second entry (m=1) looks at column 0: L[0]=1 = m, blue. Ask: a B opens column 2 "
        "(L[1]=2 vs L[0]=1: blue); a P is m=2 of column 1 (L[0]=1, not 2: red).",
        big_eye_boy=[(0, 0, "b")], small_road=[], cockroach_pig=[],
        ask={"B": {"big_eye_boy": "blue", "small_road": None, "cockroach_pig": None},
             "P": {"big_eye_boy": "red", "small_road": None, "cockroach_pig": None}}),
    "Big Eye Boy starts at column 1 row 1 (red)": Shoe(
        "B B P P", "m=1 of column 1 looks at column 0: L[0]=2, not 1: red.",
        big_eye_boy=[(0, 0, "r")], small_road=[]),
    "Big Eye Boy starts at column 2 row 0 (red)": Shoe(
        "B P B", "Column 1 has a single entry, so the first mark is column 2's start: L[1]=1 = L[0]=1, red.",
        big_eye_boy=[(0, 0, "r")], small_road=[]),
    "Big Eye Boy starts at column 2 row 0 (blue)": Shoe(
        "B B P B", "Column 2's start compares L[1]=1 with L[0]=2: blue. Column 0's second entry has no "
        "column before it: no mark.",
        big_eye_boy=[(0, 0, "b")], small_road=[]),
    "Small Road starts at column 2 row 1 (blue)": Shoe(
        "B P B B", "L = [1, 1, 2]. Small Road: m=1 of column 2 looks at column 0: L[0]=1 = m, blue. Big Eye "
        "Boy: column 2's start (L[1]=1 = L[0]=1: red), then its m=1 (L[1]=1 = m: blue): a new mark column.",
        small_road=[(0, 0, "b")], big_eye_boy=[(0, 0, "r"), (1, 0, "b")], cockroach_pig=[]),
    "Small Road starts at column 2 row 1 (red)": Shoe(
        "B B P B B", "L = [2, 1, 2]: m=1 of column 2 looks at column 0: L[0]=2, not 1: red.",
        small_road=[(0, 0, "r")]),
    "Small Road starts at column 3 row 0 (red)": Shoe(
        "B P B P", "L = [1, 1, 1, 1]; column 2 has one entry, so the first mark is column 3's start: "
        "L[2] = L[0] = 1, red.",
        small_road=[(0, 0, "r")], cockroach_pig=[]),
    "Small Road starts at column 3 row 0 (blue)": Shoe(
        "B B P B P", "L = [2, 1, 1, 1]: column 3's start compares L[2]=1 with L[0]=2: blue. Big Eye Boy: "
        "column 2 (L[1]=1 vs L[0]=2: blue), column 3 (L[2] = L[1] = 1: red).",
        small_road=[(0, 0, "b")], big_eye_boy=[(0, 0, "b"), (1, 0, "r")]),
    "Cockroach Pig starts at column 3 row 1 (blue)": Shoe(
        "B P B P P", "L = [1, 1, 1, 2]: m=1 of column 3 looks at column 0: L[0]=1 = m, blue.",
        cockroach_pig=[(0, 0, "b")]),
    "Cockroach Pig starts at column 3 row 1 (red)": Shoe(
        "B B P B P P", "L = [2, 1, 1, 2]: m=1 of column 3 looks at column 0: L[0]=2, not 1: red.",
        cockroach_pig=[(0, 0, "r")]),
    "Cockroach Pig starts at column 4 row 0 (red)": Shoe(
        "B P B P B", "L = [1]*5; column 3 has one entry, so the first mark is column 4's start: L[3] = L[0], red.",
        cockroach_pig=[(0, 0, "r")]),
    "Cockroach Pig starts at column 4 row 0 (blue)": Shoe(
        "B B P B P B", "L = [2, 1, 1, 1, 1]: column 4's start compares L[3]=1 with L[0]=2: blue.",
        cockroach_pig=[(0, 0, "b")]),
    "a derived road's own dragon tail": Shoe(
        " ".join(["B P"] * 5), "Ten columns of one. Big Eye Boy: columns 2-9, 8 reds: column 0 of its grid "
        "and a tail (1,5), (2,5). Small Road: 7 reds, tail to (1,5). Cockroach Pig: 6 reds, no tail.",
        big_eye_boy=same_colour(8, "r"), small_road=same_colour(7, "r"), cockroach_pig=same_colour(6, "r")),
    "60 outcomes: B B P x20": Shoe(
        BBP_20, BBP_WHY, big=bbp_big(0), big_eye_boy=same_colour(57, "b"), small_road=same_colour(56, "r"),
        cockroach_pig=same_colour(54, "b"), ask=BBP_ASK,
        counts={"B": 40, "P": 20, "T": 0, "banker_pair": 0, "player_pair": 0}),
    "80 outcomes: B B P T x20": Shoe(
        " ".join(["B B P T"] * 20), "The same streaks as B B P x20 with a tie after every P: each P cell "
        "has ties 1, the derived roads ignore ties so they are the same, and the 80 beads end at "
        "(79 // 6, 79 % 6) = (13, 1).",
        big=bbp_big(1), big_eye_boy=same_colour(57, "b"), small_road=same_colour(56, "r"),
        cockroach_pig=same_colour(54, "b"), ask=BBP_ASK,
        counts={"B": 40, "P": 20, "T": 20, "banker_pair": 0, "player_pair": 0},
        extra={"last_bead": (13, 1, "T"), "beads": 80}),
    "72 outcomes: B P x36": Shoe(
        " ".join(["B P"] * 36), "72 columns of one along row 0. Big Eye Boy marks columns 2-71 (70 red), "
        "Small Road 3-71 (69), Cockroach Pig 4-71 (68), each in column 0 and a tail along row 5. Ask as "
        "for B P B P B P.",
        big=[(i, 0, "BP"[i % 2], 0) for i in range(72)],
        big_eye_boy=same_colour(70, "r"), small_road=same_colour(69, "r"), cockroach_pig=same_colour(68, "r"),
        ask={"B": {"big_eye_boy": "red", "small_road": "red", "cockroach_pig": "red"},
             "P": {"big_eye_boy": "blue", "small_road": "blue", "cockroach_pig": "blue"}},
        counts={"B": 36, "P": 36, "T": 0, "banker_pair": 0, "player_pair": 0}),
}


def _big(outcomes):
    return [(c.col, c.row, c.winner, c.ties) for c in big_road(outcomes)]


def _marks(outcomes, k):
    return [(m.col, m.row, m.colour[0]) for m in derived_road(outcomes, k)]


@pytest.mark.parametrize("name", list(SHOES))
def test_a_hand_worked_shoe(name):
    shoe = SHOES[name]
    outcomes = parse_outcomes(shoe.tokens.split())
    if shoe.big is not None:
        assert _big(outcomes) == shoe.big
    for road, k in (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3)):
        if getattr(shoe, road) is not None:
            assert _marks(outcomes, k) == getattr(shoe, road), road
    if shoe.ask is not None:
        assert ask(outcomes) == shoe.ask
    if shoe.counts is not None:
        assert counts(outcomes) == shoe.counts
    if shoe.bead is not None:
        assert [(b.col, b.row, b.outcome.winner) for b in bead_plate(outcomes)] == shoe.bead
    if "pairs" in shoe.extra:
        assert [(c.banker_pair, c.player_pair) for c in big_road(outcomes)] == shoe.extra["pairs"]
    if "last_bead" in shoe.extra:
        beads = bead_plate(outcomes)
        assert len(beads) == shoe.extra["beads"]
        assert (beads[-1].col, beads[-1].row, beads[-1].outcome.winner) == shoe.extra["last_bead"]


def test_there_are_at_least_twenty_hand_worked_shoes_and_each_says_why():
    assert len(SHOES) >= 20
    assert all(len(shoe.why) > 40 for shoe in SHOES.values())


@pytest.mark.parametrize("token, outcome", [
    ("B", Outcome("B")), ("p", Outcome("P")), ("T", Outcome("T")),
    ("B+bp", Outcome("B", banker_pair=True)), ("t+pp+bp", Outcome("T", True, True)),
    ("P+PP", Outcome("P", player_pair=True)), ("b+PP+Bp", Outcome("B", True, True)),
])
def test_tokens_in_any_order_and_case(token, outcome):
    assert parse_outcome(token) == outcome
    assert parse_outcome(str(outcome)) == outcome


@pytest.mark.parametrize("token, says", [
    ("X", "an outcome is B, P or T"), ("BP", "an outcome is B, P or T"), ("", "an outcome is B, P or T"),
    ("B+xp", "unknown mark '+xp'"), ("B+", "unknown mark '+'"), ("B+bp+bp", "+bp given twice"),
])
def test_bad_tokens_are_named(token, says):
    with pytest.raises(OutcomeError) as caught:
        parse_outcome(token)
    assert caught.value.token == token and says in str(caught.value)


def test_the_json_shape():
    board = roads(parse_outcomes("T B+bp P+pp T".split()))
    assert set(board) >= {"bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig", "ask", "counts"}
    assert board["bead_plate"][1] == {"col": 0, "row": 1, "outcome": "B", "banker_pair": True, "player_pair": False}
    cell = board["big_road"][1]
    assert {k: cell[k] for k in ("col", "row", "winner", "ties", "banker_pair", "player_pair")} == {
        "col": 1, "row": 0, "winner": "P", "ties": 1, "banker_pair": False, "player_pair": True}
    assert set(board["ask"]) == {"B", "P"} and set(board["ask"]["B"]) == {"big_eye_boy", "small_road", "cockroach_pig"}
    assert board["counts"] == {"B": 1, "P": 1, "T": 2, "banker_pair": 1, "player_pair": 1}

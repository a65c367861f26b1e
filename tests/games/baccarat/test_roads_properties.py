"""Properties of the roads on any shoe (hypothesis): the counts add up, every derived mark
stands for one big-road entry past the road's start point and has the colour the textbook
rule gives, no two entries share a cell, tails never drop back down, and the ask road is
what the next outcome really adds."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.baccarat.roads import (
    DERIVED_ROADS,
    ROWS,
    Outcome,
    ask,
    bead_plate,
    big_road,
    column_lengths,
    counts,
    derived_colours,
    derived_road,
    parse_outcome,
    place,
)

outcome = st.builds(Outcome, st.sampled_from("BPT"), st.booleans(), st.booleans())
# Long streaks and long shoes are what stress the placement: mix short runs with long ones.
runs = st.lists(st.tuples(outcome, st.integers(1, 12)), max_size=40)
shoes = st.one_of(st.lists(outcome, max_size=90), runs.map(lambda rs: [o for o, n in rs for _ in range(n)][:90]))


@given(shoes)
def test_counts_add_up(outcomes):
    c = counts(outcomes)
    assert c["B"] + c["P"] + c["T"] == len(outcomes)
    assert c["banker_pair"] == sum(o.banker_pair for o in outcomes)
    assert c["player_pair"] == sum(o.player_pair for o in outcomes)
    cells = big_road(outcomes)
    assert len(cells) == c["B"] + c["P"]
    assert sum(1 + cell.ties for cell in cells) == (len(outcomes) if cells else 0)
    assert len(bead_plate(outcomes)) == len(outcomes)
    assert sum(column_lengths(outcomes)) == len(cells)


@given(shoes)
def test_every_derived_mark_is_one_big_road_entry_past_the_start_point(outcomes):
    lengths = column_lengths(outcomes)
    for k in DERIVED_ROADS.values():
        # entries of column k from its row 1, and every entry of the columns after it
        past_start = max(lengths[k] - 1, 0) if len(lengths) > k else 0
        past_start += sum(lengths[k + 1:])
        assert len(derived_road(outcomes, k)) == past_start


def textbook_colour(lengths, n, m, k):
    """The rule as dealers learn it: a new column compares the two columns before it (red when
    they are as deep as each other); otherwise look k columns left: red if that column has a
    cell at this row, blue if it has one at the row above but not this one, red if neither."""
    if m == 0:
        return "red" if lengths[n - 1] == lengths[n - 1 - k] else "blue"
    beside = lengths[n - k]
    if beside > m:
        return "red"
    return "blue" if beside == m else "red"


@given(shoes)
def test_derived_colours_follow_the_textbook_rule(outcomes):
    lengths = column_lengths(outcomes)
    for k in DERIVED_ROADS.values():
        expected = []
        for n, length in enumerate(lengths):
            for m in range(length):
                if (m >= 1 and n >= k) or (m == 0 and n >= k + 1):
                    expected.append(textbook_colour(lengths, n, m, k))
        assert derived_colours(outcomes, k) == expected


def _check_grid(positions, keys):
    assert len(set(positions)) == len(positions), "two entries share a cell"
    assert all(0 <= row < ROWS and col >= 0 for col, row in positions)
    starts = []
    for i, ((col, row), key) in enumerate(zip(positions, keys)):
        if i == 0 or key != keys[i - 1]:
            assert row == 0  # a new logical column starts on row 0 ...
            assert not starts or col > starts[-1]  # ... right of the previous one's start
            assert all((c, 0) in positions[:i] for c in range(starts[-1] + 1 if starts else 0, col)), \
                "a start moved right past a free cell"
            starts.append(col)
            turned = False
        else:
            pcol, prow = positions[i - 1]
            down = (col, row) == (pcol, prow + 1)
            right = (col, row) == (pcol + 1, prow)
            assert down or right
            assert not (turned and down), "a dragon tail dropped back down"
            if right and not turned:  # the turn itself: only when the row below is off the grid or taken
                assert prow == ROWS - 1 or (pcol, prow + 1) in positions[:i], "turned right with a free row below"
            turned = turned or right


@given(shoes)
def test_every_road_is_placed_by_the_rules(outcomes):
    cells = big_road(outcomes)
    _check_grid([(c.col, c.row) for c in cells], [c.winner for c in cells])
    for k in DERIVED_ROADS.values():
        marks = derived_road(outcomes, k)
        _check_grid([(m.col, m.row) for m in marks], [m.colour for m in marks])


@given(st.lists(st.sampled_from("RB"), max_size=200))
def test_placement_of_any_sequence(keys):
    _check_grid(place(keys), keys)


@settings(max_examples=200)
@given(shoes)
def test_the_ask_road_is_what_the_next_outcome_adds(outcomes):
    answer = ask(outcomes)
    for winner in "BP":
        after = outcomes + [Outcome(winner)]
        for name, k in DERIVED_ROADS.items():
            before, then = derived_colours(outcomes, k), derived_colours(after, k)
            added = then[-1] if len(then) == len(before) + 1 else None
            assert then[:len(before)] == before
            assert answer[winner][name] == added


@given(outcome)
def test_a_token_reads_back(o):
    assert parse_outcome(str(o)) == o
    assert parse_outcome(str(o).lower()) == o

"""games/clauses.py: compound citations split as the code writes them, and a line for each."""
import pytest

from games.clauses import CLAUSES, citations, lookup, summary
from games.registry import GAME_KEYS, get_game
from games.round import IrregularityKind


@pytest.mark.parametrize("text, keys", [
    ("fafa §5.2", ["fafa §5.2"]),
    ("local ruling L1 (fortune6 §5.2)", ["local ruling L1", "fortune6 §5.2"]),
    ("local ruling L4, fafa §5.4", ["local ruling L4", "fafa §5.4"]),
    ("local ruling L1 (fortune6 §5.2) (ruling 24)", ["local ruling L1", "fortune6 §5.2", "ruling 24"]),
    ("fafa §3.11, §4.1, ruling 5", ["fafa §3.11", "fafa §4.1", "ruling 5"]),
    ("fubacc procedures 6-8, 12-15", [f"fubacc procedure {n}" for n in (6, 7, 8, 12, 13, 14, 15)]),
    ("fubacc way 2; rulings 12-13", ["fubacc way 2", "ruling 12", "ruling 13"]),
    ("paigow §5.5 (ruling 17a)", ["paigow §5.5", "ruling 17a"]),
    ("fortune7 Tie Bet, ruling 8", ["fortune7 Tie Bet", "ruling 8"]),
    ("fortune7 Dealing Procedures and Round of Play", ["fortune7 Dealing Procedures and Round of Play"]),
    ("L3 (fafa §3.2/§5.6, fortune6 §3.2/§5.6)", ["fafa §3.2", "fafa §5.6", "fortune6 §3.2", "fortune6 §5.6"]),
    ("the frame layout (PROTOCOL.md §4)", []),  # a bare section of no game is not a game's clause
])
def test_citations_split_compound_clauses(text, keys):
    assert citations(text) == keys


def test_a_bare_section_takes_the_game_given():
    assert citations("the dealer wins copies (§3.15)", "paigow") == ["paigow §3.15"]
    assert citations("the dealer wins copies (§3.15)") == []


def test_a_sub_clause_is_told_by_its_parent():
    assert lookup("fortune6 §3.9.3") == ("fortune6 §3.9", CLAUSES["fortune6 §3.9"])
    assert lookup("fortune6 §9.1") is None
    assert lookup("ruling 99") is None


def test_summary_says_what_each_citation_says_and_skips_a_borrowing_ruling():
    assert summary("fortune6 §5.1") == CLAUSES["fortune6 §5.1"].says
    assert summary("local ruling L1 (fortune6 §5.2)") == CLAUSES["fortune6 §5.2"].says
    assert summary("local ruling L3 (fubacc procedure 2)") == (
        CLAUSES["local ruling L3"].says + "; " + CLAUSES["fubacc procedure 2"].says)
    assert summary(None) == summary("") == summary("no citation here") == ""


def test_every_clause_a_game_can_cite_has_a_line():
    for key in GAME_KEYS:
        game = get_game(key)
        for kind in IrregularityKind:
            clause = game.rule(kind).clause
            assert summary(clause), f"{key} {kind.value}: {clause} has no summary"


def test_each_line_is_one_line_in_our_words():
    for key, entry in CLAUSES.items():
        assert entry.says and entry.does, key
        assert "\n" not in entry.line and len(entry.says) <= 140, key

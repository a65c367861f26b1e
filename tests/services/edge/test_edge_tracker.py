"""EdgeTracker over records written with Journal (the daemon's record kinds): a line per round
equal to games.live_edge for exactly the cards out, the burn counted, re-dealt cards not counted
twice, a new shoe starting again, a deck-per-round table's fresh deck, and alerts only for wagers
that turn in the players' favour past the margin."""
from fractions import Fraction

import pytest

from controller.journal import Journal
from games.cards import parse_cards
from games.live_edge import live_edge
from services.edge.tracker import EdgeTracker


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as writer:
        yield writer


def card(journal, text, round_no=None, status="dealt", **extra):
    return journal.append("card", {"round": round_no, "card": text, "status": status, "reconstructed": False,
                                   "keyed_in": False, **extra})


def play(journal, round_no, cards, game="fortune7", decks=8, end="settled"):
    journal.append("round_opened", {"round": round_no, "game": game, "decks": decks, "shoe": 1, "spots": []})
    for text in cards:
        card(journal, text, round_no)
    return journal.append(end, {"round": round_no})


def lines_of(tracker, journal):
    return [line for record in journal.records() if (line := tracker.feed(record)) is not None]


def test_a_line_per_round_for_exactly_the_cards_out(journal):
    journal.append("daemon_started", {"game": "fortune7", "decks": 8})
    journal.append("shoe", {"event": "new", "shoe": 1})
    for text in ["5d", "Kc", "9s", "2h", "7h"]:  # a 5: five more burned
        card(journal, text, status="burn")
    journal.append("shoe", {"event": "burn_done", "shoe": 1, "cards": ["Qd"]})  # or listed in the event
    play(journal, 1, ["As", "Kd", "9h", "8c"])
    play(journal, 2, ["6s", "6h", "Tc", "Jd", "4c", "3d"], end="void")
    lines = lines_of(EdgeTracker("fortune7", 8), journal)
    assert [line.round for line in lines] == [None, 1, 2] and [line.shoe for line in lines] == [1, 1, 1]
    assert lines[0].report.edges() == live_edge("fortune7", 8).edges()
    out = parse_cards(["5d", "Kc", "9s", "2h", "7h", "Qd", "As", "Kd", "9h", "8c"])
    assert lines[1].report.edges() == live_edge("fortune7", 8, out).edges() and lines[1].report.cards_left == 406
    assert lines[2].report.cards_left == 400 and not any(line.alerts for line in lines)
    data = lines[2].to_json()
    assert data["round"] == 2 and Fraction(data["edges_exact"]["fortune7"]) == lines[2].report.edges()["fortune7"]
    assert "round 1 " in lines[1].text() and "cards left 406" in lines[1].text()


def test_redealt_cards_count_once_keyed_in_cards_count_unread_ones_do_not(journal):
    journal.append("shoe", {"event": "new", "shoe": 1})
    journal.append("round_opened", {"round": 1, "game": "fortune6", "decks": 8, "shoe": 1, "spots": []})
    card(journal, "As", 1)
    card(journal, None, 1, status="misread")
    card(journal, "As", 1, reconstructed=True)  # dealt again from a hold
    card(journal, "Kd", 1, reconstructed=True, keyed_in=True)  # the unread card, keyed in
    card(journal, "4-gold", 1, status="foreign")  # not a card of this deck: not out of it
    journal.append("settled", {"round": 1})
    line = lines_of(EdgeTracker("fortune6", 8), journal)[-1]
    assert line.report.cards_out == 2 and line.report.edges() == live_edge("fortune6", 8, parse_cards(["As", "Kd"])).edges()


def test_a_new_shoe_and_a_new_game_start_again(journal):
    journal.append("shoe", {"event": "new", "shoe": 1})
    play(journal, 1, ["As", "Kd", "9h", "8c"])
    journal.append("shoe", {"event": "new", "shoe": 2})
    play(journal, 2, ["2s", "3d", "4h", "5c", "6d", "7s"])
    journal.append("daemon_started", {"game": "fafa4", "decks": 6})
    journal.append("shoe", {"event": "new", "shoe": 3})
    lines = lines_of(EdgeTracker("fortune7", 8), journal)
    assert [(line.shoe, line.report.cards_out) for line in lines] == [(1, 0), (1, 4), (2, 0), (2, 6), (3, 0)]
    assert lines[-1].report.game == "fafa4" and lines[-1].report.decks == 6


def test_a_deck_per_round_table_shows_the_fresh_deck_the_next_round_gets(journal):
    journal.append("shoe", {"event": "new", "shoe": 1})
    journal.append("shoe", {"event": "new_deck", "shoe": 1})
    play(journal, 1, ["As", "Kd", "9h", "8c", "7s", "6d"], game="fubacc", decks=1)
    lines = lines_of(EdgeTracker("fubacc", 1), journal)
    assert len(lines) == 1 and lines[0].report.cards_out == 0
    assert lines[0].report.edges() == live_edge("fubacc", 1).edges()
    # the same table with a deck that stays in (deck_per_round off): the six cards are out
    line = lines_of(EdgeTracker("fubacc", 1, deck_per_round=False), journal)[-1]
    assert line.report.cards_out == 6


def test_alerts_name_the_wagers_that_turn_and_not_those_in_the_players_favour_off_the_top(journal):
    journal.append("shoe", {"event": "new", "shoe": 1})
    eights_and_nines = [f"{r}{s}" for r in "89" for s in "shdc" for _ in range(8)]  # every 8 and 9: no draw
    for n in range(16):
        play(journal, n + 1, eights_and_nines[4 * n:4 * n + 4], game="fortune6")
    lines = lines_of(EdgeTracker("fortune6", 8), journal)
    assert lines[0].report.edges()["banker"] < 0  # no commission (ruling 10): the players' off the top
    assert all("banker" not in line.alerts for line in lines)
    assert set(lines[-1].alerts) == {"player_pair", "banker_pair", "fortune6"}  # without naturals: more draws
    strict = lines_of(EdgeTracker("fortune6", 8, margin=Fraction(1, 2)), journal)
    assert not any(line.alerts for line in strict)  # nothing beyond a 50% edge
    text = lines[-1].text()
    assert "ALERT fortune6 round 16: fortune6 house edge -9.542%" in text and "with 352 cards left" in text


def test_an_unknown_game_is_refused():
    with pytest.raises(ValueError, match="unknown game 'craps'"):
        EdgeTracker("craps", 8)

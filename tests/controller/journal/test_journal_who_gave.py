"""Who gave each command, as recall reads it from a real journal: an input's record (a socket
`command` or a panel `device` record, with `by`) is followed in the same commit by the
records the table wrote for it, so each round lists the commands that touched it and a void
names who gave the command it followed."""
from cli.recall import by_text, round_text
from controller.journal import last_rounds

ALICE = {"source": "socket", "uid": 1000, "user": "alice", "pid": 4242}
NAMELESS = {"source": "socket", "uid": 64012, "user": None, "pid": 77}


def panel(button: int, command: str) -> dict:
    return {"device": "panel", "event": "ButtonPressed", "button": button, "command": command,
            "by": {"source": "panel", "button": button}}


def write(journal) -> None:
    journal.append_many([
        ("device", panel(5, "new_shoe"), None, False),
        ("shoe", {"event": "new", "shoe": 1}, None, False),
        ("daemon_started", {"pid": 1}, None, False),  # not a command: what follows names nobody
        ("command", {"name": "place_bets", "args": {}, "source": "socket", "client": 1, "by": ALICE}, None, False),
        ("round_opened", {"round": 1, "game": "fortune6", "decks": 8, "shoe": 1}, None, False),
        ("device", panel(2, "no_more_bets"), None, False),
        ("bets_closed", {"round": 1}, None, False),
        ("device", {"device": "shoe", "event": "CardDrawn", "code": 281}, None, False),  # no `by`: a card
        ("card", {"round": 1, "card": "9h", "hand": "player", "position": 0}, None, False),
        ("device", {"device": "panel", "event": "KeyTurned", "on": True, "by": {"source": "panel", "key": "on"}},
         None, False),
        ("command", {"name": "void", "args": {"kind": "order_altered"}, "source": "socket", "client": 2,
                     "by": NAMELESS}, None, False),
        ("void", {"round": 1, "clause": "fortune6 §5.4", "reason": "seen"}, None, True),
        ("timer_expired", {"name": "card_timeout"}, None, False),
    ])


def test_each_round_lists_the_commands_that_touched_it_and_who_voided_it(journal, journal_path):
    write(journal)
    [view] = last_rounds(journal_path)
    assert [(c["command"], c["by"]) for c in view.commands] == [
        ("place_bets", ALICE), ("no_more_bets", {"source": "panel", "button": 2}), ("void", NAMELESS)]
    assert view.voided_by == NAMELESS
    assert view.to_json()["voided_by"] == NAMELESS
    text = round_text(view)
    assert "  VOID     fortune6 §5.4: seen (by uid 64012 (pid 77))" in text
    assert "  given    place_bets (alice (uid 1000, pid 4242)) · no_more_bets (panel button 2) · " \
           "void (uid 64012 (pid 77))" in text


def test_who_in_words():
    assert by_text({"source": "panel", "button": 6}) == "panel button 6"
    assert by_text({"source": "panel", "key": "on"}) == "panel key"
    assert by_text(ALICE) == "alice (uid 1000, pid 4242)"

"""restart_records(): only the tail of the journal a restart needs, and folding it gives what
folding the whole journal gives (the table's own fold, controller/table's TableRecovery);
recover() reads the table's shoe events (new_deck, burn_done, an ignored cut card)."""

import pytest

from cli.recall import round_text
from controller.journal import JournalTail, Recovery, last_rounds, read_tail, recover, restart_records
from controller.table.recovery import TableRecovery


def brief(number, drawn, state="in_play"):
    return {"number": number, "state": state, "drawn": drawn, "unknown": 0, "burned": 0, "burn_remaining": 0,
            "burn_card": None, "cut_card_seen": False, "rounds_left": None, "draw_counter": drawn}


def card(journal, round_no, text, code, counter, status="dealt", hand="player", position=0, **extra):
    journal.append("card", {"round": round_no, "card": text, "code": code, "draw_counter": counter, "double_draw": False,
                            "misread": text is None, "status": status, "hand": hand if status == "dealt" else None,
                            "position": position if status == "dealt" else None, "reconstructed": False,
                            "keyed_in": False, "shoe_state": brief(1, counter), **extra})


def long_history(journal, rounds_before=30):
    """Settings set early, a first shoe of many rounds, a second shoe, a round in progress."""
    journal.append("spots", {"spots": [1, 3]})
    journal.append("player_dealer", {"event": "offered", "seat": 2, "hands_left": 2, "offer_from": 1})
    journal.append("shoe", {"event": "new", "shoe": 1, "shoe_state": brief(1, 0, "burning")})
    card(journal, None, "5s", 0x0105, 1, status="burn")
    journal.append("shoe", {"event": "burn_done", "shoe": 1, "shoe_state": brief(1, 6)})
    counter = 6
    for n in range(1, rounds_before + 1):
        journal.append("round_opened", {"round": n, "game": "fortune6", "decks": 8, "shoe": 1, "spots": []})
        journal.append("bets_closed", {"round": n})
        for k in range(4):
            counter += 1
            card(journal, n, "As", 0x0101, counter, hand=("player", "banker")[k % 2], position=k // 2)
        journal.append("result", {"round": n, "winner": "banker", "hands": {}, "bets": {}}, durable=True)
        journal.append("settled", {"round": n}, durable=True)
    journal.append("shoe", {"event": "cut_card", "shoe": 1, "ignored": "no round open", "shoe_state": brief(1, counter)})
    journal.append("shoe", {"event": "finished", "shoe": 1, "shoe_state": brief(1, counter, "finished")})
    journal.append("shoe", {"event": "new_deck", "shoe": 2, "shoe_state": brief(2, 0, "in_play")})
    n = rounds_before + 1
    journal.append("round_opened", {"round": n, "game": "fortune6", "decks": 8, "shoe": 2, "spots": []})
    journal.append("bets_closed", {"round": n})
    card(journal, n, "9h", 0x0109, 1, hand="player")
    card(journal, n, None, 0x0000, 2, status="misread")
    card(journal, n, "Kd", 0x010D, 2, hand="banker", reconstructed=True, keyed_in=True)
    return journal


def pairs(records):
    return [(r.kind, dict(r.payload)) for r in records]


def test_the_tail_folds_to_the_same_recovery_as_the_whole_journal(journal):
    long_history(journal)
    everything = list(journal.records())
    tail = restart_records(journal)
    assert len(tail) < len(everything) // 10
    assert [r.kind for r in tail[:2]] == ["spots", "player_dealer"]
    assert TableRecovery.from_journal(pairs(tail)) == TableRecovery.from_journal(pairs(everything))
    assert TableRecovery.from_journal(pairs(tail)).last_round == 31


def test_the_tail_when_a_round_began_before_the_shoe(journal, journal_path):
    journal.append("shoe", {"event": "new", "shoe": 1, "shoe_state": brief(1, 0)})
    journal.append("round_opened", {"round": 1, "game": "paigow", "decks": 1, "shoe": 1, "spots": [1]})
    journal.append("shoe", {"event": "new_deck", "shoe": 2, "shoe_state": brief(2, 0)})
    tail = restart_records(journal_path)
    assert [r.seq for r in tail] == [2, 3]
    assert TableRecovery.from_journal(pairs(tail)) == TableRecovery.from_journal(pairs(journal.records()))


@pytest.mark.parametrize("rounds_before", [0, 1, 30])
def test_recover_folds_the_same_tail_to_what_the_whole_journal_says(journal, rounds_before):
    long_history(journal, rounds_before)
    everything = tuple(journal.records())
    tail = read_tail(journal)
    assert tail.records == tuple(restart_records(journal)) and tail.last_seq == everything[-1].seq
    whole = Recovery.from_tail(JournalTail(tail.last_seq, everything))
    assert recover(journal).to_json() == whole.to_json()
    assert TableRecovery.from_tail(tail) == TableRecovery.from_journal(pairs(everything))


def test_an_empty_journal_needs_nothing(journal):
    assert restart_records(journal) == []


def test_recover_reads_the_tables_shoe_events(journal, journal_path):
    long_history(journal)
    state = recover(journal_path)
    assert (state.shoe.number, state.shoe.cards, state.shoe.cards_dealt) == (2, ("9h", "Kd"), 2)
    assert (state.shoe.burn_done, state.shoe.cut_card_seen, state.shoe.last_draw_counter) == (False, False, 2)
    journal.append("shoe", {"event": "burn_done", "shoe": 2})
    journal.append("shoe", {"event": "cut_card", "shoe": 2})
    shoe = recover(journal_path).shoe
    assert (shoe.burn_done, shoe.cut_card_seen) == (True, True)


@pytest.mark.parametrize("cards, text", [
    ([{"card": "9h", "status": "dealt", "hand": "player"}], "9h (player)"),
    ([{"card": None, "status": "misread"}], "?? (misread)"),
    ([{"card": "Kd", "status": "dealt", "hand": "banker", "reconstructed": True, "keyed_in": True}], "Kd (banker, keyed in)"),
    ([{"card": "Qs", "status": "dealt", "hand": "banker", "reconstructed": True}], "Qs (banker, again)"),
    ([{"card": "2s", "status": "extra"}], "2s (extra)"),
    ([{"card": "3s"}], "3s (?)"),
])
def test_recall_says_what_became_of_each_card(journal, journal_path, cards, text):
    journal.append("round_opened", {"round": 1, "game": "fortune6", "decks": 8})
    for fields in cards:
        journal.append("card", {"round": 1, "code": 0x0101, **fields})
    [view] = last_rounds(journal_path)
    assert round_text(view).splitlines()[1] == f"  cards    {text}"

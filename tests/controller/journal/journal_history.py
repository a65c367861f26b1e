"""A table's history written the way the daemon will write it (record kinds and payloads
as docs/journal.md lists them), shared by the journal tests."""


RESULT_ROUND_1 = {
    "winner": "banker",
    "hands": {"player": {"cards": ["As", "9h"], "total": 0}, "banker": {"cards": ["Kd", "8c"], "total": 8}},
    "bets": {"player": {"result": "lose", "pays": None}, "banker": {"result": "win", "pays": "1:1"},
             "tie": {"result": "lose", "pays": None}},
    "lamps": {"banker": "on"},
}


def deal(journal, round_no, cards, start_counter, *, hands=("player", "banker")):
    for i, card in enumerate(cards):
        journal.append("card", {"round": round_no, "card": card, "code": 0x0101, "hand": hands[i % len(hands)],
                                "position": i // len(hands), "draw_counter": start_counter + i})


def write_history(journal):
    """Shoe 1 burned; round 1 settled, round 2 void (extra card), round 3 decided but not
    settled, the cut card, round 4 open with two cards. 26 records."""
    journal.append("daemon_started", {"version": "test"})
    journal.append("shoe", {"event": "new", "shoe": 1, "cards_dealt": 0})
    journal.append("shoe", {"event": "burn", "shoe": 1, "cards": ["3s", "Ah", "2c", "7d"], "cards_dealt": 4})
    journal.append("round_opened", {"round": 1, "game": "fortune6", "decks": 8, "shoe": 1})
    journal.append("bets_closed", {"round": 1})
    deal(journal, 1, ["As", "Kd", "9h", "8c"], 5)
    journal.append("result", {"round": 1, **RESULT_ROUND_1}, durable=True)
    journal.append("settled", {"round": 1})
    journal.append("round_opened", {"round": 2, "game": "fortune6", "decks": 8, "shoe": 1})
    journal.append("bets_closed", {"round": 2})
    deal(journal, 2, ["5s", "5h"], 9)
    journal.append("device", {"round": 2, "device": "shoe", "event": "card", "code": 0x0102})
    journal.append("irregularity", {"round": 2, "kind": "extra_card", "clause": "fortune6 §5.1", "consequence": "void",
                                    "detail": "a card after the round was complete", "evidence": {"card": "2s"}})
    journal.append("void", {"round": 2, "clause": "fortune6 §5.1", "reason": "extra card", "evidence": {"cards": ["5s", "5h", "2s"]}},
                   durable=True)
    journal.append("round_opened", {"round": 3, "game": "fortune6", "decks": 8, "shoe": 1})
    deal(journal, 3, ["4s", "4h"], 11)
    journal.append("result", {"round": 3, "winner": "tie", "hands": {}, "bets": {}, "lamps": {}}, durable=True)
    journal.append("shoe", {"event": "cut_card", "shoe": 1})
    journal.append("round_opened", {"round": 4, "game": "fortune6", "decks": 8, "shoe": 1})
    deal(journal, 4, ["Qs", "Jd"], 13)
    return journal

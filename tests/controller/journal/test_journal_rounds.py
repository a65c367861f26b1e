"""Recall (the last N rounds), recovery (after a restart) and export, read from a real
journal file holding a table's history written the way the daemon writes it."""
import hashlib
import io
import json

import pytest
from journal_history import RESULT_ROUND_1, write_history

from controller.journal import GENESIS, ShoeState, export_jsonl, last_rounds, recover


@pytest.fixture
def history(journal, journal_path):
    return write_history(journal)


def test_recall_groups_the_last_rounds_oldest_first(history, journal_path):
    rounds = last_rounds(journal_path)
    assert [(r.round, r.status) for r in rounds] == [(1, "settled"), (2, "void"), (3, "decided"), (4, "open")]
    first = rounds[0]
    assert [(c.card, c.hand, c.position, c.draw_counter) for c in first.cards] == [
        ("As", "player", 0, 5), ("Kd", "banker", 0, 6), ("9h", "player", 1, 7), ("8c", "banker", 1, 8)]
    assert (first.game, first.decks, first.shoe, first.bets_closed, first.settled) == ("fortune6", 8, 1, True, True)
    assert first.result == RESULT_ROUND_1
    void = rounds[1]
    assert void.void == {"clause": "fortune6 §5.1", "reason": "extra card", "evidence": {"cards": ["5s", "5h", "2s"]}}
    assert [i["kind"] for i in void.irregularities] == ["extra_card"] and void.other == {"device": 1}
    assert rounds[3].result is None and not rounds[3].finished


def test_recall_takes_the_last_n(history, journal_path):
    assert [r.round for r in last_rounds(journal_path, 2)] == [3, 4]
    with pytest.raises(ValueError, match="n must be at least 1, got 0"):
        last_rounds(journal_path, 0)


def test_recall_of_an_empty_journal_is_empty(journal, journal_path):
    assert last_rounds(journal_path) == []


def test_recall_json_is_plain_json(history, journal_path):
    out = [r.to_json() for r in last_rounds(journal_path)]
    assert json.loads(json.dumps(out)) == out
    assert out[1]["status"] == "void" and out[0]["cards"][0]["card"] == "As"


def test_recovery_after_the_history(history, journal_path):
    state = recover(journal_path)
    assert (state.last_seq, state.last_round, state.next_round) == (26, 4, 5)
    assert state.interrupted.round == 4 and [c.card for c in state.interrupted.cards] == ["Qs", "Jd"]
    assert state.shoe == ShoeState(
        number=1, cards=("3s", "Ah", "2c", "7d", "As", "Kd", "9h", "8c", "5s", "5h", "4s", "4h", "Qs", "Jd"),
        cards_dealt=14, burn_done=True, cut_card_seen=True, rounds_after_cut=1, finished=False, last_draw_counter=14)
    assert recover(history).to_json() == state.to_json()  # the writer's own connection agrees


def test_a_decided_round_is_reported_with_its_result_not_as_open(journal, journal_path):
    journal.append("round_opened", {"round": 1, "game": "fortune6", "decks": 8})
    journal.append("result", {"round": 1, "winner": "tie"}, durable=True)
    interrupted = recover(journal_path).interrupted
    assert interrupted.status == "decided" and interrupted.result == {"winner": "tie"}


def test_a_finished_last_round_leaves_nothing_interrupted(journal, journal_path):
    journal.append("round_opened", {"round": 7, "game": "fortune6", "decks": 8})
    journal.append("void", {"round": 7, "clause": "local ruling L3", "reason": "card before no more bets"}, durable=True)
    state = recover(journal_path)
    assert (state.last_round, state.next_round, state.interrupted) == (7, 8, None)


def test_a_new_shoe_starts_the_count_again_and_misreads_count_once(history, journal_path):
    history.append("shoe", {"event": "finished", "shoe": 1})
    assert recover(journal_path).shoe.finished
    history.append("shoe", {"event": "new", "shoe": 2})
    history.append("round_opened", {"round": 5, "game": "fortune6", "decks": 8, "shoe": 2})
    history.append("card", {"round": 5, "card": None, "code": 0, "hand": "player", "position": 0, "draw_counter": 1})
    history.append("card", {"round": 5, "card": "Ts", "code": 0x010A, "hand": "player", "position": 0, "draw_counter": 1,
                            "reconstructed": True})
    shoe = recover(journal_path).shoe
    assert (shoe.number, shoe.cards, shoe.cards_dealt, shoe.burn_done, shoe.cut_card_seen, shoe.finished) == (
        2, ("Ts",), 1, False, False, False)


def test_recovery_of_an_empty_journal(journal, journal_path):
    state = recover(journal_path)
    assert (state.last_seq, state.last_round, state.next_round, state.interrupted, state.shoe) == (
        0, 0, 1, None, ShoeState(number=None))


def test_export_is_one_record_a_line_and_rehashable_by_anyone(history, journal_path):
    out = io.StringIO()
    assert export_jsonl(journal_path, out) == 26
    prev = GENESIS
    for line in out.getvalue().splitlines():
        row = json.loads(line)
        payload_text = json.dumps(row["payload"], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        chained = json.dumps([prev, row["seq"], row["at"], row["mono_ns"], row["kind"], row["round"], payload_text],
                             separators=(",", ":"), ensure_ascii=False)
        assert (row["prev_hash"], hashlib.sha256(chained.encode()).hexdigest()) == (prev, row["hash"])
        prev = row["hash"]
    tail = io.StringIO()
    assert export_jsonl(journal_path, tail, since=24) == 2
    assert [json.loads(line)["seq"] for line in tail.getvalue().splitlines()] == [25, 26]

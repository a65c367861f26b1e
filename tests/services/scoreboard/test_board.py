"""The board folded from a real journal (SQLite, written the way the daemon writes it): the roads
are the roads of the decided rounds, a void takes its round off and raises the banner with its
clause, a new shoe starts afresh, the round in progress shows its cards as dealt and its holds,
and Fu Bacc / Pai Gow keep each spot's result and the recent rounds."""
from __future__ import annotations

import pytest
from journal_script import HANDS, TableScript

from controller.journal import Journal, iter_records, open_readonly
from games.baccarat.roads import parse_outcomes, roads
from services.scoreboard.board import BOARD, ROUND, Board


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        yield journal


def folded(journal, board: Board | None = None, game: str = "fortune6") -> Board:
    board = board or Board(game, "Table 7")
    with open_readonly(journal.path) as conn:
        for record in iter_records(conn, board.seq):
            board.apply(record)
    return board


def play(table: TableScript, token: str) -> None:
    player, banker = HANDS[token]
    table.play(token[0], player, banker)


def test_the_roads_are_those_of_the_decided_rounds(journal):
    table = TableScript(journal)
    table.new_shoe(1)
    tokens = ["B", "B", "P+pp", "T", "B+bp", "B6", "P", "P", "T", "B"]
    for token in tokens:
        play(table, token)
    board = folded(journal).board_json()
    # B6 is a banker win on a pair of 3s: B+bp on the roads
    expected = roads(parse_outcomes(["B", "B", "P+pp", "T", "B+bp", "B+bp", "P", "P", "T", "B"]))
    assert [(c["col"], c["row"], c["winner"], c["ties"]) for c in board["big_road"]] == \
        [(c["col"], c["row"], c["winner"], c["ties"]) for c in expected["big_road"]]
    for road in ("bead_plate", "big_eye_boy", "small_road", "cockroach_pig", "ask", "counts"):
        assert _without_rounds(board[road]) == expected[road], road
    assert [b["round"] for b in board["bead_plate"]] == list(range(1, 11))
    # naturals: B (9) three times, P+pp (8), B+bp (8), P (9) twice; B6 (5 v 6) and T (7 v 7) are not
    assert board["game_counts"] == {"naturals": 7, "fortune_six": 1}
    assert board["counts"]["banker_pair"] == 2 and board["counts"]["player_pair"] == 1
    assert (board["game"], board["shoe"], board["round"], board["table"]) == ("fortune6", 1, 10, "Table 7")
    last = board["last_result"]
    assert last["round"] == 10 and last["winner"] == "banker"
    assert last["hands"] == {"player": {"cards": ["Ks", "5h"], "total": 5}, "banker": {"cards": ["9c", "Qd"], "total": 9}}


def _without_rounds(entries):
    if isinstance(entries, list):
        return [{k: v for k, v in e.items() if k != "round"} for e in entries]
    return entries


def test_a_void_after_the_result_takes_the_round_off_the_roads_with_its_clause(journal):
    table = TableScript(journal)
    table.new_shoe(1)
    for token in ("B", "P", "B"):
        play(table, token)
    board = folded(journal)
    before = board.board_json()
    # round 4: a result, then an extra card (§5.2 hold) and the supervisor's void before round 5 opens
    table.open()
    table.deal(*HANDS["P"])
    table.result("P", *HANDS["P"])
    assert [c["winner"] for c in folded(journal, board).board_json()["big_road"]] == ["B", "P", "B", "P"]
    table.card("4h", None, None, status="extra")
    table.irregularity("extra_card", "fortune6 §5.2", "hold", "4h is card 5; the Table of Play completed the round after 4")
    assert board.apply(list(_records_after(journal, board.seq))[0]) == set()  # the extra card is on no hand
    folded(journal, board)
    assert board.round_json()["state"] == "held" and board.round_json()["hold"]["clause"] == "fortune6 §5.2"
    table.void("extra_card", "fortune6 §5.2", "the hand cannot be reconstructed", by="supervisor")
    after = folded(journal, board).board_json()
    assert after["big_road"] == before["big_road"] and after["counts"] == before["counts"]
    assert after["banner"]["round"] == 4 and after["banner"]["clause"] == "fortune6 §5.2"
    assert after["banner"]["after_result"] is True
    assert after["last_result"]["round"] == 3  # the voided result is no longer the last one
    assert board.round_json()["state"] == "void" and board.round_json()["result"] is None
    # the next round's result ends the banner; the void stays listed for the shoe
    play(table, "T")
    later = folded(journal, board).board_json()
    assert later["banner"] is None and [v["round"] for v in later["voids"]] == [4]
    assert later["big_road"][-1]["ties"] == 1


def _records_after(journal, seq):
    with open_readonly(journal.path) as conn:
        yield from iter_records(conn, seq)


def test_a_void_mid_round_raises_the_banner_and_leaves_the_roads(journal):
    table = TableScript(journal)
    table.new_shoe(1)
    play(table, "B")
    table.open()
    table.card("2d", "player", 0)
    table.irregularity("order_altered", "fortune6 §5.4", "void", "the shoe door was opened mid-round")
    table.void("order_altered", "fortune6 §5.4", "the shoe door was opened mid-round")
    board = folded(journal).board_json()
    assert len(board["big_road"]) == 1
    assert board["banner"] == {"round": 2, "clause": "fortune6 §5.4", "reason": "the shoe door was opened mid-round",
                               "kind": "order_altered", "by": "table", "after_result": False,
                               "seq": board["banner"]["seq"]}


def test_a_new_shoe_starts_a_new_board(journal):
    table = TableScript(journal)
    table.new_shoe(1)
    for token in ("B", "P", "P"):
        play(table, token)
    table.open()
    table.void("order_altered", "fortune6 §5.4", "door")
    board = folded(journal)
    table.new_shoe(2)
    assert board.apply(list(_records_after(journal, board.seq))[0]) == {BOARD}
    play(table, "T")
    now = folded(journal, board).board_json()
    assert now["shoe"] == 2 and now["big_road"] == [] and now["counts"]["T"] == 1
    assert now["voids"] == [] and now["banner"] is None


def test_a_board_that_starts_mid_shoe_takes_the_shoe_from_the_round(journal):
    table = TableScript(journal, shoe=5)
    play(table, "B")
    board = folded(journal).board_json()
    assert board["shoe"] == 5 and len(board["big_road"]) == 1


def test_the_round_in_progress_card_by_card(journal):
    table = TableScript(journal)
    table.new_shoe(1)
    board = folded(journal)
    table.open()
    changes = [board.apply(r) for r in _records_after(journal, board.seq)]
    assert changes == [{ROUND}, {ROUND}]
    assert board.round_json()["state"] == "dealing"
    table.card("9c", "player", 0)
    table.card(None, None, None, status="misread")  # unread: on no hand until it is keyed in
    table.irregularity("misread", "local ruling L5", "hold", "card 2 (banker) left the shoe unread")
    folded(journal, board)
    live = board.round_json()
    assert live["hands"] == {"player": ["9c"], "banker": []} and live["totals"] == {"player": 9, "banker": None}
    assert live["state"] == "held" and live["hold"] == {"kind": "misread", "clause": "local ruling L5", "consequence": "hold",
                                                         "detail": "card 2 (banker) left the shoe unread"}
    table.resumed("misread", "local ruling L5")
    table.card("Kd", "banker", 0, keyed_in=True, reconstructed=True)
    table.card("Ks", "player", 1)
    table.card("Kd", "banker", 1)
    folded(journal, board)
    live = board.round_json()
    assert live["state"] == "dealing" and live["hold"] is None
    assert live["hands"] == {"player": ["9c", "Ks"], "banker": ["Kd", "Kd"]} and live["totals"] == {"player": 9, "banker": 0}
    table.result("P", "9c Ks", "Kd Kd")
    folded(journal, board)
    assert board.round_json()["state"] == "decided" and board.round_json()["result"]["winner"] == "player"
    table.settle()
    folded(journal, board)
    assert board.round_json()["state"] == "settled"
    assert len(board.round_json()["irregularities"]) == 1


def test_game_counts_of_each_baccarat_game(journal):
    fafa = TableScript(journal, game="fafa4")
    fafa.new_shoe(1)
    fafa.play("T", "4-fire 4-gold", "4-wood 4-water")  # Element Eights
    fafa.play("P", "A-fire 3-fire 10-fire", "10-gold S-gold 3-wood")  # player wins with 4: a Fabulous 4
    board = folded(journal, game="fafa4").board_json()
    assert board["game_counts"] == {"naturals": 1, "element_eights": 1, "fabulous4": 1}
    assert board["last_result"]["events"] == ["fabulous4"]


def spot_result(table: TableScript, wins: dict[int, str]) -> None:
    table.append("result", {
        "round": table.round, "game": table.game, "winner": None, "bets": {},
        "hands": {"dealer": {"cards": ["3s", "9h", "6c"], "total": 8}},
        "spots": {str(spot): {"bets": {"ante": {"result": result, "pays": None}}, "decision": "play,stay",
                              "hand": {"cards": ["2s", "6h"], "total": 8}} for spot, result in wins.items()}},
        durable=True)


def test_spot_games_keep_each_spots_result_and_the_recent_rounds(journal):
    table = TableScript(journal, game="fubacc")
    for n in range(25):
        table.open(spots=[1, 4])
        table.card("3s", "spot1", 0)
        spot_result(table, {1: "win", 4: "lose" if n % 2 else "push"})
        table.settle()
    table.open(spots=[2])
    table.void("foreign_card", "local ruling L2 (fafa §5.1)", "a card of another deck")
    board = folded(journal, game="fubacc")
    state = board.board_json()
    assert state["has_roads"] is False and "big_road" not in state
    assert [entry["round"] for entry in state["history"]] == list(range(7, 27))  # the last 20
    assert state["history"][-1]["void"]["clause"] == "local ruling L2 (fafa §5.1)"
    assert state["last_result"]["round"] == 25
    assert state["last_result"]["spots"]["1"]["main"] == "win" and state["last_result"]["main_wager"] == "ante"
    assert state["banner"]["round"] == 26


def test_another_game_starts_a_new_board(journal):
    table = TableScript(journal)
    table.new_shoe(1)
    play(table, "B")
    board = folded(journal)
    other = TableScript(journal, game="fubacc")
    other.round = table.round
    other.open(spots=[3])
    folded(journal, board)
    assert board.board_json()["game"] == "fubacc" and board.board_json()["has_roads"] is False


def test_a_record_the_board_cannot_read_is_noted_not_fatal(journal):
    table = TableScript(journal)
    table.new_shoe(1)
    table.open()
    table.append("result", {"round": 1, "winner": "banker", "hands": {"player": {"cards": ["Zz", "5h"]},
                                                                      "banker": {"cards": ["9c", "Qd"]}}})
    play(table, "P")
    board = folded(journal).board_json()
    assert len(board["problems"]) == 1 and "'Zz'" in board["problems"][0]
    assert [c["winner"] for c in board["big_road"]] == ["P"]

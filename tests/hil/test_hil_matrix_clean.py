"""Clean play for every game through the real daemon and the simulators on ptys.

Shoe games (fafa4, fortune7, fortune6): a whole 8-deck shoe, burn to cut card: the cut card
comes out, one more round is played with the last-round lamp on, then the shoe is finished
("Place your bets" refused, the new-shoe lamp blinks) until a new shoe is declared. Fortune 7's
player-dealer position moves on every two hands and its seat lamp follows.
Deck-per-round games (fubacc, paigow): several rounds, each from a fresh deck, with several
live spots and every kind of decision.

Every round: its result on the board (the daemon's whole picture), journaled once, settled,
no irregularity; `recall` shows the rounds; the chain verifies."""
import pytest
from hil_matrix import baccarat, expect_result_on_the_board, journaled, spot_games

pytestmark = pytest.mark.hil
MOST_ROUNDS_IN_A_SHOE = 120  # 8 decks of 52 or 65 cards hold fewer rounds than this
DECKS_DEALT = 6
SPOTS = {"fubacc": [[1, 3, 5], [2, 7], [1, 2, 3, 4, 5, 6, 7]], "paigow": [[1, 2, 3, 4, 5, 6], [2, 5], [1]]}


def fubacc_decision(spot: int, options: list) -> str:
    """Spot 1 folds, spot 2 plays and hits, others take the bonus when offered, else play and stay."""
    if spot == 1 and "fold" in options:
        return "fold"
    if "bonus" in options:
        return "bonus"
    if "play" in options:
        return "play"
    return "hit" if spot == 2 else "stay"


def settled_cleanly(rig, result: dict) -> None:
    expect_result_on_the_board(rig, result)
    number = result["round"]
    assert len(journaled(rig, "result", number)) == 1 and len(journaled(rig, "settled", number)) == 1


@baccarat
def test_a_whole_shoe_to_the_cut_card_one_more_round_and_finished(table, game):
    rig = table
    shoe = rig.new_shoe(seed=7)
    assert shoe["state"] == "in_play" and shoe["burned"] >= 2
    number = shoe["number"]
    results, cut_round, holders = [], None, []
    for _ in range(MOST_ROUNDS_IN_A_SHOE):
        if rig.status()["shoe"]["state"] == "finished":
            break
        last_round = cut_round is not None
        mark = rig.events.mark()
        number_open = rig.open_round()
        rig.wait_lamps({"last_round": "on" if last_round else "off", "bets_open": "off", "no_more_bets": "on"})
        result = rig.finish_round()
        assert result["event"] == "result", result
        settled_cleanly(rig, result)
        results.append(result)
        if rig.events.find("shoe", after=mark, what="cut_card") is not None:
            assert cut_round is None, "the cut card came out twice"
            cut_round = number_open
        if game == "fortune7":
            holders.append(rig.status()["player_dealer"]["seat"])
    assert cut_round is not None and results[-1]["round"] == cut_round + 1  # one more round after the cut card
    status = rig.status()
    assert status["shoe"]["state"] == "finished" and status["shoe"]["number"] == number
    rig.wait_lamps({"new_shoe": "slow", "last_round": "off"})
    refused = rig.press("place_bets")
    assert not refused["ok"] and "new_shoe" in refused["message"], refused
    shoe_events = [r.payload["event"] for r in journaled(rig, "shoe") if r.payload["shoe"] == number]
    assert shoe_events.count("cut_card") == 1 and shoe_events[-1] == "finished"
    if game == "fortune7":  # the position moves on every two settled hands, clockwise
        moves = [i for i in range(1, len(holders)) if holders[i] != holders[i - 1]]
        assert len(moves) >= 20 and {later - earlier for earlier, later in zip(moves, moves[1:])} == {2}, holders
        assert all(holders[i] == holders[i - 1] % 7 + 1 for i in moves), holders
    assert not [r for r in rig.records() if r.kind in ("irregularity", "void", "error")
                and r.round in {res["round"] for res in results}]
    views = rig.recall(last=len(results))
    assert [v.round for v in views] == [r["round"] for r in results]
    assert all(v.status == "settled" for v in views)
    assert rig.verify().ok
    next_shoe = rig.new_shoe()
    assert next_shoe["number"] == number + 1
    settled_cleanly(rig, rig.play_round())


@spot_games
def test_several_decks_each_round_from_a_fresh_deck(table, game):
    rig = table
    decide = fubacc_decision if game == "fubacc" else None
    results = []
    for n in range(DECKS_DEALT):
        spots = SPOTS[game][n % len(SPOTS[game])]
        mark = rig.events.mark()
        result = rig.play_round(decide=decide, spots=spots)
        assert result["event"] == "result", result
        settled_cleanly(rig, result)
        assert rig.events.find("shoe", after=mark, what="new_deck") is not None
        assert sorted(int(spot) for spot in result["spots"]) == spots
        board = rig.lamps()
        assert {f"spot{s}" for s in spots} == {name for name, p in board.items() if p == "on" and "_" not in name
                                               and name.startswith("spot")}
        results.append(result)
    if game == "fubacc":
        decisions = {d for result in results for _, d in result["decisions"]}
        assert {"fold", "play", "stay", "hit"} <= decisions, decisions
    numbers = [r["round"] for r in results]
    assert [v.round for v in rig.recall(last=DECKS_DEALT)] == numbers
    assert not [r for r in rig.records() if r.kind in ("irregularity", "void", "error") and r.round in numbers]
    assert rig.verify().ok

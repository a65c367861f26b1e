"""The dealer's and the supervisor's side, for every game, through the real daemon and the
simulators on ptys: a hand with the wrong number of cards (the dealer's misdeal button ->
held -> the supervisor reconstructs or voids), the void refused without the key, the shoe door
opened and the shoe removed mid-round (order altered), and bad input that must not stop the
daemon (an unknown button id, garbage and damaged frames on the wires, bad socket requests).
Each checks the stream, the lamp board, the journal and the next round (hil_matrix)."""
import pytest
from hil_matrix import (
    clause,
    complete,
    consequence,
    deal_some,
    deal_until,
    every_game,
    expect_held,
    expect_result_on_the_board,
    expect_void,
    journaled,
    next_round_is_clean,
    supervisor,
)

pytestmark = pytest.mark.hil

WRONG_HAND_SIZE = {"fafa4": "fafa §5.2", "fortune7": "local ruling L1 (fortune6 §5.2)", "fortune6": "fortune6 §5.2",
                   "fubacc": "local ruling L2 (fafa §5.2)", "paigow": "paigow §5.2"}
ORDER_ALTERED = {"fafa4": "fafa §5.4", "fortune7": "local ruling L1 (fortune6 §5.4)", "fortune6": "fortune6 §5.4",
                 "fubacc": "local ruling L2 (fafa §5.4)", "paigow": "paigow §5.2"}


@every_game
@pytest.mark.parametrize("resolution", ["reconstruct", "void"])
def test_the_dealers_misdeal_holds_then_the_supervisor_decides(table, game, resolution):
    rig, before = table, table.records()
    number, _, mark = deal_some(rig, 2)
    wanted = clause(game, "wrong_hand_size")
    assert wanted == WRONG_HAND_SIZE[game]
    answer = rig.press("misdeal")
    assert answer["ok"] and answer["message"] == f"round {number}: hold ({wanted})"
    held = expect_held(rig, mark, number, "wrong_hand_size", wanted, "confirm")
    assert held["void_clause"] == wanted
    assert not rig.press("misdeal")["ok"]  # already held: the supervisor resolves it first
    if resolution == "void":
        answer = supervisor(rig, "void")
        assert answer["ok"] and answer["message"] == f"round {number} void ({wanted})"
        expect_void(rig, mark, number, "wrong_hand_size", wanted, by="supervisor")
    else:
        answer = supervisor(rig, "reconstruct")
        assert answer["message"] == f"round {number} resumed (the supervisor confirmed the hands as reconstructed)"
        resumed = rig.events.wait_for("resumed", after=mark, round=number)
        assert resumed["state"] == "dealing" and resumed["clause"] == wanted
        expect_result_on_the_board(rig, complete(rig, mark, number), number)
    next_round_is_clean(rig, before)


@every_game
def test_a_void_without_the_key_is_refused_and_the_round_goes_on(table, game):
    rig, before = table, table.records()
    number, _, mark = deal_some(rig, 1)
    refused = rig.press("void")
    assert (refused["ok"], refused["message"]) == (False, "void: a void needs the supervisor key")
    refused = rig.send("void", kind="order_altered", reason="the dealer says so")
    assert (refused["ok"], refused["error"]) == (False, "void: a void needs the supervisor key")
    refused = rig.press("reconstruct")
    assert (refused["ok"], refused["message"]) == (False, "reconstruct: reconstruct needs the supervisor key")
    # With the key but no irregularity, the void must name one so that it can cite its clause.
    answer = supervisor(rig, "void")
    assert not answer["ok"] and answer["message"].startswith("void: name the irregularity (kind=...)")
    assert rig.status()["state"] == "dealing" and rig.events.find("void", after=mark) is None
    rig.wait_lamps({"void": "off", "no_more_bets": "on", "key": "off"})
    expect_result_on_the_board(rig, rig.finish_round(), number)
    assert not journaled(rig, "void", number)
    next_round_is_clean(rig, before)


@every_game
def test_the_supervisor_voids_naming_the_irregularity(table, game):
    """A void with the key and kind=...: it cites that kind's clause (as a void)."""
    rig, before = table, table.records()
    number, _, mark = deal_some(rig, 1)
    answer = supervisor(rig, "void", kind="order_altered", reason="cards seen out of order")
    assert answer["ok"] and answer["message"] == f"round {number} void ({ORDER_ALTERED[game]})"
    void = expect_void(rig, mark, number, "order_altered", ORDER_ALTERED[game], by="supervisor")
    assert void["reason"] == "cards seen out of order"
    next_round_is_clean(rig, before)


@every_game
@pytest.mark.parametrize("fault, undo, detail", [("door_open", "door_close", "the shoe door was opened mid-round"),
                                                 ("remove", "insert", "the shoe was removed mid-round")])
def test_the_shoe_door_opened_or_the_shoe_removed_mid_round_order_altered(table, game, fault, undo, detail):
    """Voids where the game's §5.4 voids; Pai Gow's rules hold it (§5.2: reconstruct by hands)."""
    rig, before = table, table.records()
    number, _, mark = deal_some(rig, 2)
    rig.fault(fault)
    wanted = clause(game, "order_altered")
    assert wanted == ORDER_ALTERED[game]
    if consequence(game, "order_altered") == "void":
        void = expect_void(rig, mark, number, "order_altered", wanted)
        assert void["reason"] == detail and void["evidence"]["round_cards"] == void["cards"]
    else:
        held = expect_held(rig, mark, number, "order_altered", wanted, "confirm")
        assert held["detail"] == detail
    if fault == "remove":
        removed = rig.events.wait_for("shoe", after=mark, what="removed")
        assert removed["shoe_state"]["state"] == "no_shoe"
        assert [r.payload["event"] for r in journaled(rig, "shoe")][-1] == "removed"
    rig.fault(undo)
    rig.events.wait_for("shoe", after=mark, what="door_closed" if fault == "door_open" else "present")
    if rig.status()["state"] == "held":
        assert supervisor(rig, "reconstruct")["ok"]
        expect_result_on_the_board(rig, complete(rig, mark, number), number)
    if fault == "remove":  # the shoe put back must be declared before bets open again
        refused = rig.press("place_bets")
        assert not refused["ok"] and "new_shoe" in refused["message"], refused
    next_round_is_clean(rig, before)


@every_game
def test_bad_input_is_refused_by_name_and_the_daemon_goes_on(table, game):
    """Mid-round: a button the panel map lacks, garbage on the shoe's and the panel's wires, a
    damaged, a dropped and a repeated card frame (each card still dealt exactly once), and
    socket requests naming an unknown command and a bad irregularity kind (a bad card token:
    test_hil_matrix_cards.py, misread)."""
    rig, before = table, table.records()
    number = rig.open_round()
    mark = rig.events.mark()
    unknown = rig.press_button(63)
    assert (unknown["ok"], unknown["command"]) == (False, None)
    assert unknown["message"] == f"button 63 is not on the {game} panel (docs/table.md, button map)"
    assert journaled(rig, "error")[-1].payload == {"detail": unknown["message"], "device": "panel"}
    rig.fault("garbage", n=300)
    rig.panel.command("fault", kind="garbage", n=300)
    drawn = []
    for wire_fault in ("bad_crc", "drop", "duplicate"):
        rig.fault(wire_fault)
        drawn += rig.draw(1)
    assert rig.shoe.state()["faults_applied"] == {"bad_crc": 1, "drop": 1, "duplicate": 1, "garbage": 1}
    assert rig.send("frobnicate")["error"].startswith("unknown command 'frobnicate' (one of ")
    assert supervisor(rig, "void", kind="bogus")["message"].startswith("void: kind 'bogus' is not an irregularity")
    assert rig.press("confirm")["message"] == f"confirm: no result to confirm (round {number} is dealing)"
    dealt = [r.payload for r in journaled(rig, "card", number)]
    assert [(c["draw_counter"], c["status"]) for c in dealt] == [(d["counter"], "dealt") for d in drawn]
    deal_until(rig, "result")
    end = rig.events.wait_for("result", after=mark, round=number)
    assert end["cards"][:3] == [d["card"] for d in drawn]
    assert rig.press("confirm")["ok"]
    expect_result_on_the_board(rig, end)
    assert not journaled(rig, "irregularity", number) and not journaled(rig, "void", number)
    assert rig.daemon.child.running and rig.status()["daemon"]["devices"]["panel"]["link"] == "ok"
    next_round_is_clean(rig, before)

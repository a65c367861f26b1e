"""The daemon killed (SIGKILL) and restarted on the same journal, and stopped with SIGTERM.

After a kill: every record journaled before it is still there, unchanged; no result is
journaled twice; the chain verifies; the interrupted round is resumed when the shoe's draw
counter proves nothing was missed (local ruling L4) or stands when its result was already
durable. SIGTERM: exit 0, every lamp off on the board, `daemon_stopped` journaled last."""
import pytest

pytestmark = pytest.mark.hil


def kill_and_restart(rig):
    before = rig.records()
    assert rig.kill_daemon() == -9
    mark = rig.events.mark()
    rig.start_daemon()
    after = rig.records()
    assert after[:len(before)] == before  # nothing journaled was lost or changed
    return mark, after[len(before):]


def results_once(rig):
    rounds = [r.round for r in rig.records() if r.kind == "result"]
    assert len(rounds) == len(set(rounds)), f"a result journaled twice: {rounds}"
    return rounds


def test_sigkill_mid_deal_then_restart_resumes_by_the_counter(start_rig):
    rig = start_rig("fortune6", seed=21)
    rig.new_shoe()
    rig.play_round()
    rig.play_round()
    number = rig.open_round()
    counter = rig.draw(2)[-1]["counter"]
    mark, new = kill_and_restart(rig)
    assert [r.kind for r in new][:1] == ["daemon_started"]
    recovered = next(r.payload for r in new if r.kind == "recovered")
    assert recovered["round"] == number and recovered["outcome"] == "held"
    # The shoe's first status after the restart may come before the rig follows the events:
    # the journal says what happened.
    rig.wait_until(lambda: rig.status()["state"] != "held", 20.0, "the round to be resumed")
    resumed = next(r.payload for r in rig.records() if r.kind == "round_resumed" and r.round == number)
    assert resumed["how"] == f"the shoe's link came back: draw counter {counter} proves no card was missed (local ruling L4)"
    end = rig.finish_round()
    assert end["event"] == "result" and end["round"] == number
    assert results_once(rig) == [1, 2, 3]
    assert rig.verify().ok
    assert rig.play_round()["round"] == number + 1


def test_sigkill_after_a_durable_result_keeps_it_and_does_not_repeat_it(start_rig):
    rig = start_rig("fortune6", seed=22)
    rig.new_shoe()
    number = rig.open_round()
    while rig.status()["state"] != "result":
        rig.draw(1)
    result = next(r.payload for r in rig.records() if r.kind == "result")
    mark, new = kill_and_restart(rig)
    recovered = next(r.payload for r in new if r.kind == "recovered")
    assert recovered["outcome"] == "result stands" and recovered["state"] == "result"
    board = rig.wait_lamps()  # the result's lamps are lit again by the restarted daemon
    assert {name: pattern for name, pattern in board.items() if pattern != "off"} == result["lamps"]
    assert rig.press("confirm")["ok"]
    assert results_once(rig) == [number]
    assert [r.round for r in rig.records() if r.kind == "settled"] == [number]
    assert rig.verify().ok


def test_sigkill_while_the_shoe_dealt_unheard_holds_the_card_to_be_keyed_in(start_rig):
    """The daemon down is the shoe unheard (local ruling L4): a card its counter shows dealt
    meanwhile is a missing card, held to be keyed in (ruling 24); the round then finishes."""
    rig = start_rig("fortune6", seed=23)
    rig.new_shoe()
    number = rig.open_round()
    (first,) = rig.draw(1)
    rig.kill_daemon()
    (lost,) = rig.draw(1, wait=False)  # a card leaves the shoe while no daemon listens
    # Nobody acknowledges it: after its retries the shoe's link gives it up (PROTOCOL.md §2),
    # so the restarted daemon never hears it; only the shoe's draw counter tells.
    rig.wait_until(lambda: any("send failed: CardRead" in line for line in rig.shoe.state()["log"]), 20.0,
                   "the shoe to give the card up")
    rig.start_daemon()
    rig.wait_until(lambda: (rig.status().get("held") or {}).get("kind") == "missing_card", 20.0,
                   "the shoe's counter to hold the round for the unheard card")
    held = rig.status()["held"]
    assert (held["clause"], held["need"], held["keyed"]) == ("fortune6 §5.2 (ruling 24)", "card", 1)
    assert not any(r.kind == "void" for r in rig.records())
    rig.key(True)
    assert rig.send("reconstruct", card=lost["card"])["ok"]
    rig.key(False)
    end = rig.finish_round()
    assert end["event"] == "result" and end["cards"][:2] == [first["card"], lost["card"]]
    kinds = [(r.kind, r.payload.get("kind")) for r in rig.records()
             if r.round == number and r.kind in ("irregularity", "round_resumed", "result")]
    assert kinds == [("irregularity", "device_lost"), ("round_resumed", "device_lost"),
                     ("irregularity", "missing_card"), ("round_resumed", "missing_card"), ("result", None)]
    assert rig.verify().ok and results_once(rig) == [number]
    assert rig.play_round()["event"] == "result"


def test_sigterm_exits_0_with_every_lamp_off(start_rig):
    rig = start_rig("fortune6", seed=24)
    rig.new_shoe()
    rig.play_round()
    assert any(p != "off" for p in rig.wait_lamps().values())  # a result on the board
    pid = rig.daemon.pid
    assert rig.stop_daemon() == 0
    assert set(rig.lamps().values()) == {"off"}
    last = rig.records()[-1]
    assert last.kind == "daemon_stopped" and last.payload == {"reason": "SIGTERM", "lamps": "off (read back from the board)"}
    stopping = [m for m in rig.notify.messages if m.pid == pid and m.fields.get("STOPPING") == "1"]
    assert stopping and stopping[0].fields["STATUS"] == "stopping: SIGTERM"
    assert rig.verify().ok

"""The daemon killed (SIGKILL) and restarted on the same journal, and stopped with SIGTERM.

After a kill: every record journaled before it is still there, unchanged; no result is
journaled twice; the chain verifies; the interrupted round is resumed when the shoe's draw
counter proves nothing was missed (local ruling L4) or stands when its result was already
durable; a round held for the supervisor is held again, and a card the shoe dealt meanwhile
joins the hold (ruling 24). SIGTERM: exit 0, every lamp off on the board, `daemon_stopped` journaled last."""
import pytest

pytestmark = pytest.mark.hil
# A protocol 1.1 shoe gives a card up after its retries (PROTOCOL.md §2); a 1.2 shoe keeps it
# for the next daemon (§9, tests/hil/test_hil_kill_while_dealing.py). The daemon still works
# with a 1.1 shoe: a card given up is held as unheard (ruling 24).
SHOE_1_1 = {"shoe": ["--protocol", "1.1"]}


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
    rig = start_rig("fortune6", seed=23, sim_args=SHOE_1_1)
    rig.new_shoe()
    number = rig.open_round()
    (first,) = rig.draw(1)
    rig.kill_daemon()
    (lost,) = rig.draw(1, wait=False)  # a card leaves the shoe while no daemon listens
    # Nobody acknowledges it: after its retries the 1.1 shoe's link gives it up (PROTOCOL.md §2),
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


def lose_a_card_while_the_daemon_is_down(rig) -> dict:
    """Kill the daemon, draw a card nobody hears (a 1.1 shoe gives it up after its retries,
    PROTOCOL.md §2), start a new daemon: only the shoe's draw counter tells of it."""
    assert rig.kill_daemon() == -9
    (lost,) = rig.draw(1, wait=False)
    rig.wait_until(lambda: any("send failed: CardRead" in line for line in rig.shoe.state()["log"]), 20.0,
                   "the shoe to give the card up")
    rig.start_daemon()
    return lost


def test_a_ruling_24_hold_survives_a_second_sigkill(start_rig):
    """Held for a card the counter showed left unheard (ruling 24), the daemon is killed again:
    the new daemon holds the same round for the same card; keyed in, the round finishes."""
    rig = start_rig("fortune6", seed=25, sim_args=SHOE_1_1)
    rig.new_shoe()
    number = rig.open_round()
    (first,) = rig.draw(1)
    lost = lose_a_card_while_the_daemon_is_down(rig)
    rig.wait_until(lambda: (rig.status().get("held") or {}).get("kind") == "missing_card", 20.0,
                   "the shoe's counter to hold the round for the unheard card")
    held = rig.status()["held"]
    assert (held["clause"], held["need"], held["keyed"]) == ("fortune6 §5.2 (ruling 24)", "card", 1)
    mark, new = kill_and_restart(rig)
    recovered = next(r.payload for r in new if r.kind == "recovered")
    assert (recovered["round"], recovered["outcome"]) == (number, "held for the supervisor")
    rig.wait_lamps({"supervisor": "fast", "no_more_bets": "slow", "void": "off"})
    assert rig.status()["held"] == held
    rig.key(True)
    assert rig.send("reconstruct", card=lost["card"])["ok"]
    rig.key(False)
    end = rig.finish_round()
    assert end["event"] == "result" and end["cards"][:2] == [first["card"], lost["card"]]
    story = [(r.kind, r.payload.get("kind") or r.payload.get("outcome")) for r in rig.records()
             if r.round == number and r.kind in ("irregularity", "recovered", "round_resumed", "result", "void")]
    assert story == [("irregularity", "device_lost"), ("recovered", "held"), ("round_resumed", "device_lost"),
                     ("irregularity", "missing_card"), ("recovered", "held for the supervisor"),
                     ("round_resumed", "missing_card"), ("result", None)], story
    assert rig.verify().ok and results_once(rig) == [number]
    assert rig.play_round()["event"] == "result"


def test_a_card_lost_while_the_daemon_was_down_joins_the_restored_hold(start_rig):
    """Held for a misread (L5) when the daemon is killed, and a card leaves the shoe unheard
    meanwhile: the restarted daemon holds the round again, and the card the counter shows
    waits in the hold, judged at its turn as if heard (ruling 24): after the misread card is
    keyed in, it is due and missing, held to be keyed in under §5.2 (ruling 24)."""
    rig = start_rig("fortune6", seed=26, sim_args=SHOE_1_1)
    rig.new_shoe()
    number = rig.open_round()
    (first,) = rig.draw(1)
    rig.fault("misread")
    (unread,) = rig.draw(1)
    rig.wait_until(lambda: rig.status()["state"] == "held", 20.0, "the misread hold")
    lost = lose_a_card_while_the_daemon_is_down(rig)
    rig.wait_until(lambda: len((rig.status().get("held") or {}).get("pending") or ()) == 2, 20.0,
                   "the shoe's counter to add the unheard card to the hold")
    held = rig.status()["held"]
    assert (held["kind"], held["need"], held["keyed"], held["pending"]) == ("misread", "card", 1, [None, None])
    joined = [r.payload for r in rig.records() if r.kind == "irregularity" and r.round == number][-1]
    assert (joined["kind"], joined["clause"], joined["consequence"]) == ("missing_card", "fortune6 §5.2 (ruling 24)",
                                                                        "hold")
    rig.key(True)
    assert rig.send("reconstruct", card=unread["card"])["ok"]
    held = rig.status()["held"]
    assert (held["kind"], held["clause"], held["need"]) == ("missing_card", "fortune6 §5.2 (ruling 24)", "card")
    assert rig.send("reconstruct", card=lost["card"])["ok"]
    rig.key(False)
    end = rig.finish_round()
    assert end["event"] == "result" and end["cards"][:3] == [first["card"], unread["card"], lost["card"]]
    assert not any(r.kind == "void" for r in rig.records())
    assert rig.verify().ok and results_once(rig) == [number]


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

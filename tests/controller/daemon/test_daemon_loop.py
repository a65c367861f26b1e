"""The loop's pieces on a real Table and a real SQLite journal: each input journaled first and
committed with its effects' records, effects carried out in order (a result durable before
its lamps), the card timer, and bad input or a crash inside `handle` never ending the loop."""
import pytest

from controller.daemon.loop import Stop
from controller.table import Reply, button_map
from controller.table import inputs as i
from drivers import events as ev

NINE_H, TWO_C, KING_D, THREE_C = 0x0119, 0x0132, 0x012D, 0x0133  # player 9h Kd: a natural 9; banker 5


def open_round(rig):
    rig.press("new_shoe")
    rig.press("place_bets")
    rig.press("no_more_bets")


def test_each_input_is_journaled_first_then_the_records_of_its_effects(loop_rig):
    loop_rig.press("new_shoe")
    records = loop_rig.records()
    assert [r.kind for r in records] == ["device", "shoe"]
    assert records[0].payload == {"device": "panel", "event": "ButtonPressed", "button": 5, "command": "new_shoe",
                                  "by": {"source": "panel", "button": 5}}
    assert records[1].payload["event"] == "new"
    loop_rig.press("place_bets")
    loop_rig.press("no_more_bets")
    mark = len(loop_rig.records())
    loop_rig.card(NINE_H)
    device, card = loop_rig.records()[mark:]
    assert (device.kind, device.payload["event"], device.payload["code"]) == ("device", "CardDrawn", NINE_H)
    assert (card.kind, card.payload["card"], card.payload["hand"]) == ("card", "9h", "player")
    answers = loop_rig.events("command")
    assert [(a["command"], a["ok"], a["source"]) for a in answers] == [
        ("new_shoe", True, "panel"), ("place_bets", True, "panel"), ("no_more_bets", True, "panel")]


def test_a_result_is_committed_durable_before_its_lamps_light(loop_rig):
    open_round(loop_rig)
    for code in (NINE_H, TWO_C, KING_D, THREE_C):
        loop_rig.card(code)
    result = loop_rig.events("result")[-1]
    assert result["winner"] == "player"
    lamps, committed = loop_rig.board.sets[-1]
    assert lamps[16] == 1 and lamps[9] == 1  # bet_player and result: on (firmware LampPattern.ON)
    assert committed[-2:] == ["card", "result"]  # already in the journal when the lamps were set
    assert loop_rig.loop.lamps.shown["bet_player"] == "on"


def test_a_results_settlement_follows_its_lamps_next_in_the_journal(loop_rig):
    """The settlement does not hold the result's lamps back: the table hands it to the inbox
    (FollowUp) and it is committed right after them, the record after the result's."""
    open_round(loop_rig)
    for code in (NINE_H, TWO_C, KING_D, THREE_C):
        loop_rig.card(code)
    assert "settlement" not in loop_rig.board.sets[-1][1]  # not yet, when the lamps were set
    assert "settlement" not in loop_rig.kinds()  # its input waits in the inbox for the reactor's turn
    assert loop_rig.loop.reactor.run_until(lambda: not len(loop_rig.loop.inbox), 20.0)
    kinds = [r.kind for r in loop_rig.records()]
    assert kinds[-3:] == ["card", "result", "settlement"]
    result = loop_rig.records()[-2]
    assert loop_rig.events("settlement")[-1]["round"] == result.payload["round"]


def test_only_changed_lamps_are_sent(loop_rig):
    loop_rig.loop.lamps.show(loop_rig.table.snapshot()["lamps"])
    first = loop_rig.board.sets[-1][0]
    assert len(first) == 15  # the whole fortune6 picture the first time
    loop_rig.press("new_shoe")
    assert loop_rig.board.sets[-1][0] == {7: 0}  # new_shoe lamp: slow blink -> off (no burn)


def test_the_card_timer_runs_in_the_loop_and_expires_as_an_input(loop_rig):
    open_round(loop_rig)
    assert loop_rig.loop.timers.running() == ["card"]
    loop_rig.clock.now += 29.0
    loop_rig.loop.fire_timers(loop_rig.clock())
    assert loop_rig.events("held") == []
    mark = len(loop_rig.records())
    loop_rig.clock.now += 2.0
    loop_rig.loop.fire_timers(loop_rig.clock())
    timer, irregularity = loop_rig.records()[mark:]
    assert timer.kind == "timer_expired" and timer.payload == {"name": "card"}
    assert (irregularity.payload["kind"], irregularity.payload["clause"]) == ("missing_card", "fortune6 §5.2")
    assert loop_rig.events("held") and loop_rig.table.state == "held"


def test_a_card_resets_the_timer(loop_rig):
    open_round(loop_rig)
    loop_rig.clock.now += 20.0
    loop_rig.card(NINE_H)
    loop_rig.clock.now += 20.0  # 40 s after "No more bets", 20 s after the card
    loop_rig.loop.fire_timers(loop_rig.clock())
    assert loop_rig.table.state == "dealing"


def test_an_unknown_button_is_refused_by_name_and_the_loop_goes_on(loop_rig):
    loop_rig.loop.dispatch(ev.ButtonPressed(device="panel", at=0.0, button=99))
    device, error = loop_rig.records()
    assert device.payload["button"] == 99
    assert error.kind == "error" and error.payload["detail"] == "button 99 is not on the fortune6 panel (docs/table.md, button map)"
    assert loop_rig.events("command")[-1] == {"event": "command", "source": "panel", "button": 99, "command": None,
                                              "ok": False, "message": error.payload["detail"]}
    loop_rig.press("new_shoe")
    assert loop_rig.events("command")[-1]["ok"]


def test_a_refused_command_is_answered_and_journaled(loop_rig):
    loop_rig.press("place_bets")
    answer = loop_rig.events("command")[-1]
    assert not answer["ok"] and "new_shoe" in answer["message"]
    assert loop_rig.kinds()[0] == "device"


def test_a_crash_inside_handle_is_recorded_refused_and_survived(loop_rig, monkeypatch):
    real_handle = loop_rig.table.handle

    def handle(inp):  # a bug in the table, injected: the one fault a real part cannot be made to show
        if isinstance(inp, i.Command) and inp.name == "new_shoe":
            raise RuntimeError("boom")
        return real_handle(inp)

    monkeypatch.setattr(loop_rig.table, "handle", handle)
    replies = []
    loop_rig.loop.handle_inputs(("command", {"name": "new_shoe"}), [i.Command("new_shoe")], reply=replies.append)
    (reply,) = replies
    assert isinstance(reply, Reply) and not reply.ok
    assert reply.message == "internal error, the command was not carried out: RuntimeError while handling Command: boom"
    command, error = loop_rig.records()
    assert (command.kind, error.kind) == ("command", "error")
    assert error.payload["input"] == "Command" and error.payload["name"] == "new_shoe" and error.payload["state"] == "idle"
    assert loop_rig.events("error")[-1]["detail"] == "RuntimeError while handling Command: boom"
    monkeypatch.undo()
    loop_rig.press("new_shoe")
    assert loop_rig.events("command")[-1]["ok"] and loop_rig.table.shoe.number == 1


def test_driver_link_changes_are_published_and_fed(loop_rig):
    loop_rig.loop.dispatch(ev.LinkDown(device="lights", at=0.0, reason="silent for 3.5 s"))
    assert loop_rig.events("device")[-1] == {"event": "device", "device": "lights", "link": "absent",
                                              "reason": "silent for 3.5 s"}
    loop_rig.loop.dispatch(ev.LinkDown(device="shoe", at=0.0, reason="hang-up"))
    assert loop_rig.table.link_up is False and loop_rig.kinds()[-1] == "shoe"


@pytest.mark.parametrize("timer_name", ["card", "stale"])
def test_a_timer_the_table_does_not_run_is_noted(loop_rig, timer_name):
    loop_rig.loop.timers.start(timer_name, 1.0, loop_rig.clock())
    loop_rig.clock.now += 2.0
    loop_rig.loop.fire_timers(loop_rig.clock())
    assert loop_rig.kinds() == ["timer_expired", "timer"]  # the table's own note: no such timer runs now


def test_a_confirm_taken_in_the_deciding_cards_batch_finds_the_round_settled(loop_rig):
    """Card and confirm in one reactor turn (one batch): the confirm's handling settles the
    round first, so the journal reads result, settlement, settled; the follow-up, taken after
    them, adds nothing."""
    open_round(loop_rig)
    for code in (NINE_H, TWO_C, KING_D):
        loop_rig.card(code)
    mark = len(loop_rig.records())
    loop_rig.counter += 1
    loop_rig.loop.post(ev.CardDrawn(device="shoe", at=0.0, code=THREE_C, draw_counter=loop_rig.counter, device_time=0))
    confirm = next(b.id for b in button_map("fortune6").values() if b.command == "confirm")
    loop_rig.loop.post(ev.ButtonPressed(device="panel", at=0.0, button=confirm))
    assert loop_rig.loop.reactor.run_until(lambda: not len(loop_rig.loop.inbox) and loop_rig.table.state == "settled", 20.0)
    loop_rig.loop.reactor.run_until(lambda: False, 0.05)  # a turn or two more: the follow-up is taken
    assert loop_rig.kinds(mark) == ["device", "card", "result", "device", "settlement", "settled"]


def test_a_stop_right_behind_the_deciding_card_still_journals_its_settlement(loop_rig):
    """The settlement the result asked back (FollowUp) goes with a stop taken in the same turn,
    instead of waiting for the restart to work it out again."""
    open_round(loop_rig)
    for code in (NINE_H, TWO_C, KING_D):
        loop_rig.card(code)
    loop_rig.counter += 1
    loop_rig.loop.post(ev.CardDrawn(device="shoe", at=0.0, code=THREE_C, draw_counter=loop_rig.counter, device_time=0))
    loop_rig.loop.post(Stop("SIGTERM"))
    assert loop_rig.loop.run() == "SIGTERM"
    assert loop_rig.kinds()[-3:] == ["card", "result", "settlement"]
    assert not len(loop_rig.loop.inbox)

"""Local ruling L8: a card disputed on the shoe's line (two frames, one SEQ, other contents)
holds the round for the supervisor, who resumes it as dealt (the cards on the table match)
or voids it as order altered; the hold survives a restart; between rounds it is noted."""
from table_helpers import Run, fortune6_dealing
from test_table_recovery_holds import hold_fields, restored

from controller.table import inputs as i
from controller.table import machine as m

FRAMES = {"seq": 7, "taken": {"type": "CARD", "payload": "01 09 06 00 00 00 00 00 00 00 00", "fields": {"code": 0x0109}},
          "repeat": {"type": "CARD", "payload": "01 21 06 00 00 00 00 00 00 00 00", "fields": {"code": 0x0121}}}
DETAIL = "CARD frame repeats seq 7 with other contents than the CARD taken with that seq"


def disputed() -> Run:
    run = fortune6_dealing()
    run.send(i.CardDisputed(DETAIL, FRAMES))
    return run


def test_a_disputed_card_holds_the_round_citing_l8_with_both_frames():
    run = disputed()
    assert run.state == m.HELD and run.table.hold.need == "confirm"
    record = run.irregularity()
    assert (record["kind"], record["clause"], record["consequence"]) == ("card_disputed", "local ruling L8", "hold")
    assert record["evidence"]["frames"] == FRAMES and record["detail"] == DETAIL
    assert record["hold"]["void_clause"] == "local ruling L8, fortune6 §5.4"
    assert run.lamps()["supervisor"] == "fast"


def test_the_supervisor_resumes_it_as_dealt_or_voids_it():
    resumed, voided = disputed(), disputed()
    resumed.key()
    assert resumed.cmd("reconstruct").ok
    assert resumed.state == m.DEALING
    voided.key()
    assert voided.cmd("void").ok
    assert voided.void()["clause"] == "local ruling L8, fortune6 §5.4"


def test_the_hold_is_held_again_after_a_restart():
    run = disputed()
    again = restored(run)
    assert again.state == m.HELD and hold_fields(again) == hold_fields(run)


def test_between_rounds_it_is_noted():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.send(i.CardDisputed(DETAIL, FRAMES))
    record = run.irregularity()
    assert record["consequence"] == "noted" and record["clause"] == "local ruling L8"
    assert run.state != m.HELD

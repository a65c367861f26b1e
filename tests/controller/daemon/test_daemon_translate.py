"""Driver events -> the `device` record and the table inputs (docs/table.md's mapping) through the
device sessions, with a real Table for the start-up baseline (door, key, cut card)."""
import json

import pytest

from controller.daemon.device_record import device_record
from controller.daemon.sessions import DeviceSessions
from controller.table import Table
from controller.table import inputs as i
from drivers import events as ev
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import Hello

HELLO = Hello(DeviceKind.SHOE, boot_id=7, serial="SIM-SHOE-1", firmware=(1, 2, 3), protocol=(1, 2))


def shoe(cls, **fields):
    return cls(device="shoe", at=1.0, **fields)


def status(counter, changed=("present", "door_open", "cut_card", "empty"), **flags):
    values = {"present": True, "door_open": False, "cut_card": False, "empty": False, **flags}
    return shoe(ev.ShoeStatusChanged, draw_counter=counter, changed=tuple(changed), **values)


@pytest.fixture
def translator():
    return DeviceSessions("fortune6", Table("fortune6"))


def inputs(translator, event):
    return translator.translate(event).inputs


def test_a_card_and_its_record(translator):
    event = shoe(ev.CardDrawn, code=0x0101, draw_counter=5, device_time=9, double_draw=True)
    out = translator.translate(event)
    assert out.inputs == [i.Card(0x0101, 5, double_draw=True, misread=False, device_time=9, at=event.at)]
    assert out.inputs[0] is event  # the table takes the shoe's event itself: no copy of the card
    assert out.record == {"device": "shoe", "event": "CardDrawn", "code": 0x0101, "draw_counter": 5,
                          "device_time": 9, "double_draw": True, "misread": False}


def test_records_are_plain_json_hellos_included():
    record = device_record(ev.DeviceRebooted(device="shoe", at=2.0, hello=HELLO))
    assert json.loads(json.dumps(record)) == {"device": "shoe", "event": "DeviceRebooted", "hello": {
        "kind": "shoe", "boot_id": 7, "serial": "SIM-SHOE-1", "firmware": [1, 2, 3], "protocol": [1, 2]}}


def test_a_repeat_is_journaled_only_and_a_status_hands_on_its_counter(translator):
    # What a counter proves (a gap, a count that went back) is the table's to judge: it gets the counter.
    assert inputs(translator, shoe(ev.DrawRepeated, draw_counter=5, code=0x0101)) == []  # journaled only
    translator.translate(status(3))
    assert inputs(translator, status(8, ())) == [i.ShoeCounter(8)]
    assert inputs(translator, status(2, ())) == [i.ShoeCounter(2)]


def test_status_fields_that_changed_become_inputs(translator):
    translator.translate(status(3))  # the first status: the baseline
    assert inputs(translator, status(3, ("door_open",), door_open=True)) == [i.ShoeCounter(3), i.ShoeDoor(True)]
    assert inputs(translator, status(4, ("cut_card", "empty"), door_open=True, cut_card=True, empty=True)) == [
        i.ShoeCounter(4), i.CutCard(), i.ShoeEmpty()]
    assert inputs(translator, status(4, ("cut_card",), door_open=True, empty=True)) == [
        i.ShoeCounter(4)]  # cleared: nothing to say
    assert inputs(translator, status(4, ("present",), present=False, door_open=True, empty=True)) == [
        i.ShoeCounter(4), i.ShoePresence(False)]


@pytest.mark.parametrize("session, restore", [
    (ev.DeviceConnected, i.ShoeLinkRestored(12)), (ev.LinkRestored, i.ShoeLinkRestored(12)),
    (ev.DeviceRebooted, i.ShoeRebooted(12))])
def test_a_new_session_waits_for_its_first_status_for_the_counter(translator, session, restore):
    assert inputs(translator, shoe(session, hello=HELLO)) == []
    assert inputs(translator, status(12)) == [restore]  # every field "changed", none differs from the table's
    assert inputs(translator, status(15, ())) == [i.ShoeCounter(15)]  # a later status: its counter only


def test_a_reconnect_reports_what_the_driver_says_changed(translator):
    # The driver compares each status with the last one it heard, across the reconnect
    # (tests/drivers/test_shoe_driver.py): a reconnect that finds the shoe as it was names nothing.
    translator.translate(status(3))
    assert inputs(translator, shoe(ev.LinkLost, reason="hang-up")) == [i.ShoeLinkLost("hang-up")]
    translator.translate(shoe(ev.LinkRestored, hello=HELLO))
    assert inputs(translator, status(3, ("door_open",), door_open=True)) == [i.ShoeLinkRestored(3), i.ShoeDoor(True)]
    translator.translate(shoe(ev.LinkRestored, hello=HELLO))
    assert inputs(translator, status(3, (), door_open=True)) == [i.ShoeLinkRestored(3)]


def test_at_start_up_the_baseline_is_what_the_table_knows():
    table = Table("fortune6")
    table.handle(i.ShoeDoor(True))  # the table knows the door is open
    translator = DeviceSessions("fortune6", table)
    translator.translate(shoe(ev.DeviceConnected, hello=HELLO))
    assert translator.translate(status(0)).inputs == [i.ShoeLinkRestored(0), i.ShoeDoor(False)]


def test_panel_buttons_and_the_key(translator):
    out = translator.translate(ev.ButtonPressed(device="panel", at=1.0, button=2))
    assert out.inputs == [i.Command("no_more_bets", {}, source="panel")] and out.record["command"] == "no_more_bets"
    assert inputs(translator, ev.ButtonReleased(device="panel", at=1.0, button=2)) == []
    assert inputs(translator, ev.KeyTurned(device="panel", at=1.0, on=True)) == [i.SupervisorKey(True)]
    # The panel's whole state after a reconnect: only a key that differs from the table's is an input.
    assert inputs(translator, ev.PanelState(device="panel", at=1.0, key_on=False, pressed=(3,))) == []
    assert inputs(translator, ev.PanelState(device="panel", at=1.0, key_on=True, pressed=())) == [i.SupervisorKey(True)]


def test_an_unknown_button_is_named_not_handed_on(translator):
    out = translator.translate(ev.ButtonPressed(device="panel", at=1.0, button=42))
    assert out.inputs == [] and out.problem == "button 42 is not on the fortune6 panel (docs/table.md, button map)"


def test_lamp_board_events_are_journaled_only(translator):
    assert inputs(translator, ev.LampReport(device="lights", at=1.0, lamps=(0, 1))) == []
    assert inputs(translator, ev.LinkLost(device="lights", at=1.0, reason="silent")) == []

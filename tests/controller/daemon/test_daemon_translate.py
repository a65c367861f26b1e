"""Driver events -> the `device` record and the table inputs (docs/table.md's mapping) through the
device sessions, with a real Table for the start-up baseline (door, key, cut card). Drivers
report raw facts (each HELLO, each loss, each status whole); what they mean for the session is
judged there, and its records keep the journal's names."""
import json

import pytest

from controller.daemon.device_record import device_record
from controller.daemon.sessions import DeviceSessions
from controller.journal.records import canonical_json
from controller.table import Table
from controller.table import inputs as i
from drivers import bet_events as bev
from drivers import events as ev
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import Hello

HELLO = Hello(DeviceKind.SHOE, boot_id=7, serial="SIM-SHOE-1", firmware=(1, 2, 3), protocol=(1, 2))


def shoe(cls, **fields):
    return cls(device="shoe", at=1.0, **fields)


def status(counter, **flags):
    values = {"present": True, "door_open": False, "cut_card": False, "empty": False, **flags}
    return shoe(ev.ShoeStatusHeard, draw_counter=counter, **values)


def records(translator, event):
    """The `device` records the event's session changes journal, in order."""
    out = translator.translate(event)
    return [step.record for step in [*out.prior, out] if step.journaled]


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


def test_records_are_plain_json_hellos_included(translator):
    translator.translate(shoe(ev.SessionUp, hello=Hello(DeviceKind.SHOE, boot_id=6)))
    (record,) = records(translator, shoe(ev.SessionUp, hello=HELLO))  # another boot id: a reboot
    assert json.loads(json.dumps(record)) == {"device": "shoe", "event": "DeviceRebooted", "hello": {
        "kind": "shoe", "boot_id": 7, "serial": "SIM-SHOE-1", "firmware": [1, 2, 3], "protocol": [1, 2]}}
    assert device_record(ev.DrawRepeated(device="shoe", at=2.0, draw_counter=5, code=0x0101)) == {
        "device": "shoe", "event": "DrawRepeated", "draw_counter": 5, "code": 0x0101}


def test_a_bet_sensors_records_are_the_same_json_as_lists_would_write():
    # The chips go into the record as the tuples they are: the journal's text must be what
    # lists of the same items write, and read back as those lists.
    chips = tuple((f"047b00000000{n:02x}", 5 * n) for n in range(20))
    space = device_record(bev.SpaceChips(device="bets", at=1.0, space=3, seat=1, name="banker", change=9,
                                         chips=chips, overflow=False))
    layout = device_record(bev.BetLayout(device="bets", at=1.0, spaces=((0, 1, "player"), (1, 1, "banker"))))
    assert canonical_json(space) == canonical_json({**space, "chips": [list(c) for c in chips]})
    assert json.loads(canonical_json(space))["chips"] == [[uid, tag] for uid, tag in chips]
    assert canonical_json(layout) == ('{"device":"bets","event":"BetLayout",'
                                      '"spaces":[[0,1,"player"],[1,1,"banker"]]}')


def test_a_repeat_is_journaled_only_and_a_status_hands_on_its_counter(translator):
    # What a counter proves (a gap, a count that went back) is the table's to judge: it gets the counter.
    assert inputs(translator, shoe(ev.DrawRepeated, draw_counter=5, code=0x0101)) == []  # journaled only
    translator.translate(status(3))
    assert inputs(translator, status(8, door_open=True)) == [i.ShoeCounter(8), i.ShoeDoor(True)]
    assert inputs(translator, status(2)) == [i.ShoeCounter(2), i.ShoeDoor(False)]


def test_status_fields_that_changed_become_inputs(translator):
    translator.translate(status(3))  # the first status: the baseline
    assert inputs(translator, status(3, door_open=True)) == [i.ShoeCounter(3), i.ShoeDoor(True)]
    assert inputs(translator, status(4, door_open=True, cut_card=True, empty=True)) == [
        i.ShoeCounter(4), i.CutCard(), i.ShoeEmpty()]
    assert inputs(translator, status(4, door_open=True, empty=True)) == [
        i.ShoeCounter(4)]  # cleared: nothing to say
    assert inputs(translator, status(4, present=False, door_open=True, empty=True)) == [
        i.ShoeCounter(4), i.ShoePresence(False)]
    out = translator.translate(status(4, present=False, door_open=True, empty=True))
    assert out.inputs == [] and not out.journaled  # the same status again: nothing new, no record


def come_up(translator, session):
    """Bring the shoe's session to `session` ("connected", "restored", "rebooted") by raw facts."""
    if session != "connected":
        translator.translate(shoe(ev.SessionUp, hello=Hello(DeviceKind.SHOE, boot_id=7)))
        translator.translate(status(9))
        translator.translate(shoe(ev.LinkDown, reason="hang-up"))
    boot = 8 if session == "rebooted" else 7
    return records(translator, shoe(ev.SessionUp, hello=Hello(DeviceKind.SHOE, boot_id=boot)))


@pytest.mark.parametrize("session, names, restore", [
    ("connected", ["DeviceConnected"], i.ShoeLinkRestored(12)), ("restored", ["LinkRestored"], i.ShoeLinkRestored(12)),
    ("rebooted", ["LinkRestored", "DeviceRebooted"], i.ShoeRebooted(12))])
def test_a_new_session_waits_for_its_first_status_for_the_counter(translator, session, names, restore):
    assert [r["event"] for r in come_up(translator, session)] == names
    out = translator.translate(status(12))
    assert out.inputs == [restore]  # a session's first status, every field as the table knows it
    assert out.record["event"] == "ShoeStatusChanged"
    assert inputs(translator, status(15, door_open=True))[0] == i.ShoeCounter(15)  # a later status: its counter


def test_a_reconnect_reports_what_the_driver_says_changed(translator):
    # Each status is compared with the last one heard, across the reconnect: a reconnect that
    # finds the shoe as it was names nothing.
    translator.translate(shoe(ev.SessionUp, hello=HELLO))
    translator.translate(status(3))
    assert inputs(translator, shoe(ev.LinkDown, reason="hang-up")) == [i.ShoeLinkLost("hang-up")]
    assert inputs(translator, shoe(ev.LinkDown, reason="cannot open")) == []  # lost already: nothing new
    translator.translate(shoe(ev.SessionUp, hello=HELLO))
    out = translator.translate(status(3, door_open=True))
    assert out.inputs == [i.ShoeLinkRestored(3), i.ShoeDoor(True)] and out.record["changed"] == ["door_open"]
    translator.translate(shoe(ev.LinkDown, reason="hang-up"))
    translator.translate(shoe(ev.SessionUp, hello=HELLO))
    out = translator.translate(status(3, door_open=True))
    assert out.inputs == [i.ShoeLinkRestored(3)] and out.record["changed"] == []


def test_at_start_up_the_baseline_is_what_the_table_knows():
    table = Table("fortune6")
    table.handle(i.ShoeDoor(True))  # the table knows the door is open
    translator = DeviceSessions("fortune6", table)
    translator.translate(shoe(ev.SessionUp, hello=HELLO))
    out = translator.translate(status(0))
    assert out.inputs == [i.ShoeLinkRestored(0), i.ShoeDoor(False)]
    assert out.record["changed"] == ["present", "door_open", "cut_card", "empty"]  # the first status heard: all


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
    assert inputs(translator, ev.LinkDown(device="lights", at=1.0, reason="silent")) == []


def test_the_session_owner_says_what_each_hello_and_loss_is(translator):
    """Lost once however often the driver reports it; a HELLO is connected, restored, rebooted,
    or nothing new (a session the device renewed); STATUS= and `tablectl status` read the state."""
    lights = "lights"
    def raw(cls, **fields):
        return cls(device=lights, at=1.0, **fields)
    hello = Hello(DeviceKind.LIGHTS, boot_id=1)
    assert [r["event"] for r in records(translator, raw(ev.LinkDown, reason="cannot open"))] == ["LinkLost"]
    assert translator.devices[lights].state == "absent"
    assert records(translator, raw(ev.LinkDown, reason="cannot open")) == []
    assert [r["event"] for r in records(translator, raw(ev.SessionUp, hello=hello))] == ["DeviceConnected"]
    assert records(translator, raw(ev.SessionUp, hello=hello)) == []  # renewed by the device: nothing new
    assert translator.devices[lights].state == "ok"
    out = translator.translate(raw(ev.LinkDown, reason="silent"))
    assert out.change == {"event": "device", "device": lights, "link": "lost", "reason": "silent"}
    assert [r["event"] for r in records(translator, raw(ev.SessionUp, hello=hello))] == ["LinkRestored"]
    assert [r["event"] for r in records(translator, raw(ev.SessionUp, hello=Hello(DeviceKind.LIGHTS, boot_id=2)))] == [
        "DeviceRebooted"]
    assert translator.devices[lights].boot_id == 2


def test_refusals_and_a_device_of_another_kind(translator):
    panel_hello = Hello(DeviceKind.PANEL, boot_id=3)
    out = translator.translate(shoe(ev.SessionRefused, reason="/x/shoe is a panel, expected a shoe", hello=panel_hello))
    assert [(r["event"], r.get("detail") or r.get("reason")) for r in [*(p.record for p in out.prior), out.record]] == [
        ("DeviceError", "/x/shoe is a panel, expected a shoe"), ("LinkLost", "/x/shoe is a panel, expected a shoe")]
    assert out.inputs == [i.ShoeLinkLost("/x/shoe is a panel, expected a shoe")]
    assert records(translator, shoe(ev.SessionRefused, reason="/x/shoe is a panel, expected a shoe", hello=panel_hello)) == []
    refusal = "no session: the peer refused our HELLO: it has no key"
    assert [r["event"] for r in records(translator, shoe(ev.SessionRefused, reason=refusal))] == ["LinkRefused"]
    assert records(translator, shoe(ev.SessionRefused, reason=refusal)) == []  # once per reason
    assert translator.devices["shoe"].reason == refusal

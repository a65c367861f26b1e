"""The lamp board and the panel lost and back, through the real daemon: the board's loss shows
in STATUS and on the event stream, and when it comes back (replugged, or rebooted with every
lamp off) it shows the whole current picture again; a supervisor key turned while the panel
was not heard counts once the panel's state is read back; a button the panel map lacks is
refused by name and the daemon goes on."""
import pytest

pytestmark = pytest.mark.hil
WAIT = 20.0


def test_the_lamp_board_lost_and_back_gets_the_whole_picture(start_rig):
    rig = start_rig("fortune6", seed=31)
    rig.new_shoe()
    mark = rig.events.mark()
    rig.lights.command("fault", kind="unplug")
    rig.events.wait_for("device", after=mark, device="lights", link="lost")
    rig.notify.wait_for(lambda m: "lights lost" in m.fields.get("STATUS", ""), WAIT)
    result = rig.play_round()  # the table deals on; the result's lamps cannot reach the board yet
    rig.lights.command("fault", kind="replug")
    rig.events.wait_for("device", after=mark, device="lights", link="restored")
    board = rig.wait_lamps()
    assert {name: pattern for name, pattern in board.items() if pattern != "off"} == result["lamps"]

    mark = rig.events.mark()
    rig.lights.command("fault", kind="reboot")  # a rebooted board shows nothing: the driver puts it back
    rig.events.wait_for("device", after=mark, device="lights", link="rebooted")
    board = rig.wait_lamps()
    assert {name: pattern for name, pattern in board.items() if pattern != "off"} == result["lamps"]


def test_a_key_turned_while_the_panel_was_unheard_counts(start_rig):
    rig = start_rig("fortune6", seed=32)
    mark = rig.events.mark()
    rig.panel.command("fault", kind="unplug")
    rig.events.wait_for("device", after=mark, device="panel", link="lost")
    rig.panel.command("key", on="on")
    rig.panel.command("fault", kind="replug")
    assert rig.events.wait_for("supervisor_key", after=mark)["on"] is True
    rig.wait_lamps({"key": "on"})
    assert rig.status()["supervisor_key"] is True


def test_an_unknown_button_is_refused_by_name(start_rig):
    rig = start_rig("fortune6", seed=33)
    answer = rig.press_button(40)
    assert answer["ok"] is False and answer["message"] == "button 40 is not on the fortune6 panel (docs/table.md, button map)"
    error = [r for r in rig.records() if r.kind == "error"][-1]
    assert error.payload["detail"] == answer["message"]
    assert rig.play_round()["event"] == "result"  # and the table deals on

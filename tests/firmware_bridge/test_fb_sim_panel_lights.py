"""The simulated panel and lights, as separate processes on real ptys."""
import json
import time

from firmware_bridge.enums import ErrorCode, LampPattern
from firmware_bridge.link_events import Connected, PeerRebooted
from firmware_bridge.messages import (
    AllOff,
    Button,
    Error,
    Key,
    LampQuery,
    LampReport,
    LampSet,
    PanelStatus,
    StatusQuery,
)


def test_panel_buttons_and_key(start_sim, open_host):
    panel = start_sim("panel", "--buttons", "8")
    host = open_host(panel.link)
    assert host.wait_event(Connected).hello.kind.name == "PANEL"
    panel.ok("press", button=3)
    panel.ok("release", button=3)
    before = time.monotonic()
    clicked = panel.ok("click", button=7)
    assert before <= clicked["written_at"] <= time.monotonic()  # when the press went out (bench/bench_money_daemon.py)
    panel.ok("key", on=True)
    events = host.wait_messages(Button, 4)
    assert events == [Button(3, True), Button(3, False), Button(7, True), Button(7, False)]
    assert host.wait_messages(Key) == [Key(True)]
    panel.ok("press", button=1)
    host.wait_messages(Button)
    host.send(StatusQuery())
    assert host.wait_messages(PanelStatus) == [PanelStatus(key_on=True, pressed=(1,))]


def test_panel_refuses_what_a_panel_cannot_do(start_sim):
    panel = start_sim("panel", "--buttons", "8")
    assert panel.command("press", button=8)["error"] == "press: button=8 is outside 0..7"
    assert panel.command("release", button=2)["error"] == "release: button 2 is not down"
    assert panel.command("key", on="sideways")["error"] == "key: on='sideways' is not on/off"
    assert panel.command("key", on="off")["error"] == "key: the key is already off"


def test_lights_keep_report_and_refuse_unknown_lamps(start_sim, open_host):
    lights = start_sim("lights", "--lamps", "8", "--view")
    host = open_host(lights.link)
    host.wait_event(Connected)
    host.send(LampSet(2, LampPattern.ON))
    host.send(LampSet(5, LampPattern.FAST_BLINK))
    host.send(LampQuery())
    (report,) = host.wait_messages(LampReport)
    assert report.lamps == (0, 0, 1, 0, 0, 3, 0, 0)
    state = lights.ok("state")
    assert state["lit"] == {"2": "on", "5": "fast_blink"} and len(state["lamps"]) == 8
    assert lights.ok("lamp", id=5)["pattern"] == "fast_blink"
    host.send(LampSet(9, LampPattern.ON))
    (error,) = host.wait_messages(Error)
    assert error.code == ErrorCode.BAD_LAMP and "lamp 9 does not exist (0-7)" in error.detail
    host.send(AllOff())
    host.send(StatusQuery())
    (report,) = host.wait_messages(LampReport)
    assert set(report.lamps) == {LampPattern.OFF}
    view = [line for line in lights.stdout().splitlines() if line.startswith("lamps:")]
    assert view == ["lamps: 2=on", "lamps: 2=on 5=fast_blink", "lamps: all off"]


def test_lights_reboot_turns_every_lamp_off(start_sim, open_host):
    lights = start_sim("lights")
    host = open_host(lights.link)
    host.wait_event(Connected)
    host.send(LampSet(0, LampPattern.SLOW_BLINK))
    host.send(LampQuery())
    host.wait_messages(LampReport)
    lights.ok("fault", kind="reboot")
    host.wait_event(PeerRebooted)
    assert lights.ok("state")["lit"] == {}
    host.send(LampQuery())
    (report,) = host.wait_messages(LampReport)
    assert set(report.lamps) == {LampPattern.OFF}


def test_stdin_script_waits_for_the_host_then_runs(start_sim, open_host):
    script = b"# deal two, press nothing\nwait connected\ndraw 2\nsleep 0.1\ndraw n=1\nbogus\n"
    shoe = start_sim("shoe", "--cards", "As Kd 9h", stdin=script)
    host = open_host(shoe.link)
    host.wait_event(Connected)
    from firmware_bridge.messages import CardRead
    cards = host.wait_messages(CardRead, 3)
    assert [c.draw_counter for c in cards] == [1, 2, 3]
    host.wait_for(lambda evs: "bogus" in shoe.stdout(), "the script's last reply")
    replies = [json.loads(line) for line in shoe.stdout().splitlines()[1:]]
    assert [r["ok"] for r in replies] == [True, True, False]
    assert "unknown command 'bogus'" in replies[2]["error"]

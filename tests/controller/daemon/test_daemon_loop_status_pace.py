"""STATUS= from the running loop: a line that changes again within STATUS_EVERY_S of the last
one sent waits (the loop wakes for it) and only the newest line goes out; READY=1 never
waits; `tablectl status` shows the line as it is now. The loop runs its real run() on the test's
thread (it owns the journal) while a dealer thread posts to it, on a clock the test moves (so
nothing here depends on how fast the machine is), with a real notify datagram socket."""
from __future__ import annotations

import threading

from loop_rig import LoopRig

from controller.daemon.supervisor import STATUS_EVERY_S
from controller.sdnotify import Notifier
from controller.table import button_map
from drivers import events as ev
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import Hello

WAIT = 20.0  # a guard against hanging, not a measure of speed


def test_status_lines_between_two_sends_collapse_into_the_newest(tmp_path, notify):
    handled = threading.Condition()
    published: list[dict] = []
    seen = {}

    def publish(event):
        with handled:
            published.append(event)
            handled.notify_all()

    rig = LoopRig(tmp_path, notifier=Notifier(notify.path), publish=publish, burn=False)

    def dealer():  # on its own thread: the loop (and the journal) belong to the test's thread
        try:
            for n, kind in enumerate((DeviceKind.SHOE, DeviceKind.PANEL, DeviceKind.LIGHTS)):
                rig.loop.post(ev.SessionUp(device=kind.name.lower(), at=0.0, hello=Hello(kind, boot_id=n)))
            seen["ready"] = notify.wait_for(lambda m: m.text.startswith("READY=1"), WAIT)[-1].text
            for command in ("new_shoe", "place_bets", "no_more_bets"):  # one turn each, the clock standing still
                with handled:
                    before = len(published)
                    rig.loop.post(_button(command))
                    assert handled.wait_for(lambda c=command, b=before: any(e.get("command") == c for e in published[b:]), WAIT)
            seen["info"] = rig.loop.daemon_info()["status"]
            rig.clock.now += STATUS_EVERY_S  # the waiting line is due
            seen["after"] = [m.text for m in notify.wait_for(lambda m: "round 1 bets closed" in m.text, WAIT)]
        finally:
            rig.loop.request_stop("test over")

    assert rig.run_with(dealer, WAIT) == "test over"
    assert seen["ready"].endswith("no shoe · no round yet · shoe ok · panel ok · lights ok")
    assert seen["info"] == "fortune6 · shoe 1 · round 1 bets closed · shoe ok · panel ok · lights ok"
    assert seen["after"] == ["STATUS=fortune6 · shoe 1 · round 1 bets closed · shoe ok · panel ok · lights ok"]


def _button(command: str) -> ev.ButtonPressed:
    button = next(b.id for b in button_map("fortune6").values() if b.command == command)
    return ev.ButtonPressed(device="panel", at=0.0, button=button)

"""WATCHDOG=1 only while every part is alive: the loop on a real Table and journal, its pings
read from a real NOTIFY_SOCKET. The real parts' checks are tested where they live
(tests/controller/control/test_control_accepting.py, tests/drivers/test_shoe_over_usb.py)
and the whole against the real daemon (tests/hil/test_hil_watchdog_alive.py)."""
from loop_rig import LoopRig

from controller.daemon.health import Health
from controller.daemon.loop import Stop
from controller.sdnotify import Notifier

WAIT = 20.0  # a guard against hanging, not a measure of speed
WATCHDOG_USEC = 200_000
INTERVAL = WATCHDOG_USEC / 2e6


def test_pings_stop_while_a_part_is_dead_and_come_back_with_it(tmp_path, notify):
    rig = LoopRig(tmp_path, notifier=Notifier(notify.path, WATCHDOG_USEC))
    part = {"problem": None}
    rig.loop.health.watch("reader", lambda: part["problem"])
    seen = {}

    def systemd():
        notify.wait_for(lambda m: m.is_ping, WAIT)
        part["problem"] = "its thread died"
        notify.wait_for(lambda m: "reader: its thread died" in m.fields.get("STATUS", ""), WAIT)
        quiet = []  # from the STATUS= that says so (sent by the check that found it) on
        while (message := notify.receive(5 * INTERVAL)) is not None:
            quiet.append(message)
        seen["pinged while dead"] = [m for m in quiet if m.is_ping]
        seen["status"] = rig.loop.reactor.call(rig.loop.daemon_info)
        part["problem"] = None
        notify.wait_for(lambda m: m.is_ping, WAIT)
        rig.loop.post(Stop("test over"))

    assert rig.run_with(systemd, WAIT) == "test over"
    assert seen["pinged while dead"] == []
    assert seen["status"]["alive"] is False and seen["status"]["problems"] == ["reader: its thread died"]
    assert seen["status"]["status"].startswith("reader: its thread died · starting: waiting for the shoe")


def test_a_check_that_raises_is_a_problem_not_a_crash():
    health = Health()
    health.watch("fine", lambda: None)
    health.watch("broken", lambda: 1 / 0)
    assert health.problems() == ["broken: its check failed: ZeroDivisionError: division by zero"]

"""The watchdog must not lie (real daemon, real NOTIFY_SOCKET with WATCHDOG_USEC).

WATCHDOG=1 goes out only while every part the daemon needs is alive. Here the control
socket's file is removed under the running daemon (as a cleanup of /run would): clients
could no longer reach it and `tablectl status` would call it not running while it deals
on. The pings stop, STATUS= says why (systemd restarts the unit after WatchdogSec); a lost
device, by contrast, is handled by the daemon itself and the pings go on."""
from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.hil
WAIT = 20.0  # guards against hanging, never a measure of speed
WATCHDOG_USEC = 400_000
INTERVAL = WATCHDOG_USEC / 2e6


def is_ping(message) -> bool:
    return message.is_ping


def no_ping_for(rig, periods: int) -> list:
    """Every message for `periods` watchdog periods; fails on a ping among them."""
    seen = []
    while (message := rig.notify.receive(periods * INTERVAL)) is not None:
        seen.append(message)
        assert not is_ping(message), [m.text for m in seen]
    return seen


def test_pings_stop_when_the_control_socket_file_is_gone(start_rig):
    rig = start_rig("fortune6", seed=3, watchdog_usec=WATCHDOG_USEC)
    rig.notify.mark()
    rig.notify.wait_for(is_ping, WAIT)
    os.unlink(rig.socket_path)
    said = rig.notify.wait_for(lambda m: "control socket" in m.fields.get("STATUS", ""), WAIT)[-1]
    assert f"the control socket file {rig.socket_path} is gone" in said.fields["STATUS"]
    no_ping_for(rig, 5)
    assert rig.daemon.child.running  # systemd, not the daemon, ends it: WatchdogSec passes without a ping
    assert '"event":"not_alive"' in rig.daemon.output()


def test_a_lost_device_does_not_stop_the_pings(start_rig):
    rig = start_rig("fortune6", seed=3, watchdog_usec=WATCHDOG_USEC)
    rig.fault("unplug")
    rig.notify.mark()
    rig.notify.wait_for(lambda m: "shoe lost" in m.fields.get("STATUS", ""), WAIT)
    pings = [m for _ in range(3) for m in rig.notify.wait_for(is_ping, WAIT) if is_ping(m)]
    assert len(pings) == 3
    rig.fault("replug")
    assert rig.status()["daemon"]["alive"] is True

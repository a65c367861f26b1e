"""The simulators with --key-file speak protocol 1.1 over a real pty: cards flow to a keyed
host; a forged card is reported and never delivered; a host without the key gets nothing."""
from __future__ import annotations

import os

from firmware_bridge.auth import key_id, key_text, write_key
from firmware_bridge.link_events import Connected, SessionRefused, Tampered
from firmware_bridge.messages import Button, CardRead, StatusQuery
from games.cards import parse_card

KEY = bytes(range(32))


def key_file(directory: str, key: bytes = KEY) -> str:
    path = os.path.join(directory, "device.key")
    write_key(path, key)
    return path


def test_a_keyed_shoe_deals_to_a_keyed_host_and_forgeries_are_refused(start_sim, open_host, sim_dir):
    shoe = start_sim("shoe", "--cards", "9h 8d As Kc", "--key-file", key_file(sim_dir))
    assert shoe.ok("state")["key_id"] == key_id(KEY)
    host = open_host(shoe.link, key=KEY)
    host.wait_event(Connected)
    host.send(StatusQuery())
    shoe.ok("draw")
    (first,) = host.wait_messages(CardRead)
    for how in ("plain", "mac"):
        assert shoe.ok("fault", kind="forge", how=how, code=0x0113)["seq"] == 3
        report = host.wait_event(Tampered)
        assert "CARD" in report.detail
        host.settle(1.1)  # the second forgery is reported in the next second
    shoe.ok("draw")
    (second,) = host.wait_messages(CardRead)
    assert [(c.code, c.draw_counter) for c in (first, second)] == [(parse_card('9h').code, 1), (parse_card('8d').code, 2)]
    host.settle(0.2)
    assert not [e for e in host.events if isinstance(e, CardRead)]
    state = shoe.ok("state")
    assert state["forged"] == 2 and state["link"]["tampered"] == 0
    assert host.link.stats["tampered"] == 2


def test_a_keyed_shoe_refuses_a_host_without_the_key(start_sim, open_host, sim_dir):
    shoe = start_sim("shoe", "--key-file", key_file(sim_dir))
    host = open_host(shoe.link)
    refused = host.wait_event(SessionRefused)
    assert "configure its key" in refused.reason
    assert any("tampered" in line and "without authentication" in line for line in shoe.ok("state")["log"])


def test_a_keyless_panel_refuses_a_keyed_host_and_a_forged_press_reaches_a_keyless_one(start_sim, open_host):
    panel = start_sim("panel")
    keyed = open_host(panel.link, key=KEY)
    assert "no key" in keyed.wait_event(SessionRefused).reason
    keyed.close()
    host = open_host(panel.link, boot_id=0x1234)
    host.wait_event(Connected)
    panel.ok("fault", kind="forge", button=5)  # protocol 1.0: nothing tells it from a real press
    assert host.wait_messages(Button) == [Button(5, True)]


def test_a_bad_key_file_stops_the_simulator_with_its_reason(sim_dir):
    import subprocess
    import sys

    path = os.path.join(sim_dir, "loose.key")
    with open(path, "w") as f:
        f.write(key_text(KEY))
    os.chmod(path, 0o644)
    result = subprocess.run([sys.executable, "-m", "firmware_bridge.sim.shoe", "--link", os.path.join(sim_dir, "s"),
                             "--key-file", path], capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and "mode 0644" in result.stderr and path in result.stderr

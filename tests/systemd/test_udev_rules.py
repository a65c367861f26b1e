"""udev/*.rules on the machine's own udevadm (systemd 252) against described devices:
umockdev presents the USB device under /sys, `udevadm test` runs Debian's rules and ours
in a private mount namespace (see udev_sandbox.py). Skipped only where that sandbox cannot
run; test_udev_syntax.py still checks the rules' syntax there."""
from __future__ import annotations

import re

import pytest
from udev_sandbox import free_gid, run_udevadm_test, sandbox_problem, tty_device, usb_device, usb_interface

problem = sandbox_problem()
pytestmark = pytest.mark.skipif(problem is not None, reason=f"udevadm sandbox unavailable: {problem}")

ROLE_RULES = "70-tablectl.rules"
RAW_SHOE = usb_device("1-2", "1209", "0001", "SHOE0001", devnum=3) + usb_interface("1-2", "usbfs")
COMPLAINTS = re.compile(r"invalid|ignoring|unknown|error|failed", re.IGNORECASE)


@pytest.fixture(scope="module")
def gid():
    return free_gid()


def serial_device(tmp_path, gid, kernel, vid, pid, serial):
    text, syspath = tty_device("1-1", kernel)
    return run_udevadm_test(tmp_path, text + usb_device("1-1", vid, pid, serial, devnum=2), syspath, gid)


def assert_given_to_tablectl(run, gid):
    # Debian's rules run first (ttyUSB: GROUP dialout); ours come later and win.
    assert run.actions(ROLE_RULES, "GROUP") == [f"GROUP {gid}"]
    assert run.actions(ROLE_RULES, "MODE") == ["MODE 0660"]
    group_lines = [text for _, _, text in run.rule_lines if text.startswith("GROUP ")]
    assert group_lines[-1] == f"GROUP {gid}"
    assert ":systemd:" in run.properties["TAGS"]


def assert_no_complaints_about_our_rules(run):
    ours = [line for line in run.output.splitlines() if "tablectl" in line and COMPLAINTS.search(line)]
    assert not ours, ours


@pytest.mark.parametrize(
    "kernel, pid, serial, role",
    [
        ("ttyUSB0", "0002", "SHOE0001", "shoe"),
        ("ttyACM0", "0003", "PANEL0001", "panel"),
        ("ttyUSB1", "0004", "LIGHTS0001", "lights"),
        ("ttyACM1", "0005", "BETS0001", "bets"),
    ],
)
def test_usb_serial_device_gets_its_stable_name(tmp_path, gid, kernel, pid, serial, role):
    run = serial_device(tmp_path, gid, kernel, "1209", pid, serial)
    assert run.links == {role: f"../{kernel}"}
    assert f"/dev/tablectl/{role}" in run.properties["DEVLINKS"].split()
    assert run.properties["TABLECTL_ROLE"] == role
    assert_given_to_tablectl(run, gid)
    assert_no_complaints_about_our_rules(run)


def test_raw_usb_shoe_gets_the_shoe_name_on_its_usb_device_node(tmp_path, gid):
    run = run_udevadm_test(tmp_path, RAW_SHOE, "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2", gid)
    assert run.links == {"shoe": "../bus/usb/001/003"}
    assert run.properties["DEVTYPE"] == "usb_device"
    # 50-udev-default gives every usb_device MODE 0664; ours closes it to the group.
    assert run.actions(ROLE_RULES, "MODE") == ["MODE 0660"]
    assert_given_to_tablectl(run, gid)
    assert_no_complaints_about_our_rules(run)


def test_raw_usb_shoe_interface_is_left_alone(tmp_path, gid):
    run = run_udevadm_test(tmp_path, RAW_SHOE, "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0", gid)
    assert run.links == {}
    assert "TABLECTL_ROLE" not in run.properties


@pytest.mark.parametrize(
    "vid, pid, serial",
    [
        ("1209", "0002", "SHOE0002"),  # right model, another unit: the serial number decides
        ("1209", "0003", "SHOE0001"),  # the shoe's serial on the panel's product ID
        ("0403", "6001", "SHOE0001"),  # a plain FTDI cable
        ("1209", "0005", "BETS0002"),  # another bet sensor
    ],
)
def test_other_devices_get_nothing(tmp_path, gid, vid, pid, serial):
    run = serial_device(tmp_path, gid, "ttyUSB0", vid, pid, serial)
    assert run.links == {}
    assert "TABLECTL_ROLE" not in run.properties
    assert not run.actions(ROLE_RULES, "GROUP")
    assert [text for _, _, text in run.rule_lines if text.startswith("GROUP ")] == ["GROUP 20"]  # dialout, Debian's

"""systemd/tablectl.service checked by the machine's systemd-analyze (252), and against the
files it must agree with (udev rules, default config, install-service)."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cli import install_service

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd/tablectl.service"
DOCS = ROOT / "docs" / "install.md"
EXPOSURE_GOAL = 2.0

pytestmark = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")


def real_tablectl() -> str:
    beside = Path(sys.executable).parent / "tablectl"
    return str(beside) if beside.is_file() else shutil.which("tablectl")


def settings(text: str) -> dict[str, list[str]]:
    """Section.Key -> every value assigned, in order (unit files repeat keys)."""
    found, section = {}, ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            found.setdefault(f"{section}.{key}", []).append(value)
    return found


def verify(unit_text: str, tmp_path: Path) -> str:
    """Everything `systemd-analyze verify` prints (it exits 0 even on unknown keys)."""
    path = tmp_path / "tablectl.service"
    path.write_text(unit_text)
    done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
    return done.stdout + done.stderr


def verify_beside_the_daemon(name: str, text: str, tmp_path: Path) -> str:
    """Everything `systemd-analyze verify` prints for unit `name` installed beside the daemon's
    (its After= names it; verify finds units in the same directory)."""
    (tmp_path / "tablectl.service").write_text(install_service.unit_text(UNIT.read_text(), real_tablectl()))
    path = tmp_path / name
    path.write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
    return done.stdout + done.stderr


def exposure(unit_text: str, tmp_path: Path, name: str = "tablectl.service") -> float:
    path = tmp_path / name
    path.write_text(unit_text)
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(path)], capture_output=True, text=True)
    match = re.search(rf"Overall exposure level for {re.escape(name)}: (\d+\.\d+)", done.stdout)
    assert match, done.stdout[-2000:] + done.stderr
    return float(match[1])


def serial_only_drop_in() -> str:
    """The drop-in docs/install.md gives for serial-only tables (between its markers)."""
    text = DOCS.read_text()
    match = re.search(r"<!-- serial-only drop-in -->\s*```ini\n(.*?)```", text, re.S)
    assert match, "docs/install.md lost its serial-only drop-in block"
    return match[1]


def test_verify_prints_nothing(tmp_path):
    """The shipped unit with only ExecStart's program pointed at the real installed tablectl,
    exactly as install-service writes it (verify checks that the program exists)."""
    unit = install_service.unit_text(UNIT.read_text(), real_tablectl())
    assert verify(unit, tmp_path) == ""


def test_verify_would_catch_a_typo(tmp_path):
    unit = install_service.unit_text(UNIT.read_text(), real_tablectl()).replace("ProtectHome=", "ProtectHom=")
    assert "Unknown key" in verify(unit, tmp_path)


def test_exposure_is_at_most_the_goal(tmp_path):
    assert exposure(UNIT.read_text(), tmp_path) <= EXPOSURE_GOAL


def test_serial_only_drop_in_from_the_docs_is_valid_and_tighter(tmp_path):
    base = install_service.unit_text(UNIT.read_text(), real_tablectl())
    tightened = base + "\n" + serial_only_drop_in()
    assert verify(tightened, tmp_path) == ""
    merged = settings(tightened)
    assert merged["Service.RestrictAddressFamilies"][-2:] == ["", "AF_UNIX"]
    assert "AF_NETLINK" not in merged["Service.RestrictAddressFamilies"][-1]
    # systemd-analyze rounds to 0.1: the base unit is already at 0.4, the drop-in cannot be worse.
    assert exposure(tightened, tmp_path) <= exposure(base, tmp_path)


def test_no_network_at_all():
    unit = settings(UNIT.read_text())
    assert unit["Service.PrivateNetwork"] == ["yes"]
    assert unit["Service.IPAddressDeny"] == ["any"]
    assert "AF_INET" not in " ".join(unit["Service.RestrictAddressFamilies"])


def test_notify_watchdog_and_restart_policy():
    unit = settings(UNIT.read_text())
    assert unit["Service.Type"] == ["notify"]
    assert unit["Service.NotifyAccess"] == ["main"]
    assert unit["Service.WatchdogSec"] and unit["Service.Restart"] == ["on-failure"]
    assert unit["Unit.StartLimitIntervalSec"] and unit["Unit.StartLimitBurst"]


def test_devices_only_usb_serial_and_raw_usb():
    unit = settings(UNIT.read_text())
    assert unit["Service.DevicePolicy"] == ["closed"]
    assert sorted(unit["Service.DeviceAllow"]) == ["char-ttyACM rw", "char-ttyUSB rw", "char-usb_device rw"]
    assert "PrivateDevices" not in str(unit)  # it would hide the shoe


def test_no_ip_networking():
    unit = settings(UNIT.read_text())
    assert unit["Service.RestrictAddressFamilies"] == ["AF_UNIX AF_NETLINK"]
    assert unit["Service.IPAddressDeny"] == ["any"]


def test_user_group_and_paths_agree_with_udev_install_and_config():
    unit = settings(UNIT.read_text())
    rules = (ROOT / "udev/70-tablectl.rules").read_text()
    assert unit["Service.User"] == [install_service.USER]
    assert unit["Service.Group"] == [install_service.GROUP]
    assert f'GROUP="{install_service.GROUP}"' in rules
    assert unit["Service.ExecStart"] == [f"{install_service.SHIPPED_EXEC} run --config {install_service.CONFIG}"]
    assert unit["Service.StateDirectory"] == ["tablectl"] and install_service.HOME == "/var/lib/tablectl"

    config = tomllib.loads((ROOT / "systemd/tablectl.toml").read_text())
    assert Path(config["journal"]["path"]).parent == Path("/var/lib") / unit["Service.StateDirectory"][0]
    assert Path(config["control"]["socket"]).parent == Path("/run") / unit["Service.RuntimeDirectory"][0]
    for role in ("shoe", "panel", "lights"):  # the names 70-tablectl.rules creates
        assert config["devices"][role].startswith(f"serial:///dev/tablectl/{role}")

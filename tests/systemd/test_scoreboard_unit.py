"""systemd/tablectl-scoreboard.service: silent under `systemd-analyze verify`, as hardened as the
daemon's (exposure at most the daemon's goal), reading the journal and the socket through the
group only, writing nowhere but its runtime directory, IP limited to what it serves; installed
by `tablectl install-service` with ExecStart pointed like the daemon's."""
from __future__ import annotations

import ipaddress
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from test_service_unit import EXPOSURE_GOAL, exposure, real_tablectl, settings

from cli import install_service
from cli.install_service import main, unit_text
from controller.config.schema import split_listen

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd/tablectl-scoreboard.service"
needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")


def verify(text: str, tmp_path: Path) -> str:
    """Everything `systemd-analyze verify` prints for the unit installed beside the daemon's
    (its After= names it; verify finds units in the same directory)."""
    (tmp_path / "tablectl.service").write_text(unit_text((ROOT / "systemd/tablectl.service").read_text(), real_tablectl()))
    path = tmp_path / "tablectl-scoreboard.service"
    path.write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
    return done.stdout + done.stderr


@needs_analyze
def test_verify_prints_nothing(tmp_path):
    assert verify(unit_text(UNIT.read_text(), real_tablectl()), tmp_path) == ""


@needs_analyze
def test_verify_would_catch_a_typo(tmp_path):
    unit = unit_text(UNIT.read_text(), real_tablectl()).replace("IPAddressDeny=", "IPAdressDeny=")
    assert "Unknown key" in verify(unit, tmp_path)


@needs_analyze
def test_exposure_is_at_most_the_daemons_goal(tmp_path):
    assert exposure(UNIT.read_text(), tmp_path, UNIT.name) <= EXPOSURE_GOAL


def test_it_runs_the_scoreboard_on_the_tables_config():
    unit = settings(UNIT.read_text())
    assert unit["Service.ExecStart"] == [f"{install_service.SHIPPED_EXEC} scoreboard --config {install_service.CONFIG}"]
    assert unit["Service.Type"] == ["notify"] and unit["Service.Restart"] == ["on-failure"]
    assert unit["Unit.After"] == ["tablectl.service"]


def test_reads_through_the_group_and_writes_only_its_runtime_directory():
    unit = settings(UNIT.read_text())
    assert unit["Service.DynamicUser"] == ["yes"]
    assert unit["Service.SupplementaryGroups"] == [install_service.GROUP]
    assert unit["Service.ProtectSystem"] == ["strict"] and unit["Service.ProtectHome"] == ["yes"]
    assert unit["Service.RuntimeDirectory"] == ["tablectl-scoreboard"]
    for key in ("StateDirectory", "LogsDirectory", "CacheDirectory", "ReadWritePaths", "User", "Group"):
        assert f"Service.{key}" not in unit, key
    daemon = settings((ROOT / "systemd/tablectl.service").read_text())
    assert daemon["Service.UMask"] == ["0027"]  # what it writes, the group may read


def test_ip_limited_to_what_it_listens_on():
    unit = settings(UNIT.read_text())
    assert unit["Service.IPAddressDeny"] == ["any"] and unit["Service.IPAddressAllow"] == ["localhost"]
    assert unit["Service.RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]
    config = tomllib.loads((ROOT / "systemd/tablectl.toml").read_text())
    host, _ = split_listen(config["scoreboard"]["listen"])
    assert ipaddress.ip_address(host).is_loopback


def test_install_service_places_it(tmp_path, capsys):
    status = main(["--root", str(tmp_path), "--exec", "/opt/tablectl/bin/tablectl", "--dry-run"])
    out = capsys.readouterr().out
    assert status == 0
    assert f"would install   {tmp_path}/etc/systemd/system/tablectl-scoreboard.service" in out
    assert "ExecStart=/opt/tablectl/bin/tablectl" in out


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers is not installed")
def test_a_staged_install_writes_it_with_the_exec_path(tmp_path, capsys):
    assert main(["--root", str(tmp_path), "--exec", "/srv/venv/bin/tablectl"]) == 0
    placed = (tmp_path / "etc/systemd/system/tablectl-scoreboard.service").read_text()
    assert placed == unit_text(UNIT.read_text(), "/srv/venv/bin/tablectl")
    assert "ExecStart=/srv/venv/bin/tablectl scoreboard --config /etc/tablectl/tablectl.toml" in placed

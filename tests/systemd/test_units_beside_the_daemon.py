"""The units of the services beside the daemon that need no drop-in (the scoreboard, the live
edge, the dealer page): each silent under `systemd-analyze verify` installed beside the daemon's unit (as
install-service writes them), a typo caught (verify exits 0 on one: the output is what tells),
an exposure at most the daemon's goal; and `tablectl install-service` places each with its
ExecStart pointed at the tablectl that ran the install."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_service_unit import EXPOSURE_GOAL, exposure, real_tablectl, verify_beside_the_daemon

from cli.install_service import main, unit_text

ROOT = Path(__file__).resolve().parents[2]
UNITS = ("tablectl-scoreboard.service", "tablectl-edge.service", "tablectl-dealer.service")

needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")


@needs_analyze
@pytest.mark.parametrize("name", UNITS)
def test_verify_prints_nothing(name, tmp_path):
    text = unit_text((ROOT / "systemd" / name).read_text(), real_tablectl())
    assert verify_beside_the_daemon(name, text, tmp_path) == ""


@needs_analyze
@pytest.mark.parametrize("name", UNITS)
def test_verify_would_catch_a_typo(name, tmp_path):
    text = unit_text((ROOT / "systemd" / name).read_text(), real_tablectl()).replace("IPAddressDeny=", "IPAdressDeny=")
    assert "Unknown key" in verify_beside_the_daemon(name, text, tmp_path)


@needs_analyze
@pytest.mark.parametrize("name", UNITS)
def test_exposure_is_at_most_the_daemons_goal(name, tmp_path):
    assert exposure((ROOT / "systemd" / name).read_text(), tmp_path, name) <= EXPOSURE_GOAL


@pytest.mark.parametrize("name", UNITS)
def test_install_service_places_it(name, tmp_path, capsys):
    status = main(["--root", str(tmp_path), "--exec", "/opt/tablectl/bin/tablectl", "--dry-run"])
    out = capsys.readouterr().out
    assert status == 0
    assert f"would install   {tmp_path}/etc/systemd/system/{name}" in out
    assert "ExecStart=/opt/tablectl/bin/tablectl" in out and "tablectl-edge for surveillance" in out


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers is not installed")
@pytest.mark.parametrize("name, command", [(UNITS[0], "scoreboard"), (UNITS[1], "edge"), (UNITS[2], "dealer")])
def test_a_staged_install_writes_it_with_the_exec_path(name, command, tmp_path):
    assert main(["--root", str(tmp_path), "--exec", "/srv/venv/bin/tablectl"]) == 0
    placed = (tmp_path / "etc/systemd/system" / name).read_text()
    assert placed == unit_text((ROOT / "systemd" / name).read_text(), "/srv/venv/bin/tablectl")
    assert f"ExecStart=/srv/venv/bin/tablectl {command} --config /etc/tablectl/tablectl.toml" in placed

"""systemd/tablectl-feed.service checked by the machine's systemd-analyze, with the drop-in
`tablectl install-service` writes from feed.broker (IPAddressAllow= only the broker)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from test_service_unit import exposure, real_tablectl, settings

from cli import install_service
from cli.install_service import main, unit_text
from controller.config.schema import FeedConfig

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd/tablectl-feed.service"
EXPOSURE_GOAL = 2.0
needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")


def verify_with(unit_text_: str, drop_in: str, tmp_path: Path) -> str:
    """Everything `systemd-analyze verify` prints for the unit and its drop-in (exit 0 even on typos)."""
    (tmp_path / "tablectl-feed.service").write_text(unit_text_)
    (tmp_path / "tablectl-feed.service.d").mkdir(exist_ok=True)
    (tmp_path / "tablectl-feed.service.d" / "10-broker.conf").write_text(drop_in)
    done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "tablectl-feed.service")], capture_output=True,
                          text=True, env={"SYSTEMD_UNIT_PATH": f"{tmp_path}:", "PATH": "/usr/bin:/bin"})
    return done.stdout + done.stderr


@needs_analyze
def test_the_feed_unit_and_its_broker_drop_in_verify_silently(tmp_path):
    unit = unit_text(UNIT.read_text(), real_tablectl())
    assert verify_with(unit, "[Service]\nIPAddressAllow=192.0.2.10\n", tmp_path) == ""
    assert "Unknown key" in verify_with(unit.replace("PrivateTmp=", "PrivatTmp="), "", tmp_path)


@needs_analyze
def test_the_feed_unit_is_hardened(tmp_path):
    assert exposure(UNIT.read_text().replace("tablectl-feed.service", "tablectl.service"), tmp_path) <= EXPOSURE_GOAL


def test_only_ip_to_the_broker_the_journal_through_the_group_and_its_own_state():
    unit = settings(UNIT.read_text())
    assert unit["Service.IPAddressDeny"] == ["any"] and "Service.IPAddressAllow" not in unit
    assert unit["Service.RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]
    assert unit["Service.User"] == ["tablectl-feed"] and unit["Service.SupplementaryGroups"] == [install_service.GROUP]
    assert unit["Service.ReadOnlyPaths"] == [install_service.HOME]
    assert Path(FeedConfig().state).parent == Path("/var/lib") / unit["Service.StateDirectory"][0]
    assert unit["Service.ExecStart"] == [f"{install_service.SHIPPED_EXEC} feed --config {install_service.CONFIG}"]
    assert "m tablectl-feed tablectl" in install_service.SYSUSERS_LINE


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers is not installed")
def test_install_service_writes_the_broker_drop_in_from_the_config(tmp_path, capsys):
    exec_path = "/opt/tablectl/bin/tablectl"
    assert main(["--root", str(tmp_path), "--exec", exec_path]) == 0
    out = capsys.readouterr().out
    assert "feed.broker is not set" in out
    assert (tmp_path / "etc/systemd/system/tablectl-feed.service").read_text() == unit_text(UNIT.read_text(), exec_path)
    assert "tablectl-feed:" in (tmp_path / "etc/passwd").read_text()

    config = tmp_path / "etc/tablectl/tablectl.toml"
    text = config.read_text().replace('# broker = "mqtts://mqtt.floor.example:8883"', 'broker = "mqtts://127.0.0.1:8883"')
    config.write_text(text.replace('# table = "t01"', 'table = "t01"'))
    assert main(["--root", str(tmp_path), "--exec", exec_path]) == 0
    drop_in = (tmp_path / install_service.FEED_BROKER_DROP_IN.lstrip("/")).read_text()
    assert settings(drop_in) == {"Service.IPAddressAllow": ["127.0.0.1"]}

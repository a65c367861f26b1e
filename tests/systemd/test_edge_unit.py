"""systemd/tablectl-edge.service: no network at all, reading the journal and the socket through
the group only and writing nothing; its lines and alerts go to the systemd journal (stdout and
stderr, the alerts as structured warnings); it stops at once, exit 0, on systemd's SIGTERM.
(Silent under `systemd-analyze verify`, exposure at most the daemon's goal, placed by
install-service: test_units_beside_the_daemon.py.)"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from test_service_unit import settings

from cli import install_service
from simulation.rig.processes import child_env

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd/tablectl-edge.service"


def test_it_runs_tablectl_edge_on_the_tables_config_and_logs_to_the_journal():
    unit = settings(UNIT.read_text())
    assert unit["Service.ExecStart"] == [f"{install_service.SHIPPED_EXEC} edge --config {install_service.CONFIG}"]
    assert unit["Service.Type"] == ["exec"] and unit["Service.Restart"] == ["on-failure"]
    assert unit["Unit.After"] == ["tablectl.service"] and unit["Service.SyslogIdentifier"] == ["tablectl-edge"]
    for key in ("StandardOutput", "StandardError"):  # systemd's default: the journal
        assert f"Service.{key}" not in unit


def test_no_network_at_all():
    unit = settings(UNIT.read_text())
    assert unit["Service.IPAddressDeny"] == ["any"] and "Service.IPAddressAllow" not in unit
    assert unit["Service.RestrictAddressFamilies"] == ["AF_UNIX"] and unit["Service.PrivateNetwork"] == ["yes"]


def test_reads_through_the_group_and_writes_nothing():
    unit = settings(UNIT.read_text())
    assert unit["Service.DynamicUser"] == ["yes"] and unit["Service.SupplementaryGroups"] == [install_service.GROUP]
    assert unit["Service.ProtectSystem"] == ["strict"] and unit["Service.ProtectHome"] == ["yes"]
    for key in ("StateDirectory", "RuntimeDirectory", "LogsDirectory", "CacheDirectory", "ReadWritePaths", "User"):
        assert f"Service.{key}" not in unit, key


def test_as_the_unit_runs_it_logs_json_for_the_journal_and_ends_on_sigterm(tmp_path):
    """The unit's command line on a config (json logs, as shipped) with no daemon yet: it waits
    for the journal, says so in a structured line on stderr (the journal's), and systemd's
    SIGTERM ends it at once with exit 0. (No systemd here: the process is run directly.)"""
    config = tmp_path / "tablectl.toml"
    config.write_text(f'[journal]\npath = "{tmp_path}/journal.sqlite"\n[control]\nsocket = "{tmp_path}/control.sock"\n'
                      '[log]\nformat = "json"\n', encoding="utf-8")
    edge = subprocess.Popen([sys.executable, "-c", "import sys; from cli import main; sys.exit(main())", "edge",
                             "--config", str(config)], cwd=ROOT, env=child_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        first = edge.stderr.readline()  # the follower reports the journal missing, then waits
        time.sleep(0.2)
        edge.send_signal(signal.SIGTERM)
        _, rest = edge.communicate(timeout=20)
    finally:
        if edge.poll() is None:
            edge.kill()
            edge.wait()
    assert edge.returncode == 0, first + rest
    logged = json.loads(first)
    assert logged["logger"] == "edge" and logged["level"] in ("info", "warning")

"""systemd/tablectl-scoreboard.service: reading the journal and the socket through the group
only, writing nowhere but its runtime directory, IP limited to what it serves. (Silent under
`systemd-analyze verify`, exposure, install-service: test_units_beside_the_daemon.py.)"""
from __future__ import annotations

import ipaddress
import tomllib
from pathlib import Path

from test_service_unit import settings

from cli import install_service
from controller.config.schema import split_listen

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd/tablectl-scoreboard.service"


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


def test_its_descriptor_limit_leaves_room_for_the_connection_cap():
    from services.http_limits import BACKLOG, MAX_CONNECTIONS

    values = settings(UNIT.read_text())["Service.LimitNOFILE"]
    assert len(values) == 1 and values[0].isdigit(), values  # one number: soft = hard
    assert int(values[0]) >= 2 * (MAX_CONNECTIONS + BACKLOG)  # the cap, the accepted ones being refused, and room
    assert f"`LimitNOFILE={values[0]}`" in (ROOT / "docs/scoreboard.md").read_text(encoding="utf-8")

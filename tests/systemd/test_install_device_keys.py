"""`tablectl install-service` provisions every device's key (protocol 1.1) into a staging root
(--root on a temp dir, the real systemd-sysusers making the tablectl group there) and names
them in the config it installs, so an installed table is authenticated; a site's config that
gives a device no key keeps it so, with a warning. Key files are read back with the daemon's
own loader (firmware_bridge.auth.load_key, controller.daemon.device_options)."""
from __future__ import annotations

import re
import shutil
import stat
import tomllib
from pathlib import Path

import pytest

from cli.install_service import main
from controller.config.load import config_from_dict
from controller.daemon.device_options import driver_options
from firmware_bridge.auth import key_id, load_key

EXEC = "/opt/tablectl/bin/tablectl"
DEVICES = ("shoe", "panel", "lights", "bets")
pytestmark = pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers is not installed")


def install(capsys, root: Path, *argv):
    status = main(["--root", str(root), "--exec", EXEC, *argv])
    out, err = capsys.readouterr()
    return status, out, err


def staged_config(root: Path):
    """The installed config as the daemon would load it, its key paths moved under `root`."""
    data = tomllib.loads((root / "etc/tablectl/tablectl.toml").read_text())
    data["keys"] = {device: str(root / path.lstrip("/")) if path else "" for device, path in data["keys"].items()}
    return data


def test_a_fresh_install_provisions_every_device_key_and_the_config_names_them(tmp_path, capsys):
    status, out, err = install(capsys, tmp_path)
    assert status == 0, err
    data = staged_config(tmp_path)
    config = config_from_dict(data)
    for device in DEVICES:
        path = tmp_path / f"etc/tablectl/keys/{device}.key"
        assert data["keys"][device] == str(path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
        key = load_key(path)
        assert f"key id {key_id(key)}" in out  # printed, with the key itself, to program into the device
        assert " ".join(f"{b:02x}" for b in key) in out
        assert driver_options(config, device)["link_options"]["key"] == key  # the daemon takes it
    assert re.search(r"^provision +\S+/etc/tablectl/keys/shoe\.key", out, re.M)
    assert "program each new device key printed above" in out
    assert "unauthenticated" not in err


def test_a_reinstall_keeps_every_key(tmp_path, capsys):
    install(capsys, tmp_path)
    before = {device: load_key(tmp_path / f"etc/tablectl/keys/{device}.key") for device in DEVICES}
    status, out, err = install(capsys, tmp_path)
    assert status == 0, err
    for device in DEVICES:
        path = tmp_path / f"etc/tablectl/keys/{device}.key"
        assert load_key(path) == before[device]
        assert re.search(rf"^keep +{re.escape(str(path))} +\(key id {key_id(before[device])}\)", out, re.M)
    assert "hex:" not in out  # no key printed again: none is new


def test_a_site_config_decides_which_devices_have_keys(tmp_path, capsys):
    config = tmp_path / "etc/tablectl/tablectl.toml"
    config.parent.mkdir(parents=True)
    config.write_text('game = "paigow"\n[keys]\nshoe = ""\npanel = "/etc/tablectl/site/panel.key"\n')
    status, out, err = install(capsys, tmp_path)
    assert status == 0, err
    assert config.read_text().startswith('game = "paigow"')  # the site's config is kept as it is
    load_key(tmp_path / "etc/tablectl/site/panel.key")  # the key it names is made where it names it
    assert not (tmp_path / "etc/tablectl/keys/shoe.key").exists()
    assert not (tmp_path / "etc/tablectl/keys/lights.key").exists()
    for device in ("shoe", "lights"):
        assert f"warning: the {device} is unauthenticated" in err
        assert f"`tablectl keys provision {device}` makes one" in err
        assert re.search(rf"^skip +key for the {device} +\(/etc/tablectl/tablectl.toml has keys.{device} = \"\"\)",
                         out, re.M)


def test_a_dry_run_provisions_nothing(tmp_path, capsys):
    status, out, err = install(capsys, tmp_path, "--dry-run")
    assert status == 0, err
    assert list(tmp_path.iterdir()) == []
    assert re.search(r"^would provision +\S+/etc/tablectl/keys/lights\.key", out, re.M)


def test_a_site_without_a_bet_sensor_needs_no_key_for_one(tmp_path, capsys):
    config = tmp_path / "etc/tablectl/tablectl.toml"
    config.parent.mkdir(parents=True)
    config.write_text('game = "paigow"\n[keys]\nshoe = "/etc/tablectl/keys/shoe.key"\n'
                      'panel = "/etc/tablectl/keys/panel.key"\nlights = "/etc/tablectl/keys/lights.key"\n')
    status, out, err = install(capsys, tmp_path)
    assert status == 0, err
    assert not (tmp_path / "etc/tablectl/keys/bets.key").exists()
    assert "unauthenticated" not in err
    assert re.search(r"^skip +key for the bets +\(/etc/tablectl/tablectl.toml names no bets in \[devices\]\)", out, re.M)
    # the site adds a bet sensor without a key: that one is unauthenticated, and said so
    config.write_text(config.read_text().replace('game = "paigow"\n', 'game = "paigow"\n[devices]\nbets = "/dev/tablectl/bets"\n'))
    status, out, err = install(capsys, tmp_path)
    assert status == 0, err
    assert "warning: the bets is unauthenticated" in err

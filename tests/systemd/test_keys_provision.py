"""`tablectl keys provision DEVICE` into a staging root (--root on a temp dir holding the
tablectl group) and `tablectl keys id FILE`: a 0640 root:tablectl key file, and the key
printed to program into the device."""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

import cli
from firmware_bridge.auth import key_id, load_key

GID = 990


@pytest.fixture
def root(tmp_path) -> Path:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/group").write_text(f"root:x:0:\ntablectl:x:{GID}:\n")
    return tmp_path


def run(capsys, *argv):
    status = cli.main(["keys", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_provision_writes_a_private_key_file_and_prints_what_to_program(root, capsys):
    status, out, err = run(capsys, "provision", "shoe", "--root", str(root))
    assert status == 0, err
    path = root / "etc/tablectl/keys/shoe.key"
    info = path.stat()
    assert stat.S_IMODE(info.st_mode) == 0o640 and stat.S_IMODE(path.parent.stat().st_mode) == 0o750
    if os.geteuid() == 0:
        assert (info.st_uid, info.st_gid) == (0, GID) and path.parent.stat().st_gid == GID
        assert f"wrote {path} (mode 0640, root:tablectl)" in out
    key = load_key(path)
    assert re.search(r"hex: ([0-9a-f]{2} ){31}[0-9a-f]{2}\n", out).group(0).split(":")[1].split() == \
        [f"{b:02x}" for b in key]
    assert "{" + ", ".join(f"0x{b:02x}" for b in key) + "}" in out
    assert f"key id {key_id(key)}" in out
    assert '[keys]\n  shoe = "/etc/tablectl/keys/shoe.key"' in out  # the path on the table PC, not the staging one
    assert not list(path.parent.glob(".*partial"))


def test_an_existing_key_is_kept_unless_forced(root, capsys):
    run(capsys, "provision", "lights", "--root", str(root))
    path = root / "etc/tablectl/keys/lights.key"
    first = load_key(path)
    status, out, err = run(capsys, "provision", "lights", "--root", str(root))
    assert status == 2 and f"key id {key_id(first)}" in err and "--force" in err and load_key(path) == first
    status, out, err = run(capsys, "provision", "lights", "--root", str(root), "--force")
    assert status == 0 and load_key(path) != first


@pytest.mark.parametrize("argv, named", [
    (["provision", "dealer"], "unknown device 'dealer' (one of shoe, panel, lights, bets)"),
    (["provision", "shoe", "--dir", "keys"], "--dir 'keys': give an absolute path"),
])
def test_bad_arguments_are_named(root, capsys, argv, named):
    status, out, err = run(capsys, *argv, "--root", str(root))
    assert status == 2 and named in err


def test_without_the_tablectl_group_it_says_exactly_what_to_do(tmp_path, capsys):
    status, out, err = run(capsys, "provision", "panel", "--root", str(tmp_path))
    assert status == 2 and f"group 'tablectl' is not in {tmp_path}/etc/group" in err
    assert f"Run `tablectl install-service --root {tmp_path}` first" in err
    assert "provisions every device's key itself" in err
    assert not (tmp_path / "etc/tablectl/keys/panel.key").exists()


def test_on_this_machine_without_the_group_it_names_the_command_that_adds_it(monkeypatch, capsys):
    """As root on a machine where install-service has not run (no group tablectl in /etc/group:
    checked, not assumed): nothing is written, and the message names both ways on."""
    if os.geteuid() != 0 or "\ntablectl:" in "\n" + Path("/etc/group").read_text():
        pytest.skip("needs root on a machine without a tablectl group")
    status, out, err = run(capsys, "provision", "shoe")
    assert status == 2 and "group 'tablectl' is not in /etc/group" in err
    assert "Run `tablectl install-service` first" in err and "sudo groupadd --system tablectl" in err
    assert not Path("/etc/tablectl/keys/shoe.key").exists()


def test_on_this_machine_without_root_it_says_to_use_sudo(monkeypatch, capsys):
    monkeypatch.setattr("cli.keys.os.geteuid", lambda: 1000)  # a user, no write reached
    status, out, err = run(capsys, "provision", "lights")
    assert status == 2 and "writing /etc/tablectl/keys/lights.key needs root: sudo tablectl keys provision lights" in err


def test_keys_id_names_a_key_and_refuses_one_others_can_read(root, capsys):
    run(capsys, "provision", "panel", "--root", str(root))
    path = root / "etc/tablectl/keys/panel.key"
    status, out, err = run(capsys, "id", str(path))
    assert status == 0 and out.strip() == key_id(load_key(path))
    path.chmod(0o644)
    status, out, err = run(capsys, "id", str(path))
    assert status == 2 and "mode 0644" in err

"""`tablectl install-service` makes the table's journal signing key where the config names it
(a staging root, the real systemd-sysusers making the tablectl user there): mode 0600, owned by
the daemon's user when run as root, loadable by the daemon's own loader; a reinstall keeps it;
a site config that signs nothing (journal.signing_key = "") is respected."""
from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from cli.install_service import USER, main, user_id
from controller.journal.signing import key_id, load_public_key, public_key_path

EXEC = "/opt/tablectl/bin/tablectl"
pytestmark = pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers is not installed")


def install(capsys, root: Path):
    status = main(["--root", str(root), "--exec", EXEC])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_fresh_install_makes_the_table_key_for_the_daemon_alone(tmp_path, capsys):
    status, out, err = install(capsys, tmp_path)
    assert status == 0, err
    key = tmp_path / "etc/tablectl/keys/table.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    public = load_public_key(public_key_path(key))
    assert f"key id {key_id(public)}: enrol /etc/tablectl/keys/table.key.pub at the pit" in out
    if os.geteuid() == 0:  # only root can give it to the daemon's user
        assert key.stat().st_uid == user_id(tmp_path, USER)


def test_a_reinstall_keeps_the_table_key(tmp_path, capsys):
    install(capsys, tmp_path)
    key = tmp_path / "etc/tablectl/keys/table.key"
    before = key.read_bytes()
    status, out, err = install(capsys, tmp_path)
    assert status == 0, err
    assert key.read_bytes() == before
    assert f"keep            {key}  (key id " in out


def test_a_site_config_that_signs_nothing_gets_no_key(tmp_path, capsys):
    config = tmp_path / "etc/tablectl/tablectl.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[journal]\nsigning_key = ""\nunsigned = true\n')
    status, out, err = install(capsys, tmp_path)
    assert status == 0, err
    assert not (tmp_path / "etc/tablectl/keys/table.key").exists()
    assert "skip" in out and "journal.signing_key" in out

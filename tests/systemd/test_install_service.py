"""`tablectl install-service` into a staging root (--root on a temp dir, with the real
systemd-sysusers creating the user there) and --dry-run. The real /etc is never written:
the one run against / is a dry run inside a private mount namespace where /etc is
read-only, so a dry run that wrote anything would fail."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from udev_sandbox import sandbox_problem

from cli import install_service
from cli.install_service import main, unit_text
from cli.keys import config_naming_keys

ROOT = Path(__file__).resolve().parents[2]
EXEC = "/opt/tablectl/bin/tablectl"
needs_sysusers = pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers is not installed")


def install(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def lines_for(out: str, path) -> list[str]:
    return [line for line in out.splitlines() if str(path) in line]


def passwd_entry(root: Path, name: str) -> list[str]:
    entries = [line.split(":") for line in (root / "etc/passwd").read_text().splitlines() if line.startswith(name + ":")]
    assert len(entries) == 1, entries
    return entries[0]


@needs_sysusers
def test_staged_install_puts_everything_in_place(tmp_path, capsys):
    status, out, err = install(capsys, "--root", str(tmp_path), "--exec", EXEC)
    assert status == 0, err

    user = passwd_entry(tmp_path, "tablectl")
    assert user[4:] == ["tablectl table controller", "/var/lib/tablectl", "/usr/sbin/nologin"]
    gid = install_service.group_id(tmp_path, "tablectl")
    assert gid is not None and int(user[3]) == gid

    unit = tmp_path / "etc/systemd/system/tablectl.service"
    assert unit.read_text() == unit_text((ROOT / "systemd/tablectl.service").read_text(), EXEC)
    for name in ("69-tablectl-devices.rules", "70-tablectl.rules"):
        assert (tmp_path / "etc/udev/rules.d" / name).read_bytes() == (ROOT / "udev" / name).read_bytes()
    config = tmp_path / "etc/tablectl/tablectl.toml"
    keys = {device: f"/etc/tablectl/keys/{device}.key" for device in ("shoe", "panel", "lights", "bets")}
    assert config.read_text() == config_naming_keys((ROOT / "systemd/tablectl.toml").read_text(), keys)
    assert config.read_text() != (ROOT / "systemd/tablectl.toml").read_text()  # the shipped one names no key
    assert stat.S_IMODE(config.stat().st_mode) == 0o640 and config.stat().st_gid == gid
    assert stat.S_IMODE(unit.stat().st_mode) == 0o644
    assert "--root: not the running system" in out and "systemctl daemon-reload" in out
    assert f"run             systemd-sysusers --root={tmp_path}" in out
    assert not list(tmp_path.rglob("*.partial"))


@needs_sysusers
def test_reinstall_keeps_site_files_and_rewrites_ours(tmp_path, capsys):
    install(capsys, "--root", str(tmp_path), "--exec", EXEC)
    config = tmp_path / "etc/tablectl/tablectl.toml"
    devices = tmp_path / "etc/udev/rules.d/69-tablectl-devices.rules"
    unit = tmp_path / "etc/systemd/system/tablectl.service"
    config.write_text('game = "paigow"\n')
    devices.write_text('SUBSYSTEM=="tty", KERNEL=="ttyS0", ENV{TABLECTL_ROLE}="shoe"\n')
    unit.write_text("[Service]\nExecStart=/bin/false\n")

    status, out, err = install(capsys, "--root", str(tmp_path), "--exec", EXEC)
    assert status == 0, err
    assert config.read_text() == 'game = "paigow"\n'
    assert devices.read_text().startswith('SUBSYSTEM=="tty", KERNEL=="ttyS0"')
    assert lines_for(out, config)[0].startswith("keep ") and "already present" in lines_for(out, config)[0]
    assert lines_for(out, devices)[0].startswith("keep ")
    assert unit.read_text() == unit_text((ROOT / "systemd/tablectl.service").read_text(), EXEC)
    assert lines_for(out, unit)[0].startswith("install ")
    assert lines_for(out, tmp_path / "etc/udev/rules.d/70-tablectl.rules")[0].startswith("unchanged ")
    passwd_entry(tmp_path, "tablectl")  # still exactly one


def test_dry_run_into_a_staging_root_writes_nothing(tmp_path, capsys):
    status, out, err = install(capsys, "--root", str(tmp_path), "--exec", EXEC, "--dry-run")
    assert status == 0, err
    assert list(tmp_path.iterdir()) == []
    assert lines_for(out, tmp_path / "etc/systemd/system/tablectl.service")[0].startswith("would install ")
    assert lines_for(out, tmp_path / "etc/tablectl/tablectl.toml")[0].startswith("would install ")
    assert "would run       systemd-sysusers" in out


@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no private mount namespace: {sandbox_problem()}")
def test_dry_run_on_this_machine_only_prints():
    """Against the real /, made read-only in a private mount namespace for the run."""
    script = 'mount --bind /etc /etc && mount -o remount,bind,ro /etc && exec "$@"'
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script, "sh", sys.executable, "-m", "cli", "install-service", "--dry-run", "--exec", EXEC],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    expected = [
        "would install   /etc/sysusers.d/tablectl.conf",
        "would run       systemd-sysusers /etc/sysusers.d/tablectl.conf",
        "/etc/systemd/system/tablectl.service",
        "/etc/udev/rules.d/70-tablectl.rules",
        "/etc/udev/rules.d/69-tablectl-devices.rules",
        "/etc/tablectl/tablectl.toml",
        "udevadm control --reload",
        "systemctl daemon-reload",
        "next: edit /etc/tablectl/tablectl.toml",
    ]
    positions = [next(i for i, line in enumerate(done.stdout.splitlines()) if text in line) for text in expected]
    assert positions == sorted(positions), done.stdout


def test_installing_into_slash_needs_root(monkeypatch, capsys):
    monkeypatch.setattr(install_service.os, "geteuid", lambda: 1000)  # a non-root user, no writes reached
    status, _, err = install(capsys, "--exec", EXEC)
    assert status == 2 and "needs root" in err


@pytest.mark.parametrize(
    "argv, named",
    [
        (["--root", "/nonexistent/stage"], "--root /nonexistent/stage: not an existing directory"),
        (["--root", "relative/stage"], "--root relative/stage"),
        (["--exec", "bin/tablectl"], "--exec 'bin/tablectl'"),
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
    ],
)
def test_bad_arguments_are_named(capsys, argv, named):
    status, _, err = install(capsys, "--dry-run", *argv)
    assert status == 2 and named in err


def test_a_source_tree_without_the_files_is_named(tmp_path, capsys):
    (tmp_path / "systemd").mkdir()
    (tmp_path / "systemd/tablectl.service").write_text("[Service]\nExecStart=/x\n")
    status, _, err = install(capsys, "--dry-run", "--root", str(tmp_path), "--source", str(tmp_path))
    assert status == 2
    assert str(tmp_path / "udev/70-tablectl.rules") in err and str(tmp_path / "systemd/tablectl.toml") in err
    assert "--source" in err


def test_an_exec_the_service_cannot_see_is_warned_about(tmp_path, capsys):
    status, _, err = install(capsys, "--dry-run", "--root", str(tmp_path), "--exec", "/root/venv/bin/tablectl")
    assert status == 0 and "warning: /root/venv/bin/tablectl" in err and "ProtectHome" in err


@needs_sysusers
def test_a_failing_step_stops_the_install(tmp_path, capsys):
    (tmp_path / "etc/passwd").mkdir(parents=True)  # sysusers cannot update a passwd that is a directory
    status, out, err = install(capsys, "--root", str(tmp_path), "--exec", EXEC)
    assert status == 1
    assert "systemd-sysusers" in err and "failed" in err
    assert not (tmp_path / "etc/systemd/system/tablectl.service").exists()


def test_unit_text_replaces_only_the_program():
    shipped = "[Service]\nType=notify\nExecStart=/opt/tablectl/bin/tablectl run --config /etc/tablectl/tablectl.toml\n"
    assert unit_text(shipped, "/srv/venv/bin/tablectl") == shipped.replace("/opt/tablectl/bin/tablectl", "/srv/venv/bin/tablectl")
    with pytest.raises(install_service.UsageError, match="exactly one ExecStart"):
        unit_text("[Service]\nType=notify\n", "/x")


def test_the_cli_dispatcher_runs_it(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "cli", "install-service", "--dry-run", "--root", str(tmp_path), "--exec", EXEC],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert "would install   " + str(tmp_path / "etc/systemd/system/tablectl.service") in done.stdout


def test_default_source_is_the_checkout_else_the_wheels_data_files(monkeypatch, tmp_path):
    from pathlib import Path

    from cli import install_service as module

    checkout = Path(module.__file__).resolve().parents[1]
    assert module.default_source() == checkout  # tests run from a checkout
    # an installed wheel: the module lives in site-packages, next to no systemd/ directory
    fake_module = tmp_path / "site-packages" / "cli" / "install_service.py"
    monkeypatch.setattr(module, "__file__", str(fake_module))
    monkeypatch.setattr(module.sys, "prefix", str(tmp_path / "venv"))
    assert module.default_source() == tmp_path / "venv" / "share" / "tablectl"
    # ...which is where pyproject.toml's data-files put every file install-service needs
    pyproject = (checkout / "pyproject.toml").read_text()
    for placed in module.FILES:
        assert f'"{placed.source}"' in pyproject, placed.source

"""`tablectl keys table` into a staging root (--root on a temp dir holding the tablectl user
and group): the table's Ed25519 key pair, the private key 0600 owned by the daemon's user,
its public key 0644, and the config lines printed; an existing key is kept unless forced."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import cli
from controller.journal.signing import TableSigner, TableVerifier, key_id, load_public_key, public_key_path

UID, GID = 991, 990


@pytest.fixture
def root(tmp_path) -> Path:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/group").write_text(f"root:x:0:\ntablectl:x:{GID}:\n")
    (tmp_path / "etc/passwd").write_text(f"root:x:0:0::/root:/bin/sh\ntablectl:x:{UID}:{GID}::/var/lib/tablectl:/usr/sbin/nologin\n")
    return tmp_path


def run(capsys, *argv):
    status = cli.main(["keys", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_table_key_pair_is_private_to_the_daemons_user(root, capsys):
    status, out, err = run(capsys, "table", "--root", str(root))
    assert status == 0, err
    path = root / "etc/tablectl/keys/table.key"
    private, public = path.stat(), public_key_path(path).stat()
    assert (stat.S_IMODE(private.st_mode), stat.S_IMODE(public.st_mode)) == (0o600, 0o644)
    if os.geteuid() == 0:
        assert (private.st_uid, private.st_gid) == (UID, GID)
        assert f"wrote {path} (mode 0600, tablectl:tablectl)" in out
    signer = TableSigner.from_file(path, "t07")
    assert TableVerifier(load_public_key(public_key_path(path)), "t07").problem(signer.sign(3, "ab" * 32)) is None
    assert f"key id {key_id(signer.public)}" in out
    assert '[journal]\n  signing_key = "/etc/tablectl/keys/table.key"' in out  # the table PC's path, not the staging one
    assert "tablectl pit enroll SITE/TABLE /etc/tablectl/keys/table.key.pub" in out


def test_an_existing_table_key_is_kept_unless_forced(root, capsys):
    assert run(capsys, "table", "--root", str(root))[0] == 0
    path = root / "etc/tablectl/keys/table.key"
    first = path.read_bytes()
    status, _, err = run(capsys, "table", "--root", str(root))
    assert status == 2 and "exists (key id" in err and "--force makes a new key" in err
    assert path.read_bytes() == first
    assert run(capsys, "table", "--root", str(root), "--force")[0] == 0
    assert path.read_bytes() != first

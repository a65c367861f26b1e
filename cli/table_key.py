"""`tablectl keys table [--dir DIR] [--root DIR] [--force]`: the table's journal signing key.

Makes a new Ed25519 key pair (controller/journal/signing.py): DIR/table.key (default
/etc/tablectl/keys/), mode 0600 and owned by the daemon's user `tablectl` when run as root
(only the daemon reads it), and DIR/table.key.pub (0644), the public key the pit enrols
(`tablectl pit enroll TABLE table.key.pub`) and `tablectl journal verify` checks against.
An existing key is kept unless --force: a new key means enrolling it again at the pit.
"""
from __future__ import annotations

import os
from pathlib import Path

from cli.common import UsageError
from cli.install_service import CONFIG, GROUP, USER, group_id
from controller.journal.signing import SigningKeyError, key_id, load_public_key, new_key_pair, public_key_path

TABLE_KEY = "table.key"


def add_table_parser(commands) -> None:
    from cli.keys import KEYS_DIR  # the one default for every key file

    make = commands.add_parser("table", help="make the table's journal signing key (Ed25519) and its public key")
    make.add_argument("--dir", default=KEYS_DIR, help=f"where key files live (default {KEYS_DIR})")
    make.add_argument("--root", default="/", metavar="DIR", help="a staging root to write under (image builders, tests)")
    make.add_argument("--force", action="store_true", help="replace an existing key (the pit must enrol the new one)")


def user_id(root: Path, name: str) -> int | None:
    """`name`'s uid in the target system's /etc/passwd (not the host's, under --root)."""
    try:
        text = (root / "etc/passwd").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) >= 3 and fields[0] == name:
            return int(fields[2])
    return None


def make_table_key(keys_dir: str, root: Path, force: bool, out) -> int:
    if not keys_dir.startswith("/"):
        raise UsageError(f"--dir {keys_dir!r}: give an absolute path (the config names it as it is)")
    installed = f"{keys_dir.rstrip('/')}/{TABLE_KEY}"
    path = root / installed.lstrip("/")
    if path.exists() and not force:
        raise UsageError(f"{path} exists (key id {_existing_id(path)}); --force makes a new key, "
                         "and the pit must then enrol the new public key")
    as_root = os.geteuid() == 0
    owner = None
    if as_root:
        uid, gid = user_id(root, USER), group_id(root, GROUP)
        if uid is None or gid is None:
            raise UsageError(f"user {USER!r} is not in {root / 'etc/passwd'}: run `tablectl install-service` first")
        owner = (uid, gid)
    if not path.parent.is_dir():
        path.parent.mkdir(mode=0o750, parents=True)
        if owner is not None:
            os.chown(path.parent, 0, owner[1])
    public = new_key_pair(path, owner)
    who = f"{USER}:{GROUP}" if as_root else "your user: not running as root, so not chowned to the daemon's user"
    print(f"wrote {path} (mode 0600, {who}) and {public_key_path(path)} (mode 0644)", file=out)
    print(f"key id {key_id(public)}  (the pit shows the same id once it has enrolled this table)\n", file=out)
    print(f"In {CONFIG}:\n  [journal]\n  signing_key = \"{installed}\"\n  table = \"TABLE\"   # or feed.table", file=out)
    print(f"then restart tablectl, and at the pit: tablectl pit enroll SITE/TABLE {public_key_path(installed)}", file=out)
    print("(a journal begun without this key is refused: the supervisor starts a new chain, docs/journal.md)", file=out)
    return 0


def _existing_id(path: Path) -> str:
    try:
        return key_id(load_public_key(public_key_path(path)))
    except SigningKeyError as error:
        return f"unknown: {error}"

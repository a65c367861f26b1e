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
from typing import TYPE_CHECKING

from cli.common import UsageError
from cli.install_service import CONFIG, GROUP, USER, group_id, site_config_section, user_id
from controller.journal.signing import SigningKeyError, key_id, load_public_key, new_key_pair, public_key_path

if TYPE_CHECKING:
    from cli.install_service import Installer

TABLE_KEY = "table.key"


def add_table_parser(commands) -> None:
    from cli.keys import KEYS_DIR  # the one default for every key file

    make = commands.add_parser("table", help="make the table's journal signing key (Ed25519) and its public key")
    make.add_argument("--dir", default=KEYS_DIR, help=f"where key files live (default {KEYS_DIR})")
    make.add_argument("--root", default="/", metavar="DIR", help="a staging root to write under (image builders, tests)")
    make.add_argument("--force", action="store_true", help="replace an existing key (the pit must enrol the new one)")


def make_table_key(keys_dir: str, root: Path, force: bool, out) -> int:
    if not keys_dir.startswith("/"):
        raise UsageError(f"--dir {keys_dir!r}: give an absolute path (the config names it as it is)")
    installed = f"{keys_dir.rstrip('/')}/{TABLE_KEY}"
    path = root / installed.lstrip("/")
    if path.exists() and not force:
        raise UsageError(f"{path} exists (key id {_existing_id(path)}); --force makes a new key, "
                         "and the pit must then enrol the new public key")
    as_root = os.geteuid() == 0
    public = new_key_pair(path, _daemon_owned_dir(root, path, "run `tablectl install-service` first"))
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


def configured_signing_key(config: Path) -> str | None:
    """journal.signing_key of an existing config ("" when it signs nothing), None when there is none."""
    journal = site_config_section(config, "journal", "to make the table's key")
    return None if journal is None else str(journal.get("signing_key", ""))


def install_table_key(installer: Installer) -> None:
    """install-service's step: the table's signing key where the config names it, made when
    missing (owned by the daemon's user, 0600), never replaced: the pit has enrolled it."""
    from cli.keys import KEYS_DIR

    site = configured_signing_key(installer.path(CONFIG))
    installed = f"{KEYS_DIR}/{TABLE_KEY}" if site is None else site
    if not installed:
        installer.say("skip", "the table's signing key", f"{CONFIG} has journal.signing_key = \"\"")
        return
    path = installer.path(installed)
    if path.exists():
        installer.say("keep", str(path), f"key id {_existing_id(path)}")
        return
    installer.say("provision", str(path), f"the table's journal signing key, mode 0600, owner {USER}")
    if installer.dry_run:
        return
    public = new_key_pair(path, _daemon_owned_dir(installer.root, path, "systemd-sysusers did not make it"))
    print(f"  key id {key_id(public)}: enrol {public_key_path(installed)} at the pit "
          f"(tablectl pit enroll SITE/TABLE FILE)", file=installer.out)


def _daemon_owned_dir(root: Path, key: Path, fix: str) -> tuple[int, int] | None:
    """The key's owner (the daemon's user, when run as root; else none: the caller's) and its
    directory made (0750, group tablectl) if missing."""
    owner = None
    if os.geteuid() == 0:
        uid, gid = user_id(root, USER), group_id(root, GROUP)
        if uid is None or gid is None:
            raise UsageError(f"user {USER!r} is not in {root / 'etc/passwd'}: {fix}")
        owner = (uid, gid)
    if not key.parent.is_dir():
        key.parent.mkdir(mode=0o750, parents=True)
        if owner is not None:
            os.chown(key.parent, 0, owner[1])
    return owner

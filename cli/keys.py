"""`tablectl keys provision DEVICE [--dir DIR] [--root DIR] [--force]`, `tablectl keys id FILE`
and `tablectl keys table [--dir DIR] [--root DIR] [--force]` (the journal's signing key: cli/table_key.py).

provision  makes a new random key for the shoe, panel or lamp board (protocol 1.1,
           firmware_bridge/PROTOCOL.md §8), writes it to DIR/DEVICE.key (default
           /etc/tablectl/keys/) with mode 0640, owner root, group tablectl, and prints what
           to program into the device and the config line that makes the daemon use it.
           An existing key is kept unless --force: a new key means reprogramming the device.
id         the public id of a key file: the same id on the device means the same key.
"""
from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

from cli.common import Parser, UsageError, run_command
from cli.install_service import CONFIG, GROUP, group_id
from cli.table_key import add_table_parser, make_table_key
from firmware_bridge.auth import KEY_SIZE, KeyFileError, key_id, load_key, write_key

DEVICES = ("shoe", "panel", "lights")
KEYS_DIR = "/etc/tablectl/keys"


def _parser() -> Parser:
    parser = Parser(prog="tablectl keys",
                    description="Device keys for authenticated frames (protocol 1.1), and the table's journal signing key.")
    commands = parser.add_subparsers(dest="action", required=True, metavar="{provision,id,table}")
    make = commands.add_parser("provision", help="make a device's key, write its file, print what to program")
    make.add_argument("device", metavar="DEVICE", help=f"one of {', '.join(DEVICES)}")
    make.add_argument("--dir", default=KEYS_DIR, help=f"where key files live (default {KEYS_DIR})")
    make.add_argument("--root", default="/", metavar="DIR", help="a staging root to write under (image builders, tests)")
    make.add_argument("--force", action="store_true", help="replace an existing key (the device must be reprogrammed)")
    show = commands.add_parser("id", help="the public id of a key file")
    show.add_argument("file", metavar="FILE")
    add_table_parser(commands)
    return parser


def provision(device: str, keys_dir: str, root: Path, force: bool, out=None) -> int:
    out = out or sys.stdout
    if device not in DEVICES:
        raise UsageError(f"unknown device {device!r} (one of {', '.join(DEVICES)})")
    if not keys_dir.startswith("/"):
        raise UsageError(f"--dir {keys_dir!r}: give an absolute path (the config names it as it is)")
    installed = f"{keys_dir.rstrip('/')}/{device}.key"  # the path on the table PC, for the config
    path = root / installed.lstrip("/")
    if path.exists() and not force:
        raise UsageError(f"{path} exists (key id {_existing_id(path)}); --force makes a new key, "
                         "and the device must then be reprogrammed with it")
    gid = group_id(root, GROUP)
    if gid is None:
        raise UsageError(f"group {GROUP!r} is not in {root / 'etc/group'}: run `tablectl install-service` first")
    key = secrets.token_bytes(KEY_SIZE)
    _write(path, key, gid, out)
    hex_bytes = " ".join(f"{b:02x}" for b in key)
    c_array = ", ".join(f"0x{b:02x}" for b in key)
    print(f"key id {key_id(key)}  (the same id on the device means the same key)\n", file=out)
    print(f"Program into the {device} as its protocol 1.1 device key, {KEY_SIZE} bytes (PROTOCOL.md §8.2):", file=out)
    print(f"  hex: {hex_bytes}", file=out)
    print(f"  C:   {{{c_array}}}\n", file=out)
    print(f"Then in {CONFIG}:\n  [keys]\n  {device} = \"{installed}\"", file=out)
    print("and restart tablectl: from then on the daemon takes only authenticated frames from it.", file=out)
    return 0


def _existing_id(path: Path) -> str:
    try:
        return key_id(load_key(path))
    except KeyFileError as error:
        return f"unreadable: {error}"


def _write(path: Path, key: bytes, gid: int, out) -> None:
    """Never readable by others at any moment: the directory 0750, the file 0640 from its
    first byte, both root:tablectl when run as root."""
    as_root = os.geteuid() == 0
    if not path.parent.is_dir():
        path.parent.mkdir(mode=0o750, parents=True)
        if as_root:
            os.chown(path.parent, 0, gid)
    write_key(path, key, gid if as_root else None)
    owner = f"root:{GROUP}" if as_root else "your user: not running as root, so not chowned to root:tablectl"
    print(f"wrote {path} (mode 0640, {owner})", file=out)


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    if args.action == "id":
        try:
            print(key_id(load_key(args.file)))
        except KeyFileError as error:
            raise UsageError(str(error)) from None
        return 0
    if args.action == "table":
        return make_table_key(args.dir, Path(args.root), args.force, sys.stdout)
    return provision(args.device, args.dir, Path(args.root), args.force)


def main(argv) -> int:
    return run_command("keys", _main, argv)

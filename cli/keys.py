"""`tablectl keys provision DEVICE [--dir DIR] [--root DIR] [--force]`, `tablectl keys id FILE`
and `tablectl keys table [--dir DIR] [--root DIR] [--force]` (the journal's signing key: cli/table_key.py).

provision  makes a new random key for the shoe, panel, lamp board or bet sensor (protocol 1.1,
           firmware_bridge/PROTOCOL.md §8), writes it to DIR/DEVICE.key (default
           /etc/tablectl/keys/) with mode 0640, owner root, group tablectl, and prints what
           to program into the device and the config line that makes the daemon use it.
           An existing key is kept unless --force: a new key means reprogramming the device.
id         the public id of a key file: the same id on the device means the same key.

`tablectl install-service` provisions every device's key the same way (`install_device_keys`)
and names the files in the config it installs.
"""
from __future__ import annotations

import os
import re
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cli.common import Parser, UsageError, run_command
from cli.install_service import CONFIG, GROUP, group_id, site_config_section
from cli.table_key import add_table_parser, make_table_key
from controller.config.schema import OPTIONAL_DEVICES
from firmware_bridge.auth import KEY_SIZE, KeyFileError, key_id, load_key, write_key

if TYPE_CHECKING:
    from cli.install_service import Installer

DEVICES = ("shoe", "panel", "lights", "bets")  # bets: the bet sensor, when the table has one
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
    staged = root != Path("/")
    if not staged and os.geteuid() != 0:
        raise UsageError(f"writing {installed} needs root: sudo tablectl keys provision {device} "
                         f"(or --root DIR to stage it for an image)")
    gid = group_id(root, GROUP)
    if gid is None:
        where = f" --root {root}" if staged else ""
        raise UsageError(f"group {GROUP!r} is not in {root / 'etc/group'}: the key file's group. "
                         f"Run `tablectl install-service{where}` first: it adds the group (systemd-sysusers) and "
                         f"provisions every device's key itself; or add the group alone: "
                         + (f"systemd-sysusers --root={root} with a line `g {GROUP} -`" if staged
                            else f"sudo groupadd --system {GROUP}"))
    key = secrets.token_bytes(KEY_SIZE)
    _write(path, key, gid, out)
    print("\n".join(program_lines(device, key)) + "\n", file=out)
    print(f"Then in {CONFIG}:\n  [keys]\n  {device} = \"{installed}\"", file=out)
    print("and restart tablectl: from then on the daemon takes only authenticated frames from it.", file=out)
    return 0


def program_lines(device: str, key: bytes) -> list[str]:
    """What to program into `device`: its key id, the key as hex and as a C array."""
    hex_bytes = " ".join(f"{b:02x}" for b in key)
    c_array = ", ".join(f"0x{b:02x}" for b in key)
    return [f"key id {key_id(key)}  (the same id on the device means the same key)", "",
            f"Program into the {device} as its protocol 1.1 device key, {KEY_SIZE} bytes (PROTOCOL.md §8.2):",
            f"  hex: {hex_bytes}", f"  C:   {{{c_array}}}"]


# ------------------------------------------------------------ at install (cli/install_service.py)

def configured_keys(config: Path) -> dict[str, str] | None:
    """The [keys] of an existing config (a device left out: ""), None when there is none to read."""
    keys = site_config_section(config, "keys", "to provision the device keys")
    return None if keys is None else {device: str(keys.get(device, "")) for device in DEVICES}


def _devices_absent(config: Path) -> set[str]:
    """The optional devices (the bet sensor) an existing site config does not have."""
    devices = site_config_section(config, "devices", "to see which devices the table has")
    return set() if devices is None else {device for device in OPTIONAL_DEVICES if not devices.get(device)}


def install_device_keys(installer: Installer) -> dict[str, str]:
    """Provision a key for every device the config authenticates, before the config is placed.

    A config being installed (none yet) names one for each device, at KEYS_DIR/DEVICE.key. The
    site's config is kept: a device it names a key file for gets that file if it is missing;
    one it gives "" stays unauthenticated (the site said so) and is warned about, unless it is
    an optional device (the bet sensor) the site's [devices] does not name. An existing
    key file is never replaced. Returns device -> the key file the new config names."""
    site = configured_keys(installer.path(CONFIG))
    without = _devices_absent(installer.path(CONFIG))
    paths: dict[str, str] = {}
    for device in DEVICES:
        installed = f"{KEYS_DIR}/{device}.key" if site is None else site[device]
        if not installed and device in without:  # no bet sensor at this table: nothing to authenticate
            installer.say("skip", f"key for the {device}", f"{CONFIG} names no {device} in [devices]")
            continue
        if not installed:
            installer.say("skip", f"key for the {device}", f"{CONFIG} has keys.{device} = \"\"")
            print(f"warning: the {device} is unauthenticated: {installer.path(CONFIG)} gives it no key, so a frame "
                  f"forged on its line is taken as the {device}'s; `tablectl keys provision {device}` makes one",
                  file=sys.stderr)
            continue
        paths[device] = installed
        path = installer.path(installed)
        if path.exists():
            installer.say("keep", str(path), f"key id {_existing_id(path)}")
            continue
        installer.say("provision", str(path), f"key of the {device}, mode 0640, group {GROUP}")
        if installer.dry_run:
            continue
        gid = group_id(installer.root, GROUP)
        if gid is None:
            raise UsageError(f"group {GROUP!r} is missing from {installer.path('/etc/group')} after systemd-sysusers")
        key = secrets.token_bytes(KEY_SIZE)
        _write(path, key, gid, installer.out)
        print("\n".join(f"  {line}" if line else "" for line in program_lines(device, key)), file=installer.out)
    return paths


def config_naming_keys(text: str, paths: dict[str, str]) -> str:
    """The shipped config with its [keys] entries naming `paths` (the others stay "")."""
    head, found, rest = text.partition("\n[keys]\n")
    if not found:
        return text
    section, next_header, tail = rest.partition("\n[")
    for device, installed in paths.items():
        section = re.sub(rf'(?m)^{device} = ""$', f'{device} = "{installed}"', section)
    return head + found + section + next_header + tail


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

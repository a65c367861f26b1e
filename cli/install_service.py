"""`tablectl install-service [--dry-run] [--root DIR] [--exec PATH] [--source DIR]`.

Puts tablectl on a table PC as a well-behaved systemd service: the system user and group
(sysusers.d), the unit, the udev rules and the default config, then reloads udev and
systemd. It never enables or starts the service: the engineer edits the config first.

Ours, rewritten on every install: the units (the daemon, the scoreboard, the dealer page, the feed,
the edge), 70-tablectl.rules, the sysusers.d entry.
The site's, installed only when absent: /etc/tablectl/tablectl.toml and
69-tablectl-devices.rules (which USB device is the shoe, panel, lights), and each device's
key (/etc/tablectl/keys/DEVICE.key, protocol 1.1), printed to program into the device and
named in the config installed, so an installed table is authenticated; a site's config that
gives a device no key (keys.DEVICE = "") keeps it so, with a warning; and the table's journal
signing key (journal.signing_key, /etc/tablectl/keys/table.key: Ed25519, 0600, the daemon's
user's), its public key printed to enrol at the pit.
--root DIR stages everything under DIR (image builders, tests) and touches nothing running.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from cli.common import Parser, UsageError, run_command

USER = GROUP = "tablectl"
HOME = "/var/lib/tablectl"
CONFIG = "/etc/tablectl/tablectl.toml"
UNIT = "/etc/systemd/system/tablectl.service"
SCOREBOARD_UNIT = "/etc/systemd/system/tablectl-scoreboard.service"
DEALER_UNIT = "/etc/systemd/system/tablectl-dealer.service"
EDGE_UNIT = "/etc/systemd/system/tablectl-edge.service"
SYSUSERS = "/etc/sysusers.d/tablectl.conf"
SYSUSERS_LINE = f'u {USER} - "tablectl table controller" {HOME} /usr/sbin/nologin\n'
# the feed's own user, reading the journal through group tablectl (systemd/tablectl-feed.service)
SYSUSERS_LINE += f'u tablectl-feed - "tablectl feed" /var/lib/tablectl-feed /usr/sbin/nologin\nm tablectl-feed {GROUP}\n'
FEED_UNIT = "/etc/systemd/system/tablectl-feed.service"
FEED_BROKER_DROP_IN = "/etc/systemd/system/tablectl-feed.service.d/10-broker.conf"
SHIPPED_EXEC = "/opt/tablectl/bin/tablectl"
# Where the service cannot see a binary: ProtectHome= hides these, PrivateTmp= replaces /tmp.
HIDDEN_FROM_SERVICE = ("/home/", "/root/", "/run/user/", "/tmp/", "/var/tmp/")
UDEV_TRIGGER = ["udevadm", "trigger", "--action=change", "--subsystem-match=tty", "--subsystem-match=usb"]


@dataclass(frozen=True)
class Placed:
    """One file to put in place: `source` (relative to the source tree) -> `target` (absolute)."""

    source: str
    target: str
    mode: int = 0o644
    site_owned: bool = False  # the site edits it: install only when absent
    group: str | None = None  # chgrp to this group of the target system


FILES = (
    Placed("systemd/tablectl.service", UNIT),
    Placed("systemd/tablectl-feed.service", FEED_UNIT),
    Placed("systemd/tablectl-scoreboard.service", SCOREBOARD_UNIT),
    Placed("systemd/tablectl-dealer.service", DEALER_UNIT),
    Placed("systemd/tablectl-edge.service", EDGE_UNIT),
    Placed("udev/70-tablectl.rules", "/etc/udev/rules.d/70-tablectl.rules"),
    Placed("udev/69-tablectl-devices.rules", "/etc/udev/rules.d/69-tablectl-devices.rules", site_owned=True),
    Placed("systemd/tablectl.toml", CONFIG, mode=0o640, site_owned=True, group=GROUP),
)


def unit_text(shipped: str, exec_path: str) -> str:
    """The shipped unit with ExecStart's program replaced by `exec_path` (arguments kept)."""
    lines = shipped.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith("ExecStart=")]
    if len(starts) != 1:
        raise UsageError(f"the shipped unit must have exactly one ExecStart= line, found {len(starts)}")
    _program, _, args = lines[starts[0]][len("ExecStart="):].partition(" ")
    lines[starts[0]] = f"ExecStart={exec_path} {args}" if args else f"ExecStart={exec_path}\n"
    return "".join(lines)


def default_exec() -> str:
    """The `tablectl` of the Python running this command (a venv's bin/), else PATH's."""
    beside = Path(sys.executable).parent / "tablectl"
    if beside.is_file():
        return str(beside)
    return shutil.which("tablectl") or SHIPPED_EXEC


def default_source() -> Path:
    """Where systemd/ and udev/ are: the checkout this module runs from (an editable
    install), else the wheel's data files under <prefix>/share/tablectl (pyproject.toml)."""
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / FILES[0].source).is_file():
        return checkout
    return Path(sys.prefix) / "share" / "tablectl"


def site_config_section(config: Path, section: str, why: str) -> dict | None:
    """A section of the site's existing config ({} when it has none), None when there is no
    config yet; a config that cannot be read is a UsageError saying `why` it was read."""
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise UsageError(f"{config}: cannot read its [{section}] {why}: {error}") from None
    found = data.get(section, {})
    return found if isinstance(found, dict) else {}


def group_id(root: Path, name: str) -> int | None:
    """`name`'s gid in the target system's /etc/group (not the host's, under --root)."""
    return _id_in(root / "etc/group", name)


def user_id(root: Path, name: str) -> int | None:
    """`name`'s uid in the target system's /etc/passwd (not the host's, under --root)."""
    return _id_in(root / "etc/passwd", name)


def _id_in(table: Path, name: str) -> int | None:
    try:
        text = table.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) >= 3 and fields[0] == name:
            return int(fields[2])
    return None


class Installer:
    """Carries out (or, dry, only describes) each step, printing one line per step."""

    def __init__(self, root: Path, source: Path, exec_path: str, dry_run: bool, out=None):
        self.root, self.source, self.exec_path = root, source, exec_path
        self.dry_run, self.out = dry_run, out or sys.stdout
        self.staged = root != Path("/")
        self.device_keys: dict[str, str] = {}  # device -> the key file the installed config names

    def path(self, target: str) -> Path:
        return self.root / target.lstrip("/")

    def say(self, verb: str, what: str, note: str = "") -> None:
        verb = f"would {verb}" if self.dry_run and verb not in ("keep", "unchanged", "skip") else verb
        print(f"{verb:<15} {what}" + (f"  ({note})" if note else ""), file=self.out)

    def run(self) -> int:
        self.check_sources()
        self.write(SYSUSERS, SYSUSERS_LINE, 0o644)
        if self.create_user() != 0:
            return 1
        from cli.keys import install_device_keys  # cli.keys imports this module
        from cli.table_key import install_table_key

        self.device_keys = install_device_keys(self)
        install_table_key(self)
        for placed in FILES:
            self.place(placed)
        self.feed_broker_drop_in()
        return self.reload()

    def feed_broker_drop_in(self) -> None:
        """IPAddressAllow= the addresses of the config's feed.broker, for the feed's unit."""
        from services.feed.addresses import broker_drop_in

        text, note = broker_drop_in(self.path(CONFIG))
        if text is None:
            self.say("skip", self.path(FEED_BROKER_DROP_IN).as_posix(), note)
        else:
            self.write(FEED_BROKER_DROP_IN, text, 0o644)

    def check_sources(self) -> None:
        missing = [str(self.source / f.source) for f in FILES if not (self.source / f.source).is_file()]
        if missing:
            raise UsageError(f"missing in the source tree: {', '.join(missing)} (give the tablectl source tree with --source DIR)")

    def create_user(self) -> int:
        command = ["systemd-sysusers"] + ([f"--root={self.root}"] if self.staged else []) + [str(self.path(SYSUSERS))]
        return self.execute(command, f"system user and group {USER}, home {HOME}, no login shell")

    def place(self, placed: Placed) -> None:
        text = (self.source / placed.source).read_text(encoding="utf-8")
        if placed.target.endswith(".service"):
            text = unit_text(text, self.exec_path)
        if placed.target == CONFIG:
            from cli.keys import config_naming_keys

            text = config_naming_keys(text, self.device_keys)
        target = self.path(placed.target)
        if placed.site_owned and target.exists():
            self.say("keep", str(target), f"already present; the shipped one is {self.source / placed.source}")
            return
        self.write(placed.target, text, placed.mode, placed.group)

    def write(self, target: str, text: str, mode: int, group: str | None = None) -> None:
        path = self.path(target)
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            self.say("unchanged", str(path))
            return
        note = f"mode {mode:o}" + (f", group {group}" if group else "")
        if target.endswith(".service"):
            note += f", ExecStart={self.exec_path}"
        self.say("install", str(path), note)
        if self.dry_run:
            return
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.partial")
        partial.write_text(text, encoding="utf-8")
        partial.chmod(mode)
        if group:
            self.give_group(partial, group)
        os.replace(partial, path)

    def give_group(self, path: Path, group: str) -> None:
        gid = group_id(self.root, group)
        if gid is None:
            raise UsageError(f"group {group!r} is missing from {self.path('/etc/group')} after systemd-sysusers")
        if os.geteuid() == 0:
            os.chown(path, 0, gid)
        else:
            self.say("skip", f"chown root:{group} {path}", "not running as root")

    def reload(self) -> int:
        steps = [
            (["udevadm", "control", "--reload"], "/run/udev/control", "udevd is not running"),
            (UDEV_TRIGGER, "/run/udev/control", "udevd is not running"),
            (["systemctl", "daemon-reload"], "/run/systemd/system", "systemd is not running"),
        ]
        for command, running, absent in steps:
            if self.staged:
                self.say("skip", " ".join(command), "--root: not the running system")
            elif shutil.which(command[0]) is None:
                self.say("skip", " ".join(command), f"{command[0]} is not installed")
            elif not Path(running).exists():
                self.say("skip", " ".join(command), absent)
            elif self.execute(command) != 0:
                return 1
        return 0

    def execute(self, command: list[str], note: str = "") -> int:
        self.say("run", " ".join(command), note)
        if self.dry_run:
            return 0
        if shutil.which(command[0]) is None:
            print(f"tablectl install-service: {command[0]} not found (needed for: {' '.join(command)})", file=sys.stderr)
            return 1
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"tablectl install-service: {' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}", file=sys.stderr)
        return done.returncode


def _parser() -> Parser:
    parser = Parser(prog="tablectl install-service", description=__doc__.split("\n\n")[1].replace("\n", " "))
    parser.add_argument("--dry-run", action="store_true", help="print what would be done, change nothing")
    parser.add_argument("--root", default="/", metavar="DIR", help="install into this staging root instead of / (nothing is reloaded)")
    parser.add_argument("--exec", dest="exec_path", metavar="PATH", help=f"the tablectl the unit runs (default: {default_exec()})")
    parser.add_argument("--source", metavar="DIR", help="tablectl source tree with systemd/ and udev/ (default: this checkout)")
    return parser


def _warnings(exec_path: str, root: Path) -> list[str]:
    warnings = []
    if exec_path.startswith(HIDDEN_FROM_SERVICE):
        warnings.append(f"{exec_path} is where the service cannot see it (ProtectHome=/PrivateTmp=); "
                            "install into a venv such as /opt/tablectl")
    elif not (root / exec_path.lstrip("/")).exists():
        warnings.append(f"{exec_path} does not exist under {root}")
    return warnings


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    root = Path(args.root)
    if not root.is_absolute() or not root.is_dir():
        raise UsageError(f"--root {args.root}: not an existing directory given as an absolute path")
    exec_path = args.exec_path or default_exec()
    if not exec_path.startswith("/") or " " in exec_path:
        raise UsageError(f"--exec {exec_path!r}: expected an absolute path without spaces")
    if root == Path("/") and not args.dry_run and os.geteuid() != 0:
        raise UsageError("installing into / needs root (or use --dry-run, or --root DIR to stage)")
    source = Path(args.source) if args.source else default_source()
    for warning in _warnings(exec_path, root):
        print(f"warning: {warning}", file=sys.stderr)
    status = Installer(root, source, exec_path, args.dry_run).run()
    if status == 0:
        print(f"next: edit {root / CONFIG.lstrip('/')} and {root / 'etc/udev/rules.d/69-tablectl-devices.rules'}, "
              "program each new device key printed above into its device (`tablectl keys id FILE` names a key), "
              "then: systemctl enable --now tablectl (and tablectl-scoreboard for the board beside the table, "
              "tablectl-dealer for the dealer's payouts and mispays, "
              "tablectl-edge for surveillance's live house edge)")
    return status


def main(argv) -> int:
    return run_command("install-service", _main, argv)

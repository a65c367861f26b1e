"""Run the machine's `udevadm test` on our rules against a described USB device.

systemd 252 has no `udevadm verify`, and `udevadm test` reads rules only from the system
directories and really creates /dev links and /run/udev entries. So each run happens in a
private mount namespace (`unshare -m`, nothing leaks out of it) where:
  /etc/udev/rules.d  is a directory holding only our two rules files
  /etc/group         is the host's plus a `tablectl` group (GROUP= needs a real group)
  /dev, /run         are empty tmpfs (only null, zero, full, random, urandom and the
                     ptys, which umockdev uses for tty devices, bound in)
and umockdev-run presents the described device under /sys, so Debian's own rules
(50-udev-default, 60-serial, ...) run before ours exactly as on a table PC. After the run
the script reports the links that appeared under /dev/tablectl.
"""
from __future__ import annotations

import functools
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = [ROOT / "udev/69-tablectl-devices.rules", ROOT / "udev/70-tablectl.rules"]
HOST_BUS = "/devices/pci0000:00/0000:00:14.0/usb1"
RULE_LOG = re.compile(r"^(\S+): (/\S+\.rules):(\d+) (.*)$")

SCRIPT = r"""
set -e
T="$1"; SYSPATH="$2"; ACTION="$3"
NODES="null zero full random urandom"
for node in $NODES; do touch "$T/dev-$node"; mount --bind "/dev/$node" "$T/dev-$node"; done
mkdir "$T/dev-pts"; mount --bind /dev/pts "$T/dev-pts"
mount -t tmpfs -o mode=755 tablectl-test-dev /dev
for node in $NODES; do touch "/dev/$node"; mount --bind "$T/dev-$node" "/dev/$node"; done
mkdir /dev/pts; mount --bind "$T/dev-pts" /dev/pts; ln -s pts/ptmx /dev/ptmx
mount -t tmpfs -o mode=755 tablectl-test-run /run
mount --bind "$T/rules.d" /etc/udev/rules.d
mount --bind "$T/group" /etc/group
umockdev-run -d "$T/devices.umockdev" -- udevadm test --action="$ACTION" "$SYSPATH" >"$T/udevadm.out" 2>&1 || echo "EXIT $?"
for link in /dev/tablectl/*; do [ -L "$link" ] && echo "LINK ${link#/dev/tablectl/} $(readlink "$link")"; done
exit 0
"""


def usb_device(port: str, vid: str, pid: str, serial: str, devnum: int) -> str:
    """A USB device (DEVTYPE usb_device) with its /dev/bus/usb node, in umockdev's format."""
    return (
        f"P: {HOST_BUS}/{port}\nN: bus/usb/001/{devnum:03d}\n"
        f"E: DEVNAME=/dev/bus/usb/001/{devnum:03d}\nE: DEVTYPE=usb_device\nE: DRIVER=usb\nE: SUBSYSTEM=usb\n"
        f"E: MAJOR=189\nE: MINOR={devnum - 1}\nE: BUSNUM=001\nE: DEVNUM={devnum:03d}\n"
        f"A: idVendor={vid}\nA: idProduct={pid}\nA: serial={serial}\nA: busnum=1\nA: devnum={devnum}\n"
        f"A: dev=189:{devnum - 1}\n\n"
    )


def usb_interface(port: str, driver: str) -> str:
    return (
        f"P: {HOST_BUS}/{port}/{port}:1.0\nE: DEVTYPE=usb_interface\nE: DRIVER={driver}\nE: SUBSYSTEM=usb\n"
        "A: bInterfaceClass=ff\nA: bInterfaceNumber=00\n\n"
    )


def tty_device(port: str, kernel: str) -> tuple[str, str]:
    """(umockdev text, sysfs path) of a USB-serial tty: ttyUSBn (usb-serial) or ttyACMn (cdc_acm)."""
    number = int(kernel[-1])
    if kernel.startswith("ttyUSB"):
        parent, major, driver = f"{HOST_BUS}/{port}/{port}:1.0/{kernel}", 188, "ftdi_sio"
        text = f"P: {parent}\nE: DRIVER={driver}\nE: SUBSYSTEM=usb-serial\n\n"
    else:
        parent, major, driver, text = f"{HOST_BUS}/{port}/{port}:1.0", 166, "cdc_acm", ""
    syspath = f"{parent}/tty/{kernel}"
    node = (f"P: {syspath}\nN: {kernel}\nE: DEVNAME=/dev/{kernel}\nE: MAJOR={major}\nE: MINOR={number}\n"
                f"E: SUBSYSTEM=tty\nA: dev={major}:{number}\n\n")
    return node + text + usb_interface(port, driver), "/sys" + syspath


@dataclass
class UdevRun:
    output: str
    properties: dict[str, str] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)  # role -> target of /dev/tablectl/role
    rule_lines: list[tuple[str, int, str]] = field(default_factory=list)  # (rules file, line, action)

    def actions(self, rules_file: str, verb: str) -> list[str]:
        return [text for path, _, text in self.rule_lines if path.endswith(rules_file) and text.startswith(verb + " ")]


@functools.cache
def sandbox_problem() -> str | None:
    """Why the sandbox cannot run here, or None when it can."""
    for tool in ("unshare", "umockdev-run", "udevadm"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if not Path("/etc/udev/rules.d").is_dir():
        return "/etc/udev/rules.d is missing"
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs none /run"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"no private mount namespace for udevadm test: {probe.stderr.strip()}"
    return None


def free_gid() -> int:
    used = {int(line.split(":")[2]) for line in Path("/etc/group").read_text().splitlines() if line.count(":") >= 3}
    return next(gid for gid in range(4200, 65000) if gid not in used)


def run_udevadm_test(workdir: Path, devices: str, syspath: str, gid: int, action: str = "add") -> UdevRun:
    (workdir / "rules.d").mkdir()
    for rules in RULES:
        shutil.copy(rules, workdir / "rules.d" / rules.name)
    (workdir / "group").write_text(Path("/etc/group").read_text() + f"tablectl:x:{gid}:\n")
    (workdir / "devices.umockdev").write_text(devices)
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", SCRIPT, "sandbox", str(workdir), syspath, action],
        capture_output=True, text=True, timeout=60,
    )
    output = (workdir / "udevadm.out").read_text() if (workdir / "udevadm.out").exists() else ""
    assert done.returncode == 0 and "EXIT" not in done.stdout, f"sandbox failed: {done.stdout}{done.stderr}\n{output}"
    run = UdevRun(output)
    _, _, properties = output.partition("specified by a RUN key.")
    for line in properties.splitlines():
        key, sep, value = line.partition("=")
        if sep and not line.startswith(("some values", "Unload")):
            run.properties[key] = value
    for line in output.splitlines():
        if match := RULE_LOG.match(line):
            run.rule_lines.append((match[2], int(match[3]), match[4]))
    for line in done.stdout.splitlines():
        if line.startswith("LINK "):
            _, role, target = line.split(" ", 2)
            run.links[role] = target
    return run

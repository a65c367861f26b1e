"""`tablectl sim shoe|panel|lights|bets [options]`: run one simulated device on a pty.

A thin wrapper: each device's options and commands live with it in firmware_bridge/sim/.
`tablectl sim shoe --help` lists them.
"""
from __future__ import annotations

import importlib
import sys

DEVICES = {
    "shoe": "card shoe: deals on command, seeded or scripted, with fault injection",
    "panel": "dealer's button panel and supervisor key",
    "lights": "lamp board: keeps and reports every lamp, --view prints changes",
    "bets": "bet sensor: the chips on every betting space of a game's layout",
}


def _usage() -> str:
    lines = ["usage: tablectl sim DEVICE --link PATH [--control SOCKET] [options]", "", "devices:"]
    lines += [f"  {name.ljust(7)} {text}" for name, text in DEVICES.items()]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv:  # a usage error: usage on stderr, exit 2
        print(_usage(), file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help"):
        print(_usage())
        return 0
    if argv[0] not in DEVICES:
        print(f"tablectl sim: unknown device {argv[0]!r} (one of {', '.join(DEVICES)})", file=sys.stderr)
        return 2
    module = importlib.import_module(f"firmware_bridge.sim.{argv[0]}")
    return module.main(argv[1:])

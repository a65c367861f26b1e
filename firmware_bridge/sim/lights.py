"""`tablectl sim lights`: a lamp board that keeps and reports every lamp's pattern.

    tablectl sim lights --link /run/tablectl-sim/lights --control ... [--lamps 239] [--view]

It obeys LAMP_SET and ALL_OFF, answers LAMP_QUERY and STATUS_QUERY with LAMP_REPORT,
and answers a lamp id it does not have with ERROR BAD_LAMP. `--view` prints one line
per change (the lit lamps). A firmware reboot turns every lamp off. `state` reports
`changed_at`: time.monotonic() when the frame of the last change was read from the pty
(CLOCK_MONOTONIC is system-wide: bench/bench_card_to_lamp.py compares it with the shoe's).

Commands: state (every lamp), lamp ID (one lamp), fault KIND [VALUE], sleep S,
wait connected, quit.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import BinaryIO, TextIO

from firmware_bridge.enums import DeviceKind, ErrorCode, LampPattern
from firmware_bridge.messages import (
    AllOff,
    Error,
    LampQuery,
    LampReport,
    LampSet,
    Message,
    StatusQuery,
)
from firmware_bridge.sim.commands import Command, CommandError, Reply, arg_int
from firmware_bridge.sim.device import VirtualDevice, common_arguments, run_device

MAX_LAMPS = 239  # the most one LAMP_REPORT frame carries
DEFAULT_LAMPS = MAX_LAMPS  # every game's lamp ids fit (fortune7's highest is 207; tests check all)


class Lights(VirtualDevice):
    KIND = DeviceKind.LIGHTS
    NAME = "lights"
    TEXT_ARGS = {"lamp": ("id",)}

    def __init__(self, options: argparse.Namespace, stdin: BinaryIO | None = None,
                 stdout: TextIO | None = None):
        if not 1 <= options.lamps <= MAX_LAMPS:
            raise CommandError(f"--lamps {options.lamps}: 1..{MAX_LAMPS} (one LAMP_REPORT frame)")
        self.lamps = [LampPattern.OFF] * options.lamps
        self.view = options.view
        self.changes = 0
        self.changed_at: float | None = None
        super().__init__(options, stdin, stdout)

    def on_message(self, msg: Message, now: float) -> None:
        if isinstance(msg, LampSet):
            if msg.lamp >= len(self.lamps):
                self.send(Error(ErrorCode.BAD_LAMP, f"lamp {msg.lamp} does not exist (0-{len(self.lamps) - 1})"), now)
                return
            self._set({msg.lamp: msg.pattern}, now)
        elif isinstance(msg, AllOff):
            self._set({i: LampPattern.OFF for i in range(len(self.lamps))}, now)
        elif isinstance(msg, (LampQuery, StatusQuery)):
            self.send(LampReport(tuple(self.lamps)), now)
        else:
            super().on_message(msg, now)

    def _set(self, patterns: dict[int, LampPattern], now: float | None = None) -> None:
        changed = False
        for lamp, pattern in patterns.items():
            if self.lamps[lamp] != pattern:
                self.lamps[lamp] = pattern
                changed = True
        if changed:
            self.changes += 1
            self.changed_at = now
            if self.view:
                self.print_line(self.view_line())

    def lit(self) -> dict[str, str]:
        return {str(i): p.name.lower() for i, p in enumerate(self.lamps) if p != LampPattern.OFF}

    def view_line(self) -> str:
        lit = " ".join(f"{i}={name}" for i, name in self.lit().items())
        return f"lamps: {lit or 'all off'}"

    def cmd_lamp(self, command: Command, now: float) -> Reply:
        lamp = arg_int(command, "id", None, 0, len(self.lamps) - 1)
        return {"lamp": lamp, "pattern": self.lamps[lamp].name.lower()}

    def on_reboot(self, command: Command) -> None:
        self._set({i: LampPattern.OFF for i in range(len(self.lamps))})

    def device_state(self) -> Reply:
        return {"lamps": [p.name.lower() for p in self.lamps], "lit": self.lit(), "changes": self.changes,
                "changed_at": self.changed_at}


def build_parser(prog: str = "tablectl sim lights") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    common_arguments(parser)
    parser.add_argument("--lamps", type=int, default=DEFAULT_LAMPS,
                        help=f"lamps 0..N-1 (default {DEFAULT_LAMPS}: every game's lamps fit)")
    parser.add_argument("--view", action="store_true", help="print a line on stdout at every change")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_device(Lights, build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())

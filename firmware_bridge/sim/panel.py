"""`tablectl sim panel`: the dealer's button panel and the supervisor key switch.

    tablectl sim panel --link /run/tablectl-sim/panel --control /run/tablectl-sim/panel.sock

Commands (JSON on the control socket, or text lines on stdin):
    press B / release B / click B   button B (0..N-1) down, up, or both (click's reply: written_at,
                                    time.monotonic() as the press went out)
    key on|off                      turn the supervisor key
    state, fault KIND [VALUE], sleep S, wait connected, quit   (as every simulator;
                                    fault forge [plain|mac] [button=B] injects a press)

Buttons and the key are physical: a firmware reboot does not change them.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import BinaryIO, TextIO

from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import Button, Key, Message, PanelStatus, StatusQuery
from firmware_bridge.sim.commands import Command, CommandError, Reply, arg_bool, arg_int
from firmware_bridge.sim.device import VirtualDevice, common_arguments, run_device

MAX_BUTTONS = 256
DEFAULT_BUTTONS = 64  # every game's button ids fit (fortune7's highest is 30; tests check all)


class Panel(VirtualDevice):
    KIND = DeviceKind.PANEL
    NAME = "panel"
    TEXT_ARGS = {"press": ("button",), "release": ("button",), "click": ("button",), "key": ("on",)}

    def __init__(self, options: argparse.Namespace, stdin: BinaryIO | None = None,
                 stdout: TextIO | None = None):
        if not 1 <= options.buttons <= MAX_BUTTONS:
            raise CommandError(f"--buttons {options.buttons}: 1..{MAX_BUTTONS}")
        self.buttons = options.buttons
        self.pressed: set[int] = set()
        self.key_on = options.key == "on"
        super().__init__(options, stdin, stdout)

    def on_message(self, msg: Message, now: float) -> None:
        if isinstance(msg, StatusQuery):
            self.send(PanelStatus(self.key_on, tuple(sorted(self.pressed))), now)
        else:
            super().on_message(msg, now)

    def _button(self, command: Command) -> int:
        return arg_int(command, "button", None, 0, self.buttons - 1)

    def cmd_press(self, command: Command, now: float) -> Reply:
        button = self._button(command)
        if button in self.pressed:
            raise CommandError(f"press: button {button} is already down")
        self.pressed.add(button)
        self.send(Button(button, True), now)
        return {"pressed": sorted(self.pressed)}

    def cmd_release(self, command: Command, now: float) -> Reply:
        button = self._button(command)
        if button not in self.pressed:
            raise CommandError(f"release: button {button} is not down")
        self.pressed.discard(button)
        self.send(Button(button, False), now)
        return {"pressed": sorted(self.pressed)}

    def cmd_click(self, command: Command, now: float) -> Reply:
        """Both; the reply's written_at is time.monotonic() as the press's frame goes out
        (CLOCK_MONOTONIC is system-wide: bench/bench_money_daemon.py times button -> lamp)."""
        self.cmd_press(command, now)
        written_at = time.monotonic()
        self.flush()
        return {**self.cmd_release(command, now), "written_at": written_at}

    def cmd_key(self, command: Command, now: float) -> Reply:
        on = arg_bool(command, "on")
        if on == self.key_on:
            raise CommandError(f"key: the key is already {'on' if on else 'off'}")
        self.key_on = on
        self.send(Key(on), now)
        return {"key_on": on}

    def forged_message(self, command: Command, now: float) -> Message:
        """A press nobody made (default: button 0)."""
        return Button(arg_int(command, "button", 0, 0, 255), True)

    def device_state(self) -> Reply:
        return {"buttons": self.buttons, "pressed": sorted(self.pressed), "key_on": self.key_on}


def build_parser(prog: str = "tablectl sim panel") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    common_arguments(parser)
    parser.add_argument("--buttons", type=int, default=DEFAULT_BUTTONS,
                        help=f"buttons 0..N-1 (default {DEFAULT_BUTTONS}: every game's buttons fit)")
    parser.add_argument("--key", choices=("on", "off"), default="off", help="supervisor key at start")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_device(Panel, build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())

"""Simulator commands: one shape for JSON lines and text lines, and replies that name the bad field.

A command is a dict: {"cmd": "draw", "n": 4}. The same command as a text line is
`draw 4` (bare words fill the command's positional fields in order, `key=value` names
one). Values from text stay strings until a handler reads them with `arg_int` etc.,
so a bad value gets the same error whichever way it came.
"""
from __future__ import annotations

import json
import shlex
from collections.abc import Collection
from typing import Any

# A command's values come from JSON or text and are checked where a handler reads them
# (arg_int etc.); a reply's values are anything json.dumps takes.
Command = dict[str, Any]
Reply = dict[str, Any]


class CommandError(ValueError):
    """A command that cannot be carried out; the message goes back as {"ok": false, "error": ...}."""


def parse_json_line(line: str) -> Command:
    try:
        command = json.loads(line)
    except json.JSONDecodeError as error:
        raise CommandError(f"not JSON: {error.msg} at column {error.colno}") from None
    if not isinstance(command, dict) or not isinstance(command.get("cmd"), str):
        raise CommandError('a command is a JSON object with a "cmd" string, e.g. {"cmd": "state"}')
    return command


def parse_text_line(line: str, positional: dict[str, tuple[str, ...]]) -> Command | None:
    """`draw 4` -> {"cmd": "draw", "n": "4"}; None for a blank line or a # comment."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError as error:
        raise CommandError(f"cannot split {line.strip()!r}: {error}") from None
    if not words:
        return None
    command: Command = {"cmd": words[0]}
    names = list(positional.get(words[0], ()))
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if sep:
            command[key] = value
        elif names:
            command[names.pop(0)] = word
        else:
            raise CommandError(f"{words[0]}: unexpected {word!r}")
    return command


def arg_int(command: Command, name: str, default: int | None = None, low: int | None = None,
            high: int | None = None) -> int:
    value = command.get(name, default)
    if value is None:
        raise CommandError(f"{command['cmd']}: missing {name!r}")
    try:
        number = int(value, 0) if isinstance(value, str) else value
        if isinstance(number, bool) or not isinstance(number, int):
            raise ValueError
    except ValueError:
        raise CommandError(f"{command['cmd']}: {name}={value!r} is not a whole number") from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise CommandError(f"{command['cmd']}: {name}={number} is outside {low}..{high}")
    return number


def arg_float(command: Command, name: str, default: float) -> float:
    value = command.get(name, default)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise CommandError(f"{command['cmd']}: {name}={value!r} is not a number") from None
    if number < 0:
        raise CommandError(f"{command['cmd']}: {name}={number} is negative")
    return number


def arg_bool(command: Command, name: str, default: bool | None = None) -> bool:
    value = command.get(name, default)
    if isinstance(value, bool):
        return value
    words = {"on": True, "true": True, "1": True, "yes": True,
             "off": False, "false": False, "0": False, "no": False}
    if isinstance(value, (str, int)) and str(value).lower() in words:
        return words[str(value).lower()]
    raise CommandError(f"{command['cmd']}: {name}={value!r} is not on/off")


def arg_choice(command: Command, name: str, choices: Collection[str]) -> str:
    value = command.get(name)
    if not isinstance(value, str) or value not in choices:
        raise CommandError(f"{command['cmd']}: {name}={value!r} is not one of {', '.join(choices)}")
    return value


def reply_line(reply: Reply) -> bytes:
    return (json.dumps(reply, separators=(",", ":"), sort_keys=False) + "\n").encode()

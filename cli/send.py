"""`tablectl send CMD [FIELD=VALUE ...] [--FIELD VALUE ...] [--socket PATH | --config FILE] [--json]`

Sends a command to the daemon as the dealer panel would, e.g.
    tablectl send no_more_bets
    tablectl send void kind=order_altered reason="shoe door opened"
    tablectl send decide spot=3 decision=play
    tablectl send spots spots=1,3,5
    tablectl send wagers seat=3 banker=25 tie=5   (BET=AMOUNT pairs become the stakes; none clears)
Field values take the command's types (integers, comma-separated lists). Commands and
their fields: `tablectl send --help`. Exit 0 when the daemon accepts, 1 when it refuses.
"""
from __future__ import annotations

import argparse
from typing import Any

from cli.common import Parser, UsageError, run_command
from cli.paths import add_location_options, socket_path
from cli.status import ask
from controller.control.protocol import COMMANDS, BadRequest, ControlError, check_fields
from games.round import IrregularityKind

VOID_HINT = ("to void a round that is neither held nor irregular, name the irregularity, e.g. "
             "`tablectl send void kind=order_altered reason=\"shoe door opened\"` (kinds: "
             + ", ".join(kind.value for kind in IrregularityKind) + "); the supervisor key must be on")

KEY_HINT = ("the supervisor turns the key on at the dealer's panel; a simulated panel takes it on its control "
            "socket: echo '{\"cmd\": \"key\", \"on\": true}' | socat - UNIX-CONNECT:SOCKET (the panel's --control; "
            "docs/simulators.md), or starts with it on (tablectl sim panel --key on)")

_SERVER_ONLY = {"subscribe": "watch"}  # the tablectl command that does this (a stream, not one reply)


def _commands_help() -> str:
    lines = ["commands:"]
    for name, spec in COMMANDS.items():
        if name in _SERVER_ONLY:
            continue
        fields = " ".join([f"{f}=<{t}>" for f, t in spec.required.items()] + [f"[{f}=<{t}>]" for f, t in spec.optional.items()])
        lines.append(f"  {name} {fields}".rstrip() + f"\n      {spec.doc}")
    return "\n".join(lines)


def _parser() -> Parser:
    parser = Parser(prog="tablectl send", description="Send a command to the daemon, as the panel would.",
                    usage="%(prog)s [-h] [--socket PATH | --config FILE] [--json] CMD [FIELD=VALUE ...]",
                    epilog=_commands_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cmd", metavar="CMD", help="the command")
    add_location_options(parser, "--socket", "the daemon's control socket")
    parser.add_argument("--json", action="store_true", help="print the reply as JSON")
    return parser


def _value(cmd: str, name: str, text: str, type_name: str):
    try:
        if type_name == "int":
            return int(text)
        if type_name == "list[int]":
            return [int(part) for part in text.split(",")]
    except ValueError:
        expected = "an integer" if type_name == "int" else "integers separated by commas"
        raise UsageError(f"{cmd}: {name}={text!r}: expected {expected}") from None
    if type_name == "list[str]":
        return [part.strip() for part in text.split(",")]
    return text


def parse_fields(cmd: str, tokens: list[str]) -> dict:
    """FIELD=VALUE and --FIELD VALUE tokens, typed by the command's spec and checked."""
    spec = COMMANDS[cmd]
    known, i = spec.fields(), 0
    fields: dict[str, Any] = {}
    while i < len(tokens):
        token = tokens[i]
        if token.startswith("--"):
            name, sep, text = token[2:].partition("=")
            if not sep:
                if i + 1 >= len(tokens):
                    raise UsageError(f"{token}: expected a value after it")
                i, text = i + 1, tokens[i + 1]
        else:
            name, sep, text = token.partition("=")
            if not sep:
                raise UsageError(f"{token!r}: expected FIELD=VALUE")
        if cmd == "wagers" and name not in known:  # BET=AMOUNT: a stake (the table names a bad bet)
            fields.setdefault("stakes", []).append(f"{name}={text}")
            i += 1
            continue
        if name not in known:
            raise UsageError(f"{cmd}: unknown field {name!r} (fields: {', '.join(known) or 'none'})")
        fields[name] = _value(cmd, name, text, known[name])
        i += 1
    if cmd == "wagers":
        fields.setdefault("stakes", [])
    try:
        check_fields(cmd, fields, spec)
    except BadRequest as error:
        raise UsageError(str(error)) from None
    return fields


def _main(argv) -> int:
    args, rest = _parser().parse_known_args(argv)
    if args.cmd not in COMMANDS or args.cmd in _SERVER_ONLY:
        names = [n for n in COMMANDS if n not in _SERVER_ONLY]
        hint = f" (use `tablectl {_SERVER_ONLY[args.cmd]}`)" if args.cmd in _SERVER_ONLY else ""
        raise UsageError(f"unknown command {args.cmd!r}{hint} (one of {', '.join(names)})")
    fields = parse_fields(args.cmd, rest)
    return ask("send", socket_path(args), args.cmd, fields, args.json, lambda error: _hint(args.cmd, fields, error))


def _hint(cmd: str, fields: dict, error: str) -> str | None:
    """What to do about a refusal: name the irregularity of a void, or turn the key on."""
    if cmd == "void" and "kind" not in fields:
        return VOID_HINT
    return KEY_HINT if "supervisor key" in error else None


def main(argv) -> int:
    return run_command("send", _main, argv, (ControlError,))

"""`tablectl status [--socket PATH | --config FILE] [--json]`: the daemon's current state."""
from __future__ import annotations

import json
import sys

from cli.common import Parser, run_command
from cli.paths import add_location_options, socket_path
from cli.status_text import status_lines
from controller.control import ControlClient, ControlError


def _parser() -> Parser:
    parser = Parser(prog="tablectl status", description="Ask the daemon for its current state.")
    add_location_options(parser, "--socket", "the daemon's control socket")
    parser.add_argument("--json", action="store_true", help="the reply as one JSON object")
    return parser


def field_lines(reply: dict) -> list[str]:
    """A command's reply for people: the daemon's message ("round 12 settled"), then any other
    field as `key: value` (nested values as compact JSON)."""
    lines = [reply["message"]] if isinstance(reply.get("message"), str) else []
    return lines + [f"{key}: {value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(',', ':'))}"
                    for key, value in reply.items() if key not in ("id", "ok", "message")]


def ask(name: str, path: str, cmd: str, fields: dict, as_json: bool, hint=None) -> int:
    """Send one request; print the reply; 0 if ok, 1 if refused (ControlError if unreachable).
    `hint(error)`: a line saying what to do about a refusal, or None."""
    with ControlClient(path) as client:
        reply = client.request(cmd, **fields)
    if as_json:
        print(json.dumps(reply, ensure_ascii=False, separators=(",", ":")))
    elif reply.get("ok"):
        print("\n".join(status_lines(reply) if cmd == "status" else field_lines(reply)) or "ok")
    if not reply.get("ok"):
        print(f"tablectl {name}: {reply.get('error')}", file=sys.stderr)
        if hint is not None and (said := hint(str(reply.get("error")))) is not None:
            print(f"tablectl {name}: {said}", file=sys.stderr)
        return 1
    return 0


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    return ask("status", socket_path(args), "status", {}, args.json)


def main(argv) -> int:
    return run_command("status", _main, argv, (ControlError,))

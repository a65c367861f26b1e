"""`tablectl watch [--socket PATH | --config FILE] [--json] [--count N]`

Follows the daemon's event stream (state, cards, results, irregularities), one line an
event: readable by default, the raw JSON with --json. Ends when the daemon stops (exit 1),
after N events with --count (exit 0), or on Ctrl-C (exit 0).
"""
from __future__ import annotations

import json
import sys
import time

from cli.common import Parser, UsageError, run_command
from cli.paths import add_location_options, socket_path
from controller.control import ControlClient, ControlError
from games.clauses import summary

NAME_KEYS = ("event", "type", "kind")  # the first present names the event
CLAUSE_KEYS = ("clause", "void_clause")  # shown with what the clause says (games/clauses.py)


def _parser() -> Parser:
    parser = Parser(prog="tablectl watch", description="Follow the daemon's event stream.")
    add_location_options(parser, "--socket", "the daemon's control socket")
    parser.add_argument("--json", action="store_true", help="print each event as its JSON line")
    parser.add_argument("--count", type=int, metavar="N", help="stop after N events")
    return parser


def event_text(event: dict, now: float | None = None) -> str:
    name_key = next((k for k in NAME_KEYS if isinstance(event.get(k), str)), None)
    parts = [time.strftime("%H:%M:%S", time.localtime(now)), event[name_key] if name_key else "event"]
    for key, value in event.items():
        if key != name_key:
            shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            said = summary(value) if key in CLAUSE_KEYS and isinstance(value, str) else ""
            parts.append(f"{key}={shown}" + (f" ({said})" if said else ""))
    return "  ".join(parts)


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    if args.count is not None and args.count < 1:
        raise UsageError(f"--count {args.count}: must be at least 1")
    try:
        with ControlClient(socket_path(args)) as client:
            for seen, event in enumerate(client.events(), start=1):
                line = json.dumps(event, ensure_ascii=False, separators=(",", ":")) if args.json else event_text(event)
                print(line, flush=True)
                if seen == args.count:
                    return 0
    except KeyboardInterrupt:
        return 0
    print("tablectl watch: the daemon closed the event stream", file=sys.stderr)
    return 1


def main(argv) -> int:
    return run_command("watch", _main, argv, (ControlError,))

"""`tablectl journal verify|export|recovery [--journal PATH | --config FILE]`

  verify              check the hash chain; exit 0 intact, 1 with the first broken record
  export [--json]     every record as JSON Lines (one object a line) on stdout; --since SEQ
  recovery            what a restart would find: last round, interrupted round, shoe state
"""
from __future__ import annotations

import json
import sys

from cli.common import Parser
from cli.paths import add_location_options, journal_path, run_reporting
from controller.journal import JournalError, export_jsonl, recover, verify


def _parser() -> Parser:
    parser = Parser(prog="tablectl journal", description="Verify or export the journal.")
    commands = parser.add_subparsers(dest="action", required=True, metavar="{verify,export,recovery}")
    check = commands.add_parser("verify", help="check the hash chain")
    check.add_argument("--json", action="store_true", help="the report as one JSON object")
    out = commands.add_parser("export", help="every record as JSON Lines")
    out.add_argument("--json", action="store_true", help="JSON Lines (the one format; accepted for clarity)")
    out.add_argument("--since", type=int, default=0, metavar="SEQ", help="only records after this seq")
    state = commands.add_parser("recovery", help="what a restart would find")
    state.add_argument("--json", action="store_true", help="(always JSON)")
    for sub in (check, out, state):
        add_location_options(sub, "--journal", "the journal file")
    return parser


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    path = journal_path(args)
    if args.action == "verify":
        report = verify(path)
        print(json.dumps(report.to_json()) if args.json else f"{path}: {report}")
        return 0 if report.ok else 1
    if args.action == "export":
        export_jsonl(path, sys.stdout, since=args.since)
        return 0
    print(json.dumps(recover(path).to_json(), ensure_ascii=False))
    return 0


def main(argv) -> int:
    return run_reporting("journal", _main, argv, (JournalError,))

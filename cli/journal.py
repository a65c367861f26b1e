"""`tablectl journal verify|check|export|recovery [--journal PATH | --config FILE]`

  verify              check the hash chain and the table's signatures (every signed head and
                      the anchor); exit 0 intact, 1 with the first broken record
  check               the daemon's start-up check: the records since the anchor, the anchored
                      record, the chain's identity, a journal missing or emptied; exit 0 / 1

verify and check take the table's public key from the config (`journal.signing_key` + ".pub")
or from --public-key FILE --table ID; with --journal PATH alone they check the chain only and
say that the signatures were not checked.
  export [--json]     every record as JSON Lines (one object a line) on stdout; --since SEQ.
                      A record that cannot be exported is named on stderr and left out, a
                      damaged file is exported as far as it can be read: exit 1 then.
  recovery            what a restart would find: last round, interrupted round, shoe state
"""
from __future__ import annotations

import json
import sys

from cli.common import Parser, UsageError, run_command
from cli.paths import add_location_options, config_for_cli, journal_path
from controller.journal import JournalError, check_journal, export_jsonl, recover, verify
from controller.journal.scan import Unreadable
from controller.journal.signing import TableVerifier
from controller.journal.table_key import table_verifier


def _parser() -> Parser:
    parser = Parser(prog="tablectl journal", description="Verify or export the journal.")
    commands = parser.add_subparsers(dest="action", required=True, metavar="{verify,check,export,recovery}")
    whole = commands.add_parser("verify", help="check the hash chain")
    whole.add_argument("--json", action="store_true", help="the report as one JSON object")
    check = commands.add_parser("check", help="the daemon's start-up check (since the last anchor)")
    check.add_argument("--json", action="store_true", help="the report as one JSON object")
    out = commands.add_parser("export", help="every record as JSON Lines")
    out.add_argument("--json", action="store_true", help="JSON Lines (the one format; accepted for clarity)")
    out.add_argument("--since", type=int, default=0, metavar="SEQ", help="only records after this seq")
    state = commands.add_parser("recovery", help="what a restart would find")
    state.add_argument("--json", action="store_true", help="(always JSON)")
    for sub in (whole, check, out, state):
        add_location_options(sub, "--journal", "the journal file")
    for sub in (whole, check):
        sub.add_argument("--public-key", metavar="FILE", help="the table's public key (tablectl keys table makes it)")
        sub.add_argument("--table", metavar="ID", help="the table's identity its journal is signed as (with --public-key)")
    return parser


def _verifier(args) -> TableVerifier | None:
    """The table's public key: given, from the config, or none (a bare --journal)."""
    if args.public_key is not None:
        if not args.table:
            raise UsageError("--public-key needs --table ID: the identity the journal is signed as")
        return TableVerifier.from_public_file(args.public_key, args.table)
    if args.table:
        raise UsageError("--table goes with --public-key FILE")
    if args.journal is not None:
        return None
    return table_verifier(config_for_cli(args.config))


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    path = journal_path(args)
    if args.action == "verify":
        report = verify(path, _verifier(args))
        print(json.dumps(report.to_json()) if args.json else f"{path}: {report}")
        return 0 if report.ok else 1
    if args.action == "check":
        found = check_journal(path, _verifier(args), full=False)
        print(json.dumps(found.to_json()) if args.json else f"{path}: {found}")
        return 0 if found.ok else 1
    if args.action == "export":
        return _export(path, args.since)
    print(json.dumps(recover(path).to_json(), ensure_ascii=False))
    return 0


def _export(path: str, since: int) -> int:
    problems: list[Unreadable] = []

    def problem(item: Unreadable) -> None:
        sys.stdout.flush()  # the records before it first, when both go to one terminal
        problems.append(item)
        what = item.reason if item.file_damage else f"record {item.seq} not exported: {item.reason}"
        print(f"tablectl journal: {what}", file=sys.stderr)

    count = export_jsonl(path, sys.stdout, since=since, on_problem=problem)
    if not problems:
        return 0
    sys.stdout.flush()
    print(f"tablectl journal: {count} records exported; not exported: {', '.join(p.records() for p in problems)}",
          file=sys.stderr)
    return 1


def main(argv) -> int:
    return run_command("journal", _main, argv, (JournalError,))

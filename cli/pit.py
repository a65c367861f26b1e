"""`tablectl pit`: the floor's view of every table, from the floor's MQTT broker.

    tablectl pit [--broker URL] [--ca F --cert F --key F] [--db PATH] [--json]
    tablectl pit recall --table T [--last N] [--db PATH] [--json]
    tablectl pit export --table T [--db PATH]        # as `tablectl journal export` at the table
    tablectl pit alarms [--table T] [--open] [--db PATH] [--json]
    tablectl pit enroll SITE/TABLE KEYFILE [--db PATH]   # the table's public key (tablectl keys table)
    tablectl pit meters [--table T] [--shift N] [--alarm-sd X] [--db PATH] [--json]   # drop, win, hold, theory

The first subscribes to PREFIX/+/+/record and status, keeps every record in its database
(idempotent by table and seq, each table's chain checked), and shows the floor live in the
terminal; `--json` prints one JSON object a line per change instead (logs go to stderr).
The others answer from the database alone. T is SITE/TABLE, or TABLE when only one site has it.
`enroll` records a table's public key: from then on the pit verifies that table's records
against its signed heads, and keeps apart what they do not vouch for (docs/floor.md).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from cli.common import Parser, UsageError, fraction_argument, print_json, run_command
from cli.recall import round_text
from controller.journal import DEFAULT_RECALL, fold_rounds
from controller.journal.signing import SigningKeyError
from controller.logs import configure_logging
from services.broker import BrokerError, BrokerSettings, client_id
from services.pit import Pit, PitStore
from services.pit.database import DatabaseError, is_url
from services.pit.meters import floor_meters
from services.pit.pit import log
from services.pit.view import change_text, render
from services.thread_deaths import ThreadDeaths

ACTIONS = ("recall", "export", "alarms", "enroll", "meters")
REDRAW_S = 0.25


def _live_parser() -> Parser:
    parser = Parser(prog="tablectl pit", description="The floor live: every table's records from the broker, checked.",
                    epilog="Also: tablectl pit recall|export|alarms|enroll|meters --help")
    parser.add_argument("--broker", default="mqtts://localhost:8883", metavar="URL", help="mqtts://host:port (default: %(default)s)")
    parser.add_argument("--ca", default="", metavar="FILE", help="CA the broker's certificate chains to (default: the system's)")
    parser.add_argument("--cert", default="", metavar="FILE", help="the pit's client certificate (PEM)")
    parser.add_argument("--key", default="", metavar="FILE", help="its private key (PEM)")
    parser.add_argument("--username", default="", help="a login at the broker")
    parser.add_argument("--password-file", default="", metavar="FILE", help="a file holding its password")
    parser.add_argument("--insecure", action="store_true", help="allow mqtt:// (clear text): a lab only")
    parser.add_argument("--prefix", default="tablectl", help="the feeds' topic prefix (default: %(default)s)")
    parser.add_argument("--client-id", default="", help="the pit's MQTT client id; its session and queue at the broker "
                        "(default: tablectl-pit-HOSTNAME)")
    _db_option(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object a line per change, not the live view")
    parser.add_argument("--log", metavar="FILE", help="the live view's log (default: the database's path + .log; pit.log for a server)")
    return parser


def _db_option(parser: Parser) -> None:
    parser.add_argument("--db", default="pit.sqlite", metavar="PATH|URL",
                        help="the pit's database: a SQLite file, or postgresql://USER@HOST/DBNAME (default: %(default)s)")


def _enroll(argv: list[str]) -> int:
    parser = Parser(prog="tablectl pit enroll", description="Enrol a table's public key: the pit then verifies its records.")
    parser.add_argument("table", metavar="SITE/TABLE", help="the table as its feed names it (feed.site/feed.table)")
    parser.add_argument("key_file", metavar="KEYFILE", help="its public key: table.key.pub, made by `tablectl keys table`")
    _db_option(parser)
    args = parser.parse_args(argv)
    site, _, name = args.table.partition("/")
    if not site or not name or "/" in name:
        raise UsageError(f"{args.table!r}: give SITE/TABLE, as the table's feed names it (feed.site/feed.table)")
    store = PitStore(args.db)
    try:
        enrolment = store.enrol(args.table, args.key_file)
    finally:
        store.close()
    print(f"enrolled {args.table}: key id {enrolment.key_id} (its journal signs as table {name!r}); from now on the pit "
          f"verifies its records against its signed heads and keeps apart what they do not vouch for")
    return 0


def _answer_parser(action: str) -> Parser:
    parser = Parser(prog=f"tablectl pit {action}")
    parser.add_argument("--table", required=action not in ("alarms", "meters"), metavar="T",
                        help="SITE/TABLE, or TABLE if only one site has it")
    if action == "recall":
        parser.add_argument("--last", type=int, default=DEFAULT_RECALL, metavar="N", help=f"how many rounds (default {DEFAULT_RECALL})")
    if action == "alarms":
        parser.add_argument("--open", action="store_true", help="only alarms not cleared")
    if action == "meters":
        parser.add_argument("--shift", type=int, metavar="N", help="each table's shift N only")
        parser.add_argument("--alarm-sd", default="3", metavar="X",
                            help="flag a shift beyond this many standard deviations (default: %(default)s)")
    if action != "export":
        parser.add_argument("--json", action="store_true", help="JSON instead of text")
    _db_option(parser)
    return parser


def _store(path: str) -> PitStore:
    if not is_url(path) and not os.path.isfile(path):
        raise UsageError(f"--db {path}: no pit database there (tablectl pit --db {path} makes one)")
    return PitStore(path)


def _table(store: PitStore, wanted: str) -> str:
    tables = store.tables()
    if wanted in tables:
        return wanted
    matches = [t for t in tables if t.split("/", 1)[1] == wanted]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UsageError(f"--table {wanted}: several sites have it ({', '.join(matches)}): give SITE/TABLE")
    raise UsageError(f"--table {wanted}: not in {store.path} (tables: {', '.join(tables) or 'none yet'})")


def _recall(store: PitStore, table: str, last: int, as_json: bool) -> int:
    if last < 1:
        raise UsageError(f"--last {last}: must be at least 1")
    opened = store.conn.execute("SELECT round, seq FROM records WHERE table_id = ? AND kind = 'round_opened' "
                                "ORDER BY seq DESC LIMIT ?", (table, last)).fetchall()
    numbers = {number for number, _ in opened}
    since = min((seq for _, seq in opened), default=1) - 1
    # the input records between them too (no round): they say who gave each command, as at the table
    views = fold_rounds(r for r in store.records(table, since) if r.round is None or r.round in numbers)
    rounds = [views[n] for n in sorted(views) if n in numbers]
    if as_json:
        print(json.dumps([v.to_json() for v in rounds], ensure_ascii=False, separators=(",", ":")))
    elif not rounds:
        print(f"no rounds from {table} yet")
    else:
        print("\n".join(round_text(view) for view in rounds))
    return 0


def _meters(store: PitStore, args: Any) -> int:
    alarm_sd = fraction_argument("--alarm-sd", args.alarm_sd, "3 or 2.5")
    if alarm_sd <= 0:
        raise UsageError(f"--alarm-sd {args.alarm_sd}: must be more than 0")
    meters = floor_meters(store.conn, alarm_sd, _table(store, args.table) if args.table else None, args.shift)
    data = meters.to_json()
    if args.json:
        print(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        return 0
    def line(name: str, group: dict[str, Any]) -> str:
        pace = f"{group['hands_per_hour']}/h" if group["hands_per_hour"] else "-"
        return (f"{name:<24} {group['rounds']:>6} {group['drop']:>12} {group['house_net']:>11} "
                f"{group['hold_pct'] or '-':>7} {group['theoretical_win']:>12} {group['sd']:>10} {_z(group['z']):>7} {pace:>8}")
    print(f"{'table':<24} {'rounds':>6} {'drop':>12} {'house net':>11} {'hold %':>7} {'theo win':>12} {'sd':>10} "
          f"{'z':>7} {'pace':>8}")
    for table in data["tables"]:
        print(line(table["table"], table))
    print(line(f"floor ({data['floor']['tables']} tables)", data["floor"]))
    for alarm in data["alarms"]:
        print(f"ALARM {alarm['table']} shift {alarm['shift']}: house net {alarm['actual']} against a theoretical win "
              f"of {alarm['theoretical']} (sd {alarm['sd']}): z = {alarm['z']}, beyond {alarm['alarm_sd']} sd "
              f"({alarm['direction']})")
    return 0


def _z(z: float | None) -> str:
    return "-" if z is None else f"{z:.2f}"


def _answer(action: str, argv: list[str]) -> int:
    if action == "enroll":
        return _enroll(argv)
    args = _answer_parser(action).parse_args(argv)
    store = _store(args.db)
    if action == "recall":  # --table is required for recall and export
        return _recall(store, _table(store, args.table), args.last, args.json)
    if action == "meters":
        return _meters(store, args)
    if action == "export":
        for record in store.records(_table(store, args.table)):
            sys.stdout.write(json.dumps(record.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n")
        return 0
    alarms = store.alarms(_table(store, args.table) if args.table else None, open_only=args.open)
    for alarm in alarms:
        if args.json:
            print_json(alarm.to_json())
        else:
            state = f"cleared {alarm.cleared_at}" if alarm.cleared_at else "OPEN"
            print(f"{alarm.raised_at}  {alarm.table}  {alarm.kind}  {alarm.detail}  [{state}]")
    return 0


def _live(argv: list[str]) -> int:
    args = _live_parser().parse_args(argv)
    settings = BrokerSettings(url=args.broker, client_id=args.client_id or client_id("tablectl-pit", ""), ca=args.ca,
                              cert=args.cert, key=args.key, username=args.username, password_file=args.password_file,
                              insecure=args.insecure)
    live = not args.json and sys.stdout.isatty()
    log_stream = open(args.log or _default_log(args.db), "a", encoding="utf-8") if live else sys.stderr
    configure_logging("json", "info", stream=log_stream)
    emit: Callable[[dict], None] | None = None  # live: the screen is redrawn instead
    if not live:
        show = print_json if args.json else _print_change

        def emit_line(line: dict) -> None:
            show(line)
            sys.stdout.flush()
        emit = emit_line
    pit = Pit(settings, args.prefix, args.db, emit=emit)
    args.db = pit.store.path  # shown without a password
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    deaths = ThreadDeaths(stop, log).install()  # a dead thread ends the pit with an error: systemd restarts it
    pit.run(stop, on_idle=_redrawing(pit, args) if live else None)
    return deaths.exit_status()


def _default_log(db: str) -> str:
    """Beside a SQLite file; for a server, pit.log in the working directory."""
    return "pit.log" if is_url(db) else f"{db}.log"


def _print_change(line: dict) -> None:
    print(time.strftime("%H:%M:%S"), change_text(line), flush=True)


def _redrawing(pit: Pit, args):
    state: dict[str, Any] = {"at": 0.0, "shown": ""}

    def redraw() -> None:
        now = time.monotonic()
        if now - state["at"] < REDRAW_S:
            return
        up = pit.link.connected.is_set()
        title = (f"tablectl pit  {args.broker} ({'connected' if up else 'NOT CONNECTED'})  {args.prefix}/#  db {args.db}  "
                 f"{time.strftime('%H:%M:%S')}")
        notice = None if up else f"not connected: {pit.link.problem or 'connecting'}"
        size = shutil.get_terminal_size((80, 24))  # one spare each way: a full last column or row would scroll
        text = render(pit.views.values(), pit.alarms(), title, size.columns - 1, notice, size.lines - 1)
        if text != state["shown"]:
            sys.stdout.write("\x1b[H\x1b[2J" + text + "\n")
            sys.stdout.flush()
            state["shown"] = text
        state["at"] = now

    return redraw


def _main(argv: list[str]) -> int:
    if argv and argv[0] in ACTIONS:
        return _answer(argv[0], argv[1:])
    return _live(argv)


def main(argv) -> int:
    return run_command("pit", _main, argv, (BrokerError, OSError, SigningKeyError, DatabaseError))

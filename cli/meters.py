"""`tablectl meters [--shoe N | --shift N] [--json] [--theory exact|full_shoe] [--alarm-sd X]
[--journal PATH | --config FILE]`

The table's meters from its journal (controller/journal/meters.py; docs/meters.md): drop, paid,
collected, commission, fees, house net, hold %, theoretical win and its standard deviation, per
bet and in total; for the whole journal (with each shift and shoe), one shoe or one shift (with
its rounds). A shift whose house net departs from its theoretical win by more than `alarm_sd`
standard deviations is flagged with the numbers. Reads the journal read-only; safe while the
daemon runs.
"""
from __future__ import annotations

from typing import Any

from cli.common import Parser, UsageError, fraction_argument, print_json, run_command
from cli.paths import add_location_options, config_for_cli, journal_path
from cli.recall import by_text
from controller.journal import JournalError
from controller.journal.meter_sums import MetersReport
from controller.journal.meters import THEORIES, BadMoneyRecord, fold_journal

COLUMNS = (("wagers", "wagers"), ("drop", "drop"), ("paid", "paid"), ("collected", "collected"),
           ("commission", "commission"), ("fees", "fees"), ("house_net", "house net"), ("hold_pct", "hold %"),
           ("theoretical_win", "theo win"), ("sd", "sd"), ("z", "z"))


class NoSuchPeriod(LookupError):
    """A --shoe or --shift the journal does not hold."""


def _parser() -> Parser:
    parser = Parser(prog="tablectl meters", description="The table's meters from the journal.")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--shoe", type=int, metavar="N", help="one shoe, with its rounds")
    which.add_argument("--shift", type=int, metavar="N", help="one shift, with its rounds")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--theory", choices=THEORIES, default="exact",
                        help="the theoretical win of each round for the cards left when it was dealt (exact, the "
                             "default; about 10 ms a round at 8 decks) or for a full shoe (full_shoe: fast)")
    parser.add_argument("--alarm-sd", metavar="X", help="flag a shift beyond this many standard deviations "
                                                        "(default: the config's meters.alarm_sd, 3)")
    add_location_options(parser, "--journal", "the journal file")
    return parser


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def _table(group: dict[str, Any]) -> list[str]:
    rows = [(bet, figures) for bet, figures in group["bets"].items()] + [("total", group)]
    width = max(len(bet) for bet, _ in rows)
    sizes = [max(len(title), *(len(_cell(f[key])) for _, f in rows)) for key, title in COLUMNS]
    lines = ["    " + "bet".ljust(width) + "".join("  " + t.rjust(n) for (_, t), n in zip(COLUMNS, sizes, strict=True))]
    for bet, figures in rows:
        lines.append("    " + bet.ljust(width) + "".join(
            "  " + _cell(figures[key]).rjust(n) for (key, _), n in zip(COLUMNS, sizes, strict=True)))
    return lines


def _head(group: dict[str, Any]) -> str:
    pace = f", {group['hands_per_hour']} hands an hour" if group["hands_per_hour"] else ""
    span = f", {group['first_at'][:19]}Z to {group['last_at'][:19]}Z" if group["first_at"] and group["last_at"] else ""
    return f"{group['rounds']} rounds ({group['void_rounds']} void){span}{pace}"


def _shift_line(shift: dict[str, Any]) -> str:
    name = f" ({shift['name']})" if shift["name"] else ""
    opened = f"opened {shift['opened_at'][:19]}Z" if shift["opened_at"] else "opened before the journal"
    if shift["opened_by"]:
        opened += f" by {by_text(shift['opened_by'])}"
    closed = f", closed {shift['closed_at'][:19]}Z" if shift["closed_at"] else ", open"
    return (f"  shift {shift['shift']}{name}: {opened}{closed}; {shift['rounds']} rounds, drop {shift['drop']}, "
            f"house net {shift['house_net']}, theo win {shift['theoretical_win']} (sd {shift['sd']}, z {_cell(shift['z'])})")


def report_text(report: MetersReport) -> str:
    data = report.to_json()
    theory = ("exact, for the cards left when each round was dealt" if data["theory"] == "exact"
              else "for a full shoe")
    lines = [f"meters  theory: {theory}  alarm beyond {data['alarm_sd']} sd"]
    if report.shoe is not None:
        [shoe] = data["shoes"] or [None]
        lines.append(f"shoe {report.shoe}: " + _head(shoe))
        lines += _table(shoe)
    elif report.shift is not None:
        [shift] = data["shifts"]
        lines.append(_shift_line(shift).strip())
        lines.append("  " + _head(shift))
        lines += _table(shift)
    else:
        lines.append("table: " + _head(data["table"]))
        lines += _table(data["table"])
        lines += [_shift_line(shift) for shift in data["shifts"]]
        for shoe in data["shoes"]:
            lines.append(f"  shoe {shoe['shoe']}: {shoe['rounds']} rounds, drop {shoe['drop']}, house net "
                         f"{shoe['house_net']}, theo win {shoe['theoretical_win']} (sd {shoe['sd']})")
    for r in data.get("rounds", ()):
        state = "VOID" if r["void"] else f"drop {r['drop']}, house net {r['house_net']}, theo {r['theoretical_win']}"
        lines.append(f"    round {r['round']} (shoe {r['shoe']}): {state}")
    for alarm in data["alarms"]:
        lines.append(f"ALARM shift {alarm['shift']}: house net {alarm['actual']} against a theoretical win of "
                     f"{alarm['theoretical']} (sd {alarm['sd']}): z = {alarm['z']}, beyond {alarm['alarm_sd']} sd "
                     f"({alarm['direction']})")
    lines += [f"  note: {note}" for note in data["notes"]]
    if data["table"]["unanalysed_drop"] != "0":
        lines.append(f"  note: a drop of {data['table']['unanalysed_drop']} is on wagers with no exact theory "
                     "(Pai Gow's Standard): their theoretical win is not counted")
    return "\n".join(lines)


def _main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    alarm_sd = (config_for_cli(args.config).meters.alarm_sd if args.alarm_sd is None
                else fraction_argument("--alarm-sd", args.alarm_sd, "3 or 2.5"))
    if alarm_sd <= 0:
        raise UsageError(f"--alarm-sd {args.alarm_sd}: must be more than 0")
    for option, value in (("--shoe", args.shoe), ("--shift", args.shift)):
        if value is not None and value < 1:
            raise UsageError(f"{option} {value}: numbered from 1")
    fold = fold_journal(journal_path(args), args.theory, args.shoe, args.shift)
    if args.shoe is not None and args.shoe not in fold.shoes_seen:
        shoes = sorted(fold.shoes_seen)
        raise NoSuchPeriod(f"the journal has no round of shoe {args.shoe}"
                           + (f" (shoes {shoes[0]}-{shoes[-1]})" if shoes else " (no round yet)"))
    if args.shift is not None and args.shift not in fold.shifts:
        raise NoSuchPeriod(f"the journal has no shift {args.shift}"
                           + (f" (shifts 1-{max(fold.shifts)})" if fold.shifts else " (no shift opened yet)"))
    report = fold.report(alarm_sd)
    if args.json:
        print_json(report.to_json(), ensure_ascii=False)
    else:
        print(report_text(report))
    return 0


def main(argv: list[str]) -> int:
    return run_command("meters", _main, argv, (JournalError, BadMoneyRecord, NoSuchPeriod))

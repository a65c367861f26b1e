"""`tablectl shoe report [--shoe N] [--json] [--false-alarm-rate R] [--journal PATH | --config FILE]`

One shoe from the journal (the last by default): its cards in order with the burn and the cut
card marked, every card counted against the decks, rounds, results and the game's counts, voids
and holds with their clauses, irregularities, each integrity check's statistic (recomputed from
the journal against every earlier shoe) and who answered the alarms the daemon raised (local
ruling L7), hands per hour and the time between rounds. On a
deck-per-round table (fubacc, paigow) a shoe number covers many decks: each is listed.
Reads the journal read-only; safe while the daemon runs.
"""
from __future__ import annotations

from fractions import Fraction

from cli.common import Parser, UsageError, fraction_argument, print_json, run_command
from cli.paths import add_location_options, config_for_cli, journal_path
from cli.recall import by_text
from controller.journal import JournalError
from controller.journal.shoe_report import NoSuchShoe, Reconciliation, ShoeReport, shoe_report
from controller.journal.shoes import ShoeLoad
from games.cards import ELEMENTS, STANDARD_SUITS, DeckKind
from games.integrity import DEFAULT_FALSE_ALARM_RATE
from games.registry import GAME_KEYS, get_game

PER_LINE = 13


def _parser() -> Parser:
    parser = Parser(prog="tablectl shoe", description="A shoe from the journal.")
    commands = parser.add_subparsers(dest="action", required=True, metavar="{report}")
    report = commands.add_parser("report", help="one shoe: cards, counts, rounds, voids, integrity, pace")
    report.add_argument("--shoe", type=int, metavar="N", help="the shoe number (default: the last)")
    report.add_argument("--json", action="store_true", help="one JSON object")
    report.add_argument("--false-alarm-rate", metavar="R",
                        help="per shoe, for the integrity checks (default: the config's integrity.false_alarm_rate, "
                             f"{DEFAULT_FALSE_ALARM_RATE}; 1e-6 also reads)")
    add_location_options(report, "--journal", "the journal file")
    return parser


def rate_argument(text: str) -> Fraction:
    """A probability given as 1e-6, 0.000001 or 1/1000000, exactly."""
    rate = fraction_argument("--false-alarm-rate", text, "1e-6 or 1/1000000")
    if not 0 < rate < 1:
        raise UsageError(f"--false-alarm-rate {text!r}: must be between 0 and 1")
    return rate


# ---------------------------------------------------------------------------------- text
def _card_cell(card) -> str:
    return (card.card or "??") + ("*" if card.burn else "") + ("+" if card.keyed_in else "")


def _cards_lines(load: ShoeLoad) -> list[str]:
    cells = [_card_cell(card) for card in load.cards]
    if load.cut_after is not None:
        cells.insert(load.cut_after, "|CUT|")
    lines = []
    for start in range(0, len(cells), PER_LINE):
        lines.append(f"    {start + 1:>4}  " + " ".join(f"{c:<9}" for c in cells[start:start + PER_LINE]).rstrip())
    return lines or ["    (no card)"]


def _grid(counts: dict[str, int], kind: DeckKind) -> list[str]:
    suits = ELEMENTS if kind is DeckKind.ELEMENT65 else STANDARD_SUITS
    ranks = [str(c).split("-")[0] if kind is DeckKind.ELEMENT65 else str(c)[:-1] for c in kind.cards[:13]]
    lines = ["          " + "".join(f"{r:>4}" for r in ranks)]
    for suit in suits:
        row = [c for c in kind.cards if c.suit == suit]
        lines.append(f"    {suit:<6}" + "".join(f"{counts.get(str(c), 0):>4}" for c in row))
    if kind is DeckKind.PAIGOW53:
        lines.append(f"    joker {counts.get('JK', 0):>4}")
    return lines


def _reconcile_lines(rec: Reconciliation, decks: int | None, grid: bool, kind: DeckKind | None) -> list[str]:
    state = "every card within its copies" if not rec.over and not rec.foreign else "NOT RECONCILED"
    head = (f"  {rec.label}: {rec.size} cards in; {rec.read} read, {rec.unread} unread, {rec.counter_gaps} unheard "
            f"(draw counter), {rec.left} left in the shoe; {state}")
    lines = [head]
    for card, extra in sorted(rec.over.items()):
        lines.append(f"    {card}: {extra} more than {decks} deck(s) hold")
    for card in rec.foreign:
        lines.append(f"    {card}: not a card of these decks")
    if grid and kind is not None:
        lines += _grid(rec.counts, kind)
    return lines


def _bets_lines(report: ShoeReport) -> list[str]:
    lines = []
    for key, tally in report.bets.items():
        order = sorted(tally.items(), key=lambda item: (not item[0].startswith("win"), item[0]))
        lines.append(f"    {key:<22} " + ", ".join(f"{label} {n}" for label, n in order))
    return lines


def _integrity_lines(report: ShoeReport) -> list[str]:
    rate = report.false_alarm_rate
    lines = [f"  integrity (false-alarm rate {float(rate):.3g} per shoe, {float(rate / 3):.3g} per check; "
             "p = the chance a fair shuffle does this, exact or at most):"]
    if not report.integrity:
        return lines + ["    nothing to check"]
    by_check: dict[str, list] = {}
    for load in report.integrity:
        for stat in load.statistics:
            by_check.setdefault(stat.check.value, []).append((load.label, stat))
    many = len(report.integrity) > 1
    for check, stats in by_check.items():
        measured = [(label, s) for label, s in stats if s.smallest_probability is not None]
        if not measured:
            lines.append(f"    {check:<11} {stats[-1][1].value}")
            continue
        label, stat = min(measured, key=lambda item: item[1].smallest_probability)
        p = stat.smallest_probability
        where = f" ({label}, the most extreme of {len(stats)} decks)" if many else ""
        lines.append(f"    {check:<11} {stat.value}; p {'=' if stat.exact else '<='} {float(p):.3g}{where}"
                     + (f"; {stat.detail}" if stat.detail and not many else ""))
    for load in report.integrity:
        for alarm in load.alarms:
            lines.append(f"    ALARM {alarm.check.value} ({alarm.clause}): {alarm.detail}; "
                         f"draw counters {alarm.draw_counters[0]}-{alarm.draw_counters[-1]}")
    for answer in report.answers:
        who = f" by {by_text(answer['by'])}" if answer.get("by") else ""
        checks = ", ".join(str(a.get("check")) for a in answer["alarms"])
        what = "the shoe accepted" if answer["how"] == "accepted" else "a new shoe called"
        lines.append(f"    ANSWERED {checks} (local ruling L7): {what}{who} at {answer['at']}")
    return lines


def _pace_lines(report: ShoeReport) -> list[str]:
    pace = report.pace
    if not pace.rounds:
        return ["  pace: no round"]
    line = f"  pace: {pace.rounds} rounds, {(pace.first_opened or '')[:19]}Z to {(pace.last_finished or '')[:19]}Z"
    if pace.hands_per_hour:
        line += f"; {pace.hands_per_hour:.1f} hands an hour"
    lines = [line]
    for name, values in (("between rounds", pace.between_rounds_s), ("round length", pace.round_length_s)):
        if values:
            values = sorted(values)
            lines.append(f"    {name}: median {values[len(values) // 2]:.1f} s (min {values[0]:.1f}, max {values[-1]:.1f})")
    return lines


def report_text(report: ShoeReport) -> str:
    kind = get_game(report.game).deck_kind if report.game in GAME_KEYS else None
    status = "finished" if report.finished else "in play"
    lines = [f"shoe {report.shoe}  {report.game}  {report.decks} deck(s)  records {report.first_seq}-{report.last_seq}  {status}"]
    lines.append("  cards in the order they left the shoe (* burn, + keyed in, ?? unread, |CUT| the cut card):")
    for load in report.loads:
        if len(report.loads) > 1:
            rounds = ",".join(map(str, load.rounds)) or "-"
            lines.append(f"   {load.label} (round {rounds}):")
        lines += _cards_lines(load)
    lines.append("  counted against the decks:")
    if len(report.reconciliation) == 1:
        lines += _reconcile_lines(report.reconciliation[0], report.decks, True, kind)
    else:
        bad = [r for r in report.reconciliation if not r.ok]
        lines.append(f"    {len(report.reconciliation)} decks, {len(report.reconciliation) - len(bad)} with every card read once")
        for rec in bad:
            lines += _reconcile_lines(rec, report.decks, False, kind)
    settled = sum(1 for r in report.rounds if r.status == "settled")
    open_ = sum(1 for r in report.rounds if r.status in ("open", "decided"))
    lines.append(f"  rounds: {len(report.rounds)} ({settled} settled, {len(report.voids)} void, {open_} not finished)"
                 + ("; " + ", ".join(f"{w} {n}" for w, n in sorted(report.winners.items(), key=lambda i: -i[1]))
                    if report.winners else ""))
    lines += _bets_lines(report)
    if (money := report.money) is not None:
        unreadable = f" ({money['unreadable']} with amounts that cannot be read, left out)" if money["unreadable"] else ""
        lines.append(f"  money: {money['rounds']} rounds wagered, drop {money['drop']}, house net {money['house_net']}"
                     + unreadable)
    for void in report.voids:
        lines.append(f"  VOID round {void.get('round')}: {void.get('clause')}: {void.get('reason', '')}")
    for hold in report.holds:
        lines.append(f"  HOLD round {hold.get('round')}: {hold.get('clause')}: {hold.get('detail', '')}")
    others = [i for i in report.irregularities if i not in report.holds]
    for irregular in others:
        where = f"round {irregular['round']}" if irregular.get("round") else "between rounds"
        lines.append(f"  irregularity ({where}) {irregular.get('kind')} ({irregular.get('clause')}, "
                     f"{irregular.get('consequence')}): {irregular.get('detail', '')}")
    lines += _integrity_lines(report)
    lines += _pace_lines(report)
    lines += [f"  note: {n}" for n in report.notes]
    return "\n".join(lines)


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    rate = (config_for_cli(args.config).integrity.false_alarm_rate if args.false_alarm_rate is None
            else rate_argument(args.false_alarm_rate))
    if args.shoe is not None and args.shoe < 1:
        raise UsageError(f"--shoe {args.shoe}: shoes are numbered from 1")
    report = shoe_report(journal_path(args), args.shoe, rate)
    if args.json:
        print_json(report.to_json(), ensure_ascii=False)
    else:
        print(report_text(report))
    return 0


def main(argv) -> int:
    return run_command("shoe", _main, argv, (JournalError, NoSuchShoe))

"""`tablectl odds GAME [--decks N] [--json]`: exact analysis by enumeration."""
from __future__ import annotations

from cli.common import Parser, game_argument, game_with_decks, print_json, run_command
from games.registry import get_odds


def _parser() -> Parser:
    parser = Parser(prog="tablectl odds", description="Exact probabilities and house edge of every wager.")
    game_argument(parser)
    parser.add_argument("--decks", type=int, help="deck count (default: the game's own)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    return parser


def _text(report) -> str:
    lines = [f"{report.game}: {report.decks} deck(s)"]
    for key, bet in report.bets.items():
        lines.append("")
        lines.append(f"{key}: house edge {float(bet.house_edge):+.6%}  ({bet.house_edge})")
        width = max(len(o.outcome) for o in bet.outcomes)
        for o in bet.outcomes:
            lines.append(f"  {o.outcome.ljust(width)}  {o.pays:>8}  {o.count:>24}  {float(o.probability):.10f}")
        lines.extend(f"  note: {n}" for n in bet.notes)
    for name, table in report.tables.items():
        lines.append("")
        lines.append(f"{name}:")
        rows = table if isinstance(table, list) else [table]
        lines.extend(f"  {row}" for row in rows)
    lines.extend(f"note: {n}" for n in report.notes)
    return "\n".join(lines)


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    game_with_decks(args.game, args.decks)
    report = get_odds(args.game, args.decks)
    if args.json:
        print_json(report.to_json())
    else:
        print(_text(report))
    return 0


def main(argv) -> int:
    return run_command("odds", _main, argv)

"""`tablectl roads [--json] TOKEN...`: the baccarat roads of a shoe's outcomes.

A token is B, P or T, optionally followed by +bp (banker pair) and/or +pp (player pair), in
any order, case-insensitive: `tablectl roads B P+pp T b+bp+pp P`. `--json` prints the roads
as the scoreboard serves them; without it they are drawn in the terminal.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from cli.common import Parser, UsageError, print_json, run_command
from games.baccarat.roads import DERIVED_ROADS, ROWS, OutcomeError, parse_outcomes, roads

ANSI = {"red": "\033[31m", "blue": "\033[34m", "B": "\033[31m", "P": "\033[34m", "T": "\033[32m"}
RESET = "\033[0m"
LEGEND = ("bead plate and big road: b banker pair, p player pair, x both; big road: a digit after "
          "the winner counts the ties on that cell. derived roads: r red, u blue.")


def _parser() -> Parser:
    parser = Parser(prog="tablectl roads", description=__doc__.split("\n\n")[1].replace("\n", " "))
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("tokens", nargs="*", metavar="TOKEN", help="B, P or T (+bp, +pp), in shoe order")
    return parser


def _pairs(cell: dict) -> str:
    return {(True, True): "x", (True, False): "b", (False, True): "p"}.get((cell["banker_pair"], cell["player_pair"]), " ")


def _grid(cells: Iterable[dict], text: Callable[[dict], str], width: int, colour: Callable[[dict], str | None]) -> list[str]:
    """Six lines, each cell `width` characters wide, coloured on a terminal."""
    cells = list(cells)
    columns = max((c["col"] for c in cells), default=-1) + 1
    rows = [[" " * width] * columns for _ in range(ROWS)]
    tty = sys.stdout.isatty()
    for cell in cells:
        shown = text(cell).ljust(width)
        ansi = ANSI.get(colour(cell) or "") if tty else None
        rows[cell["row"]][cell["col"]] = f"{ansi}{shown}{RESET}" if ansi else shown
    return ["|" + "".join(row).rstrip() for row in rows]


def draw(board: dict) -> str:
    lines = ["bead plate"]
    lines += _grid(board["bead_plate"], lambda c: c["outcome"] + _pairs(c).strip(), 3, lambda c: c["outcome"])
    lines += ["big road"]
    lines += _grid(board["big_road"],
                   lambda c: c["winner"] + (str(c["ties"]) if 0 < c["ties"] < 10 else "+" if c["ties"] else " ") + _pairs(c),
                   4, lambda c: c["winner"])
    for name in DERIVED_ROADS:
        lines += [name.replace("_", " ")]
        lines += _grid(board[name], lambda c: "r" if c["colour"] == "red" else "u", 2, lambda c: c["colour"])
    for outcome, adds in board["ask"].items():
        said = ", ".join(f"{name.replace('_', ' ')} {colour or '-'}" for name, colour in adds.items())
        lines.append(f"ask {outcome}: {said}")
    counts = board["counts"]
    lines.append(f"B {counts['B']}  P {counts['P']}  T {counts['T']}  "
                 f"banker pairs {counts['banker_pair']}  player pairs {counts['player_pair']}")
    lines.append(LEGEND)
    return "\n".join(lines)


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    try:
        outcomes = parse_outcomes(args.tokens)
    except OutcomeError as error:
        raise UsageError(f"bad outcome {error.token!r}: {error.reason}") from None
    board = roads(outcomes)
    if args.json:
        print_json(board)
    else:
        print(draw(board))
    return 0


def main(argv) -> int:
    return run_command("roads", _main, argv)

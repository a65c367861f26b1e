"""`tablectl demo [--game G] [--rounds N] [--seed S] [--decks N] [--pace SECONDS] [--faults RATE] [--dir DIR]`

The real daemon (`tablectl run`) against the simulated shoe, panel and lights on ptys, the
demo acting as dealer, players and supervisor (controller/demo, controller/rig).

Without --rounds: a live terminal view of hands, lamps and results, round after round until
Ctrl-C (exit 0; every process the demo started is stopped). It needs a terminal: with stdout
not a terminal (a pipe, a script, CI) and no --rounds it plays PIPED_ROUNDS rounds headless
instead, saying so on stderr.
With --rounds N: headless, as fast as the rig goes; one JSON object per round on stdout and
nothing else there (progress on stderr); exit 0 (1: the rig failed, 130: interrupted).
The config, journal and logs stay in --dir (default ~/.local/state/tablectl/demo; each demo
replaces the last one's): `tablectl recall --journal DIR/journal.sqlite` reads them.
"""
from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

from cli.common import Parser, UsageError, check_game, run_command
from games.registry import DEFAULT_GAME, get_game
from simulation.demo.place import default_directory
from simulation.demo.session import DemoOptions, home_relative, run_headless, run_live
from simulation.demo.stopping import say

PIPED_ROUNDS = 10  # what `tablectl demo` plays when nobody is watching a terminal

MAX_PACE = 10.0  # slower than this and the daemon's card timer (30 s) would call a card missing


def _parser() -> Parser:
    parser = Parser(prog="tablectl demo", description="The daemon against simulated devices, with a live view.")
    parser.add_argument("--game", default=DEFAULT_GAME, help=f"the game (default {DEFAULT_GAME})")
    parser.add_argument("--rounds", metavar="N", help="play N rounds headless: one JSON line per round")
    parser.add_argument("--seed", metavar="S", help="the shuffle and the demo's choices (default: random, shown)")
    parser.add_argument("--decks", metavar="N", help="decks in the shoe (default: the game's own)")
    parser.add_argument("--pace", metavar="SECONDS", default="1", help="live view: seconds per card or step (default 1)")
    parser.add_argument("--faults", metavar="RATE", default="0", help="chance per round of a shoe fault, 0-1 (default 0)")
    parser.add_argument("--dir", metavar="DIR", help="where the demo's config, journal and logs stay "
                        f"(default {home_relative(default_directory())}; each demo replaces the last one's)")
    return parser


def _number(option: str, text: str, kind, low, high=None):
    try:
        value = kind(text)
    except ValueError:
        raise UsageError(f"{option} {text!r}: not {'a whole number' if kind is int else 'a number'}") from None
    if value < low or (high is not None and value > high) or value != value:
        span = f"{low}-{high}" if high is not None else f"at least {low}"
        raise UsageError(f"{option} {text!r}: must be {span}")
    return value


def options_from(argv) -> DemoOptions:
    args = _parser().parse_args(argv)
    game = get_game(check_game(args.game))
    decks = None
    if args.decks is not None:
        decks = _number("--decks", args.decks, int, 1)
        if decks not in game.deck_counts:
            counts = ", ".join(map(str, game.deck_counts))
            raise UsageError(f"--decks {decks}: {game.key} is played with {counts} deck(s)")
    return DemoOptions(
        game=game.key,
        rounds=_number("--rounds", args.rounds, int, 1) if args.rounds is not None else None,
        seed=_number("--seed", args.seed, int, 0) if args.seed is not None else random.randrange(1 << 31),
        decks=decks,
        pace=_number("--pace", args.pace, float, 0.0, MAX_PACE),
        faults=_number("--faults", args.faults, float, 0.0, 1.0),
        directory=Path(args.dir).expanduser().absolute() if args.dir else default_directory(),
    )


def _main(argv) -> int:
    options = options_from(argv)
    if options.rounds is not None:
        return run_headless(options, sys.stdout)
    if not sys.stdout.isatty():
        say(f"stdout is not a terminal, so no live view: {PIPED_ROUNDS} rounds as JSON lines "
            f"(--rounds N for more; seed {options.seed})")
        return run_headless(replace(options, rounds=PIPED_ROUNDS), sys.stdout)
    say(f"seed {options.seed} (--seed {options.seed} plays the same rounds again)")
    return run_live(options, sys.stdout)


def main(argv) -> int:
    return run_command("demo", _main, argv)

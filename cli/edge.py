"""`tablectl edge`: the exact house edge of every wager for the cards left in the shoe.

  tablectl edge --game G [--decks N] [--cards CARD ...] [--json]
      once: the next round's edge when CARD ... have left the shoe (none: a full shoe)
  tablectl edge [--config FILE | --journal PATH --socket PATH] [--alert-margin M] [--json] [--count N]
      live: follow the table from the start of the shoe in play, one line per round; an ALERT
      line (and a `player_advantage` warning in the log on stderr) when a wager's house edge
      falls below -M (M: 0.5% or 0.005 or 1/200; default: the config's edge.alert_margin, 0).
      Ends on Ctrl-C or SIGTERM (exit 0), or after N lines with --count. systemd runs it as
      tablectl-edge.service (systemd/), its lines and alerts going to the systemd journal.

Every card the shoe read counts as out, the burn included; an unread card does not (the next
round is a fair draw from the unseen cards either way). docs/integrity.md has the details.
"""
from __future__ import annotations

import json
import signal
import sys
import threading
from fractions import Fraction

from cli.common import Parser, UsageError, cards_from, check_game, fraction_argument, print_json, run_command
from cli.paths import config_for_cli
from controller.journal import JournalError
from controller.journal.shoes import last_game
from controller.logs import configure_logging
from games.live_edge import EdgeReport, live_edge
from games.registry import GAME_KEYS, get_game
from services.edge.follow import follow_edge
from services.edge.tracker import EdgeLine, EdgeTracker


def _parser() -> Parser:
    parser = Parser(prog="tablectl edge", description="The house edge of every wager for the cards left.")
    parser.add_argument("--game", help=f"once, for this game: one of {', '.join(GAME_KEYS)}")
    parser.add_argument("--decks", type=int, help="deck count (default: the game's own)")
    parser.add_argument("--cards", nargs="*", default=[], metavar="CARD", help="cards already out of the shoe")
    parser.add_argument("--config", metavar="FILE", help="live: the daemon's config (journal, socket, game)")
    parser.add_argument("--journal", metavar="PATH", help="live: the journal (instead of the config's)")
    parser.add_argument("--socket", metavar="PATH", help="live: the control socket (instead of the config's)")
    parser.add_argument("--alert-margin", metavar="M",
                        help="live: alert below a house edge of -M (default: the config's edge.alert_margin)")
    parser.add_argument("--count", type=int, metavar="N", help="live: stop after N lines")
    parser.add_argument("--json", action="store_true", help="JSON: one object (once) or one a line (live)")
    return parser


def margin_argument(text: str) -> Fraction:
    """0.5% / 0.005 / 1/200, exactly."""
    value = fraction_argument("--alert-margin", text, "0.5% or 0.005")
    if value < 0:
        raise UsageError(f"--alert-margin {text!r}: must not be negative")
    return value


def report_text(report: EdgeReport) -> str:
    lines = [f"{report.game}: {report.decks} deck(s), {report.cards_out} card(s) out, {report.cards_left} left"]
    width = max(len(key) for key in report.bets)
    for key, bet in report.bets.items():
        lines.append(f"  {key.ljust(width)}  house edge {float(bet.house_edge):+.6%}  ({bet.house_edge})")
    lines += [f"note: {n}" for n in report.notes]
    return "\n".join(lines)


def _once(args) -> int:
    game = get_game(check_game(args.game))
    decks = game.default_decks if args.decks is None else args.decks
    try:
        report = live_edge(game.key, decks, cards_from(args.cards))
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.json:
        print_json(report.to_json())
    else:
        print(report_text(report))
    return 0


def _live(args) -> int:
    if args.count is not None and args.count < 1:
        raise UsageError(f"--count {args.count}: must be at least 1")
    config = config_for_cli(args.config)
    margin = config.edge.alert_margin if args.alert_margin is None else margin_argument(args.alert_margin)
    journal, socket = args.journal or config.journal.path, args.socket or config.control.socket
    configure_logging(config.log.format, config.log.level, stream=sys.stderr)
    try:
        known = last_game(journal)
    except JournalError:  # no journal yet: the daemon has not started; follow it once it does
        known = None
    game, decks = known or (config.game, config.decks)
    deck_per_round = config.shoe.deck_per_round if game == config.game else None
    tracker = EdgeTracker(game, decks, deck_per_round=deck_per_round, margin=margin)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())

    def emit(line: EdgeLine) -> None:
        print(json.dumps(line.to_json(), separators=(",", ":")) if args.json else line.text(), flush=True)

    try:
        follow_edge(journal, socket, tracker, emit, stop, args.count)
    except KeyboardInterrupt:
        stop.set()
    return 0


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    if args.game is not None:
        if args.config or args.journal or args.socket or args.count is not None:
            raise UsageError("--game answers once for the cards given; --config/--journal/--socket/--count follow a table")
        return _once(args)
    if args.cards or args.decks is not None:
        raise UsageError("--cards and --decks need --game (without it, tablectl edge follows the table)")
    return _live(args)


def main(argv) -> int:
    return run_command("edge", _main, argv, (JournalError,))

"""`tablectl scoreboard [--config FILE] [--listen 127.0.0.1:8080] [--lang en|zh-Hant]`

The board beside the table: a web page with the roads, counts, last result and the round in
progress, served by its own process (never the daemon). It reads the journal read-only and
follows the daemon's event stream; it takes no commands. --listen and --lang override the
config's [scoreboard] section. Open http://127.0.0.1:8080/ in a kiosk browser. Without --config
and with no table installed it exits 2 naming the demo's config; a journal not there yet is
said on stderr, and the board served.
"""
from __future__ import annotations

import sys

from cli.common import Parser, UsageError, run_command
from cli.page_config import page_table_config
from controller.config.schema import DEFAULT_CONFIG_PATH, SCOREBOARD_LANGS, listen_address
from controller.logs import configure_logging


def _parser() -> Parser:
    parser = Parser(prog="tablectl scoreboard", description=__doc__.split("\n\n")[1].replace("\n", " "))
    parser.add_argument("--config", metavar="FILE", help=f"the table's config (default: {DEFAULT_CONFIG_PATH} if present)")
    parser.add_argument("--listen", metavar="ADDRESS:PORT", help="serve here (default: the config's scoreboard.listen, 127.0.0.1:8080)")
    parser.add_argument("--lang", choices=SCOREBOARD_LANGS, help="labels in English or Traditional Chinese")
    return parser


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    if args.listen is not None and (expected := listen_address(args.listen)) is not None:
        raise UsageError(f"--listen {args.listen!r}: expected {expected}")
    config = page_table_config("scoreboard", args.config, listen_hint="--listen ADDRESS:PORT",
                               doc="docs/scoreboard.md", what="the board")
    from services.scoreboard.server import ScoreboardSettings, listening_socket, serve  # the web stack, only here

    settings = ScoreboardSettings(
        journal_path=config.journal.path, socket_path=config.control.socket, game=config.game,
        listen=args.listen or config.scoreboard.listen, lang=args.lang or config.scoreboard.lang,
        table_name=config.scoreboard.table_name)
    configure_logging(config.log.format, config.log.level, stream=sys.stderr)
    try:
        sock = listening_socket(settings.listen)
    except OSError as error:
        print(f"tablectl scoreboard: cannot listen on {settings.listen}: {error.strerror or error}", file=sys.stderr)
        return 1
    return serve(settings, sock)


def main(argv) -> int:
    return run_command("scoreboard", _main, argv)

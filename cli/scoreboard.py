"""`tablectl scoreboard [--config FILE] [--listen 127.0.0.1:8080] [--lang en|zh-Hant]`

The board beside the table: a web page with the roads, counts, last result and the round in
progress, served by its own process (never the daemon). It reads the journal read-only and
follows the daemon's event stream; it takes no commands. --listen and --lang override the
config's [scoreboard] section. Open http://127.0.0.1:8080/ in a kiosk browser. Without --config
and with no table installed it exits 2 naming the demo's config; a journal not there yet is
said on stderr, and the board served.
"""
from __future__ import annotations

import os
import sys

from cli.common import Parser, UsageError, run_command
from cli.paths import config_for_cli
from controller.config.schema import DEFAULT_CONFIG_PATH, SCOREBOARD_LANGS, listen_address
from controller.logs import configure_logging


def _parser() -> Parser:
    parser = Parser(prog="tablectl scoreboard", description=__doc__.split("\n\n")[1].replace("\n", " "))
    parser.add_argument("--config", metavar="FILE", help=f"the table's config (default: {DEFAULT_CONFIG_PATH} if present)")
    parser.add_argument("--listen", metavar="ADDRESS:PORT", help="serve here (default: the config's scoreboard.listen, 127.0.0.1:8080)")
    parser.add_argument("--lang", choices=SCOREBOARD_LANGS, help="labels in English or Traditional Chinese")
    return parser


def demo_config() -> str:
    """Where `tablectl demo` leaves its table's config, as a user would type it."""
    from simulation.demo.place import default_directory
    from simulation.demo.session import home_relative

    return home_relative(default_directory() / "tablectl.toml")


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    if args.listen is not None and (expected := listen_address(args.listen)) is not None:
        raise UsageError(f"--listen {args.listen!r}: expected {expected}")
    if args.config is None and not os.path.exists(DEFAULT_CONFIG_PATH):  # the defaults name no table's journal
        raise UsageError(f"no config at {DEFAULT_CONFIG_PATH}: give --config FILE, the table's config (the demo's: "
                         f"--config {demo_config()}, with a free --listen ADDRESS:PORT; docs/scoreboard.md)")
    config = config_for_cli(args.config)
    if not os.path.exists(config.journal.path):  # the daemon may not have started yet: serve, and say so
        print(f"tablectl scoreboard: no journal at {config.journal.path} yet (as {args.config or DEFAULT_CONFIG_PATH} says): "
              "the board fills in once the daemon writes it; --config FILE names another table's config", file=sys.stderr)
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

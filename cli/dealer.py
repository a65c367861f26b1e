"""`tablectl dealer [--config FILE] [--host 127.0.0.1] [--port 8081]`

The dealer page: the round in play's wagers of record and refused wagers, each space's payout
in the order the rules settle them, and the money irregularities and mispays until they are
cleared, on a web page served by its own process (never the daemon). It reads the journal
read-only and follows the daemon's event stream; it takes no commands. Open
http://127.0.0.1:8081/ on the dealer's screen. Without --config and with no table installed it
exits 2 naming the demo's config; a journal not there yet is said on stderr, and the page served.
"""
from __future__ import annotations

import ipaddress
import sys

from cli.common import Parser, UsageError, run_command
from cli.page_config import page_table_config
from controller.config.schema import DEFAULT_CONFIG_PATH
from controller.logs import configure_logging

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8081  # the scoreboard's 8080 beside it


def _parser() -> Parser:
    parser = Parser(prog="tablectl dealer", description=__doc__.split("\n\n")[1].replace("\n", " "))
    parser.add_argument("--config", metavar="FILE", help=f"the table's config (default: {DEFAULT_CONFIG_PATH} if present)")
    parser.add_argument("--host", default=DEFAULT_HOST, metavar="ADDRESS", help=f"serve on this IP address (default {DEFAULT_HOST})")
    parser.add_argument("--port", default=DEFAULT_PORT, type=int, metavar="N",
                        help=f"and this port; 0 picks a free one (default {DEFAULT_PORT})")
    return parser


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    try:
        ipaddress.ip_address(args.host)
    except ValueError:
        raise UsageError(f"--host {args.host!r}: expected an IP address, e.g. 127.0.0.1 or ::1") from None
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: expected a port 0-65535")
    config = page_table_config("dealer", args.config, listen_hint="--port N", doc="docs/dealer.md", what="the page")
    from services.dealer.server import serve  # the web stack, only here
    from services.page_server import bound_socket

    configure_logging(config.log.format, config.log.level, stream=sys.stderr)
    try:
        sock = bound_socket(args.host, args.port)
    except OSError as error:
        where = f"[{args.host}]:{args.port}" if ":" in args.host else f"{args.host}:{args.port}"
        print(f"tablectl dealer: cannot listen on {where}: {error.strerror or error}", file=sys.stderr)
        return 1
    return serve(config.journal.path, config.control.socket, config.game, sock)


def main(argv) -> int:
    return run_command("dealer", _main, argv)

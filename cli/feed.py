"""`tablectl feed [--config FILE]`: send this table's journal to the floor's MQTT broker.

Reads the journal read-only and follows the daemon's event stream; publishes every record
(and a summary per result, void and irregularity, and the table's status) under
PREFIX/SITE/TABLE/ as set in [feed]; keeps its cursor in feed.state. Runs until SIGTERM or
Ctrl-C. Logs JSON lines (log.format) to stdout. docs/floor.md says everything.
"""
from __future__ import annotations

import os
import signal
import sys
import threading

from cli.common import Parser, UsageError, run_command
from cli.paths import config_for_cli
from controller.config.schema import DEFAULT_CONFIG_PATH
from controller.logs import configure_logging
from services.broker import BrokerError
from services.feed import CursorError, Feed, FeedError
from services.feed.feed import log
from services.thread_deaths import ThreadDeaths


def _parser() -> Parser:
    parser = Parser(prog="tablectl feed", description="Send this table's journal to the floor's MQTT broker.")
    parser.add_argument("--config", metavar="FILE", help=f"the table's config with its [feed] section (default: {DEFAULT_CONFIG_PATH})")
    return parser


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    if args.config is None and not os.path.exists(DEFAULT_CONFIG_PATH):  # the defaults have no broker to name
        raise UsageError(f"no config at {DEFAULT_CONFIG_PATH}: give --config FILE, the table's config with its [feed] "
                         "section (docs/floor.md)")
    config = config_for_cli(args.config)
    configure_logging(config.log.format, config.log.level)
    feed = Feed(config)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    deaths = ThreadDeaths(stop, log).install()  # a dead thread ends the feed with an error: systemd restarts it
    feed.run(stop)
    return deaths.exit_status()


def main(argv) -> int:
    status = run_command("feed", _main, argv, (FeedError, BrokerError, CursorError, OSError))
    sys.stdout.flush()
    return status

"""`tablectl run --config FILE [--log-format json|console]`: the table daemon.

Runs until SIGTERM/SIGINT (exit 0). Exit 2: a bad config file (every problem named with
its file and key) or environment; exit 1: the journal or the control socket cannot be
used. What it does: controller/daemon/ and docs/daemon.md.
"""
from __future__ import annotations

from cli.common import Parser, run_command
from controller.config import DEFAULT_CONFIG_PATH
from controller.logs import FORMATS


def _parser() -> Parser:
    parser = Parser(prog="tablectl run", description="Run the table daemon (systemd starts it as a Type=notify service).")
    parser.add_argument("--config", metavar="FILE", default=DEFAULT_CONFIG_PATH,
                        help=f"the TOML config (default {DEFAULT_CONFIG_PATH})")
    parser.add_argument("--log-format", choices=FORMATS, help="override the config's log.format: json lines (journald) or console")
    return parser


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    from controller.daemon.app import main  # the daemon's imports only when it runs

    return main(args.config, args.log_format)


def main(argv) -> int:
    return run_command("run", _main, argv)


if __name__ == "__main__":  # `python -m cli.run`: how controller/rig starts the daemon
    import sys

    sys.exit(main(sys.argv[1:]))

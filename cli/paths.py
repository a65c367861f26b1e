"""For the commands that read the journal or talk to the daemon: where they find the journal
and the control socket (an explicit path, else the config file given with --config, else the
installed config if there is one, else defaults)."""
from __future__ import annotations

import argparse
import os

from cli.common import NotThere
from controller.config.load import default_config, load_config
from controller.config.schema import DEFAULT_CONFIG_PATH, Config


def add_location_options(parser: argparse.ArgumentParser, option: str, help_text: str) -> None:
    """`--journal PATH` or `--socket PATH`, exclusive with `--config FILE`."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(option, metavar="PATH", help=help_text)
    group.add_argument("--config", metavar="FILE", help=f"take it from this config (default: {DEFAULT_CONFIG_PATH} if present)")


def config_for_cli(config_path: str | None) -> Config:
    """Raises ConfigError for a bad or missing --config file."""
    if config_path is not None:
        return load_config(config_path)
    if os.path.exists(DEFAULT_CONFIG_PATH):
        return load_config(DEFAULT_CONFIG_PATH)
    return default_config()


def _existing(path: str, args: argparse.Namespace, what: str, option: str, hint: str) -> str:
    """`path` if it exists; else NotThere saying where the path came from and, when it was not
    given, how to give another (a newcomer's first `tablectl recall` meets the installed default)."""
    try:
        os.stat(path)
        return path
    except PermissionError:
        return path  # there, but not for us: the reader says why (its directory's group)
    except OSError:
        pass
    if getattr(args, option.lstrip("-")):
        raise NotThere(f"no {what} at {path}" + (f" ({hint})" if hint else ""))
    source = args.config or (DEFAULT_CONFIG_PATH if os.path.exists(DEFAULT_CONFIG_PATH) else None)
    where = f"as {source} says" if source else "the installed default"
    raise NotThere(f"no {what} at {path} ({where}" + (f"; {hint}" if hint else "") + f"): {option} PATH or --config FILE names another, "
                   "such as the one `tablectl demo` names when it starts")


def journal_path(args: argparse.Namespace) -> str:
    path = args.journal or config_for_cli(args.config).journal.path
    return _existing(path, args, "journal", "--journal", "")


def socket_path(args: argparse.Namespace) -> str:
    path = args.socket or config_for_cli(args.config).control.socket
    return _existing(path, args, "control socket", "--socket", "is the daemon running?")

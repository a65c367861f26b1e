"""The table's config for a page beside it (`tablectl scoreboard`, `tablectl dealer`): the
installed one, or the one `--config` names; without either, a usage error that says where the
demo's is. A journal not there yet is said on stderr: the page serves, and fills in once the
daemon writes it."""
from __future__ import annotations

import os
import sys

from cli.common import UsageError
from cli.paths import config_for_cli
from controller.config.schema import DEFAULT_CONFIG_PATH, Config


def demo_config() -> str:
    """Where `tablectl demo` leaves its table's config, as a user would type it."""
    from simulation.demo.place import default_directory
    from simulation.demo.session import home_relative

    return home_relative(default_directory() / "tablectl.toml")


def page_table_config(command: str, config_path: str | None, *, listen_hint: str, doc: str, what: str) -> Config:
    """The config of the table whose journal `command` shows (`what`: "the board", "the page")."""
    if config_path is None and not os.path.exists(DEFAULT_CONFIG_PATH):  # the defaults name no table's journal
        raise UsageError(f"no config at {DEFAULT_CONFIG_PATH}: give --config FILE, the table's config (the demo's: "
                         f"--config {demo_config()}, with a free {listen_hint}; {doc})")
    config = config_for_cli(config_path)
    if not os.path.exists(config.journal.path):  # the daemon may not have started yet: serve, and say so
        print(f"tablectl {command}: no journal at {config.journal.path} yet (as {config_path or DEFAULT_CONFIG_PATH} "
              f"says): {what} fills in once the daemon writes it; --config FILE names another table's config",
              file=sys.stderr)
    return config

"""`tablectl` entry point: dispatches to one module per command, imported lazily.

Each command module in this package exposes ``main(argv: list[str]) -> int`` and
builds its own argparse parser, so `tablectl odds` never pays for importing the
daemon and a command's options live next to its code.
"""
from __future__ import annotations

import importlib
import sys

# command name -> (module under cli, one-line help)
COMMANDS = {
    "odds": ("odds", "exact odds and house edge of every wager of a game"),
    "play": ("play", "resolve one round from cards in shoe order"),
    "paigow": ("paigow", "pai gow tools: house-way"),
    "roads": ("roads", "the baccarat roads (bead plate, big road, derived roads) of a shoe's outcomes"),
    "sim": ("sim", "simulated devices (shoe, panel, lights, bets) on ptys"),
    "run": ("run", "run the table daemon"),
    "demo": ("demo", "the daemon against simulated devices, with a live view"),
    "watch": ("watch", "follow the daemon's event stream"),
    "status": ("status", "the daemon's current state"),
    "send": ("send", "send a command to the daemon (as the panel would)"),
    "scoreboard": ("scoreboard", "the board beside the table: roads and results on a live web page"),
    "dealer": ("dealer", "the dealer's page: each space's wager and payout, mispays, live"),
    "recall": ("recall", "show the last rounds from the journal"),
    "journal": ("journal", "verify or export the journal"),
    "shoe": ("shoe", "a shoe from the journal: cards, counts, rounds, integrity, pace"),
    "meters": ("meters", "the table's meters from the journal: drop, win, hold, theoretical win, alarms"),
    "edge": ("edge", "the house edge of every bet for the cards left (live, or for given cards)"),
    "feed": ("feed", "send this table's journal to the floor's MQTT broker"),
    "pit": ("pit", "the floor: every table's records from the broker, live, checked"),
    "install-service": ("install_service", "install unit, udev rules and config on a table PC"),
    "keys": ("keys", "device keys for authenticated frames (protocol 1.1): provision, id"),
    "chips": ("chips", "the cage's chip registry in the daemon: import a CSV, list, retire"),
}


def version() -> str:
    """The installed distribution's version (pyproject.toml), or the checkout's when not installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("tablectl")
    except PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


def _usage() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: tablectl COMMAND [options]", "", "commands:"]
    for name, (_, help_text) in COMMANDS.items():
        lines.append(f"  {name.ljust(width)}  {help_text}")
    lines.append("")
    lines.append("`tablectl COMMAND --help` for a command's options; `tablectl --version`.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:  # a usage error, like any other: usage on stderr, exit 2
        print(_usage(), file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    if argv[0] in ("-V", "--version"):
        print(f"tablectl {version()}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"tablectl: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"cli.{COMMANDS[name][0]}")
    return module.main(rest) or 0


if __name__ == "__main__":
    sys.exit(main())

"""Small pieces the command modules share: errors that name the bad token, JSON out, and the
one exit-code convention of every command (run_command)."""
from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction

from controller.config.load import ConfigError
from controller.config.schema import exact_fraction
from games.cards import CardError, parse_card
from games.registry import GAME_KEYS, get_game


class UsageError(Exception):
    """Bad input on the command line; printed as `tablectl CMD: message`, exit 2."""


class NotThere(Exception):
    """The journal or socket the command would use does not exist; says how to point elsewhere."""


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of exiting, so main() reports uniformly."""

    def error(self, message):
        raise UsageError(message)


def game_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help=f"one of {', '.join(GAME_KEYS)}")


def check_game(key: str) -> str:
    if key not in GAME_KEYS:
        raise UsageError(f"unknown game {key!r} (one of {', '.join(GAME_KEYS)})")
    return key


def game_with_decks(key: str, decks: int | None):
    """The Game named `key`, after checking `--decks` against the counts it is played with."""
    game = get_game(check_game(key))
    if decks is not None and decks not in game.deck_counts:
        counts = game.deck_counts
        allowed = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        raise UsageError(f"--decks {decks}: {key} is played with {allowed} decks")
    return game


def cards_from(tokens):
    try:
        return [parse_card(t) for t in tokens]
    except CardError as error:
        raise UsageError(f"bad card {error.token!r}: {error.reason}") from None


def print_json(obj, ensure_ascii: bool = True) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=ensure_ascii, separators=(",", ":"))
    sys.stdout.write("\n")


def run_command(name: str, body, argv, errors: tuple[type[Exception], ...] = ()) -> int:
    """Run `body(argv)` under the convention every command keeps, each error one line (or one
    line per problem) on stderr prefixed `tablectl NAME:` — exit 2: bad usage or a bad config
    (UsageError, ConfigError: fix the command line or the file); exit 1: something the command
    needed was not there or failed (NotThere, or any of `errors`: no journal, no daemon)."""
    failures: tuple[type[Exception], ...] = (NotThere, *errors)
    try:
        return body(argv) or 0
    except (UsageError, ConfigError) as error:
        _report(name, error)
        return 2
    except failures as error:
        _report(name, error)
        return 1
    except BrokenPipeError:
        return 0


def _report(name: str, error: Exception) -> None:
    print("\n".join(f"tablectl {name}: {line}" for line in str(error).splitlines() or [""]), file=sys.stderr)


def fraction_argument(option: str, text: str, example: str) -> Fraction:
    """An option's number exactly (0.5%, 0.005, 1/200, 1e-6), or a UsageError naming it."""
    try:
        return exact_fraction(text)
    except ValueError:
        raise UsageError(f"{option} {text!r}: not a number (e.g. {example})") from None

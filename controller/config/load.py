"""Read and validate a TOML config: every problem names the file, the dotted key and what
was expected; unknown keys are errors, so a typo never passes silently."""
from __future__ import annotations

import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import fields, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from controller.config.schema import OPTIONAL_DEVICES, SECTIONS, Config, exact_fraction
from games.registry import DEFAULT_GAME, GAME_KEYS, UnknownGame, get_game, get_table_profile

TOP_LEVEL_DOCS = {
    "game": f"the game dealt at this table: one of {', '.join(GAME_KEYS)}",
    "decks": "decks in the shoe (default: the game's own; checked against the counts the game is played with)",
}


class ConfigError(ValueError):
    """One or more problems in a config; str() gives one line per problem."""

    def __init__(self, source: str, problems: list[tuple[str, str]]):
        self.source = source
        self.problems = problems  # (dotted key or "", what is wrong)
        super().__init__("\n".join(f"{source}: {k}: {m}" if k else f"{source}: {m}" for k, m in problems))


def load_config(path: str | Path) -> Config:
    path = Path(path)
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except FileNotFoundError:
        raise ConfigError(str(path), [("", "no such file")]) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(str(path), [("", f"cannot read: {error}")]) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(path), [("", f"not valid TOML: {error}")]) from None
    return config_from_dict(data, source=str(path), base_dir=path.resolve().parent)


def default_config(game: str = DEFAULT_GAME) -> Config:
    """The built-in defaults for `game` (what the daemon runs with when no file is given)."""
    return config_from_dict({"game": game}, source=None)


def config_from_dict(data: Mapping[str, Any], source: str | None = None, base_dir: Path | None = None) -> Config:
    problems: list[tuple[str, str]] = []
    known = set(TOP_LEVEL_DOCS) | set(SECTIONS) | {"limits"}
    for name in data:
        if name not in known:
            problems.append((name, f"unknown key (expected one of {', '.join(sorted(known))})"))
    game_key, game = _game(data, problems)
    decks = _decks(data, game, problems)
    sections = {}
    for name, cls in SECTIONS.items():
        raw = data.get(name, {})
        if not isinstance(raw, Mapping):
            problems.append((name, f"expected a table ([{name}]), got {_shown(raw)}"))
            raw = {}
        sections[name] = _section(name, cls, raw, problems)
    if game is not None:
        sections = _game_defaults(sections, game, problems)
    sections = _cross_checks(sections, base_dir, problems)
    if "devices" in data:  # the built-in URLs are known good (a test parses them)
        _check_urls(sections["devices"], problems)
    limits = _limits(data.get("limits", {}), game, problems)
    if problems:
        raise ConfigError(source or "<built-in defaults>", problems)
    return Config(game=game_key, decks=decks, source=source, limits=limits, **sections)


def _limits(raw: object, game, problems) -> dict[str, dict[str, str]]:
    """[limits]: each key a bet of the game, each value {min = "5", max = "5000"} (games.money.limits)."""
    from games.money import BadAmount, TableLimits

    if not isinstance(raw, Mapping):
        problems.append(("limits", f"expected a table ([limits]), got {_shown(raw)}"))
        return {}
    if game is None:
        return {}
    try:
        TableLimits.from_mapping(game, raw)
    except BadAmount as bad:
        where, _, what = str(bad).partition(": ")
        problems.append((where, what))
        return {}
    return {bet: {end: str(text) for end, text in ends.items()} for bet, ends in raw.items()}


def _game(data, problems):
    key = data.get("game", DEFAULT_GAME)
    if not isinstance(key, str):
        problems.append(("game", f"expected a string (one of {', '.join(GAME_KEYS)}), got {_shown(key)}"))
        return key, None
    try:
        return key, get_game(key)
    except UnknownGame:
        problems.append(("game", f"{key!r} is not a game tablectl knows (one of {', '.join(GAME_KEYS)})"))
        return key, None


def _decks(data, game, problems):
    if "decks" not in data:
        return None if game is None else game.default_decks
    decks = data["decks"]
    if type(decks) is not int:
        problems.append(("decks", f"expected an integer, got {_shown(decks)}"))
    elif game is not None and decks not in game.deck_counts:
        problems.append(("decks", f"{decks} is not a deck count {game.key} is played with ({_counts(game.deck_counts)})"))
    return decks


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) > 2 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))


def _section(name: str, cls, raw: Mapping[str, Any], problems):
    hints = typing.get_type_hints(cls)
    by_name = {f.name: f for f in fields(cls)}
    values = {}
    for k, value in raw.items():
        dotted = f"{name}.{k}"
        if k not in by_name:
            problems.append((dotted, f"unknown key (expected one of {', '.join(by_name)})"))
            continue
        meta = by_name[k].metadata
        if meta.get("octal_text") and isinstance(value, str):
            value = _octal(value)
            if isinstance(value, str):
                problems.append((dotted, f"expected an octal file mode such as \"0660\" (digits 0-7), got {_shown(value)}"))
                continue
        value, expected = _typed(value, hints[k])
        if expected is None and meta.get("check") is not None:
            expected = meta["check"](value)
        if expected is not None:
            problems.append((dotted, f"expected {expected}, got {_shown(raw[k])}"))
        else:
            values[k] = value
    return cls(**values)


def _octal(text: str) -> int | str:
    """"0660" or "0o660" as a number; the text itself when it is not octal."""
    try:
        return int(text, 8)
    except ValueError:
        return text


def _typed(value, hint):
    """(value converted to the hint's type, None) or (value, what was expected)."""
    if isinstance(hint, types.UnionType):  # "X | None": None only as the unset default
        hint = next(arg for arg in typing.get_args(hint) if arg is not type(None))
    if hint is bool:
        return (value, None) if isinstance(value, bool) else (value, "true or false")
    if hint is int:
        return (value, None) if type(value) is int else (value, "an integer")
    if hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return (float(value), None) if ok else (value, "a number")
    if hint is str:
        return (value, None) if isinstance(value, str) else (value, "a string")
    if hint is Fraction:  # exact: a float is read as the decimal it is written as
        try:
            return exact_fraction(value), None
        except ValueError:
            return value, "a number such as 0.005, 1e-6, 1/200 or \"0.5%\""
    if typing.get_origin(hint) is tuple:  # tuple[int, ...]
        ok = isinstance(value, list) and all(type(v) is int for v in value)
        return (tuple(value), None) if ok else (value, "a list of integers")
    raise TypeError(f"config schema: no reader for {hint!r}")


def _shown(value) -> str:
    kind = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a table"}
    text = repr(value) if not isinstance(value, bool) else str(value).lower()
    return f"{text} ({kind.get(type(value), type(value).__name__)})"


def _game_defaults(sections, game, problems):
    shoe, table, profile = sections["shoe"], sections["table"], get_table_profile(game.key)
    if shoe.burn is None:
        shoe = replace(shoe, burn=profile.burn)
    if shoe.deck_per_round is None:
        shoe = replace(shoe, deck_per_round=profile.deck_per_round)
    if game.uses_spots and not all(1 <= s <= game.max_spots for s in table.spots):
        problems.append(("table.spots", f"expected seats from 1 to {game.max_spots} ({game.key}), got {list(table.spots)}"))
    return {**sections, "shoe": shoe, "table": table}


def _player_dealer_seats() -> tuple[int, ...]:
    """The seats [fortune7] may name: the player-dealer seats of Fortune 7's table profile (the
    section is named for the game, as the config format has it)."""
    player_dealer = get_table_profile("fortune7").player_dealer
    assert player_dealer is not None, "Fortune 7's table profile has a player-dealer"
    return player_dealer.seats


def _cross_checks(sections, base_dir, problems):
    timeouts, table, f7 = sections["timeouts"], sections["table"], sections["fortune7"]
    if timeouts.reconnect_max_s < timeouts.reconnect_min_s:
        problems.append(("timeouts.reconnect_max_s",
                         f"expected at least reconnect_min_s ({timeouts.reconnect_min_s}), got {timeouts.reconnect_max_s}"))
    for key, seats in (("table.spots", table.spots), ("fortune7.player_dealer_seats", f7.player_dealer_seats)):
        if not seats or len(set(seats)) != len(seats):
            problems.append((key, f"expected distinct seat numbers, at least one, got {list(seats)}"))
    seats = _player_dealer_seats()
    if not set(f7.player_dealer_seats) <= set(seats):
        problems.append(("fortune7.player_dealer_seats",
                         f"expected seats from {seats[0]} to {seats[-1]}, got {list(f7.player_dealer_seats)}"))
    elif f7.player_dealer_seat is not None and f7.player_dealer_seat not in f7.player_dealer_seats:
        problems.append(("fortune7.player_dealer_seat",
                         f"expected one of player_dealer_seats {list(f7.player_dealer_seats)}, got {f7.player_dealer_seat}"))
    control = sections["control"]
    if control.owner_slots > control.max_clients:
        problems.append(("control.owner_slots",
                         f"expected at most max_clients ({control.max_clients}), got {control.owner_slots}"))
    feed = sections["feed"]
    if feed.broker.startswith("mqtt://") and not feed.insecure:
        problems.append(("feed.broker", "mqtt:// sends the table's records in clear text: use mqtts:// "
                                        "or set feed.insecure = true (a lab only)"))
    journal = sections["journal"]
    if journal.table and feed.table and journal.table != feed.table:
        problems.append(("journal.table", f"{journal.table!r} differs from feed.table {feed.table!r}: the floor checks "
                                          "the journal's signatures against the table it is fed as"))
    if base_dir is None:
        return sections
    files = ("ca", "client_cert", "client_key", "password_file", "state")
    sections["feed"] = replace(feed, **{k: str(base_dir / getattr(feed, k)) for k in files if getattr(feed, k)})
    journal, control = sections["journal"], sections["control"]
    journal = replace(journal, path=str(base_dir / journal.path))
    if journal.signing_key:
        journal = replace(journal, signing_key=str(base_dir / journal.signing_key))
    if not Path(control.socket).is_absolute():
        control = replace(control, socket=str(base_dir / control.socket))
        check = next(f for f in fields(control) if f.name == "socket").metadata["check"]
        if (expected := check(control.socket)) is not None:
            problems.append(("control.socket", f"expected {expected}, from the config file's directory"))
    return {**sections, "journal": journal, "control": control}


def _check_urls(devices, problems):
    from drivers.errors import BadDeviceUrl  # imported only when a file is read: pulls in pyserial, pyusb
    from drivers.url import parse_device_url

    for f in fields(devices):
        if f.name in OPTIONAL_DEVICES and not getattr(devices, f.name):
            continue  # "": the table has none
        try:
            parse_device_url(getattr(devices, f.name))
        except BadDeviceUrl as error:
            problems.append((f"devices.{f.name}", str(error)))

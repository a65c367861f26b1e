"""The config file the rig writes for its daemon: the simulators' symlinks as devices, the
journal and control socket in the rig's directory, quick reconnects, and any overrides."""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from controller.journal.signing import new_key_pair

RIG_DEFAULTS = {
    # Reconnect quickly: tests unplug and replug the shoe and restart the daemon.
    "timeouts": {"reconnect_min_s": 0.05, "reconnect_max_s": 0.5},
    "log": {"format": "json", "level": "info"},
}


def merged(base: Mapping, overrides: Mapping) -> dict:
    out = {k: dict(v) if isinstance(v, Mapping) else v for k, v in base.items()}
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = dict(value) if isinstance(value, Mapping) else value
    return out


RIG_TABLE = "t01"  # the rig's table identity in its journal's signatures (the floor lab feeds it as table t01)


def rig_config(game: str, decks: int | None, directory: Path, links: Mapping[str, str], overrides: Mapping) -> dict:
    """The rig's table signs its journal with a key of its own, made in its directory (kept
    across restarts of the daemon), unless the overrides say `journal.unsigned`."""
    journal: dict = {"path": str(directory / "journal.sqlite")}
    wanted = overrides.get("journal", {})
    if not wanted.get("unsigned") and not wanted.get("signing_key"):
        key = directory / "table.key"
        if not key.exists():
            new_key_pair(key)
        journal["signing_key"] = str(key)
        if not wanted.get("table") and not overrides.get("feed", {}).get("table"):
            journal["table"] = RIG_TABLE
    config = {"game": game, **({"decks": decks} if decks is not None else {}),
              "devices": dict(links), "journal": journal,
              "control": {"socket": str(directory / "control.sock")}}
    return merged(merged(config, RIG_DEFAULTS), overrides)


def _value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"config value {value!r}: not a TOML scalar or list")


def toml_text(config: Mapping) -> str:
    """Top-level keys, then one [section] per table (the config has no deeper nesting)."""
    lines = [f"{k} = {_value(v)}" for k, v in config.items() if not isinstance(v, Mapping)]
    for section, table in config.items():
        if isinstance(table, Mapping):
            lines += ["", f"[{section}]"] + [f"{k} = {_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"

"""docs/configuration.md (Keys) and systemd/tablectl.toml name every key the schema has."""
import pathlib
import tomllib
from dataclasses import fields

from controller.config.schema import SECTIONS

ROOT = pathlib.Path(__file__).resolve().parents[3]


def schema_keys():
    return ["game", "decks"] + [f"{name}.{f.name}" for name, cls in SECTIONS.items() for f in fields(cls)]


def test_the_reference_lists_every_key():
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    missing = [key for key in schema_keys() if f"| `{key}` |" not in text]
    assert not missing, f"docs/configuration.md's table of keys lacks {missing}"


def test_the_default_file_shows_every_key_or_says_why_not():
    text = (ROOT / "systemd" / "tablectl.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    shown = {k for k in data if not isinstance(data[k], dict)}
    shown |= {f"{section}.{k}" for section, table in data.items() if isinstance(table, dict) for k in table}
    # those whose default depends on the game, or is "unset", are shown commented out
    unset = {"shoe.burn", "shoe.deck_per_round", "fortune7.player_dealer_seat", "feed.broker", "feed.table"}
    assert set(schema_keys()) - shown == unset
    assert all(f"# {key.split('.')[1]} = " in text for key in unset)

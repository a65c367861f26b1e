"""docs/configuration.md and systemd/tablectl.toml name every key the schema has."""
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
    assert not missing, f"docs/configuration.md lacks {missing}"


def test_the_default_file_shows_every_key_or_says_why_not():
    text = (ROOT / "systemd" / "tablectl.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    shown = {k for k in data if not isinstance(data[k], dict)}
    shown |= {f"{section}.{k}" for section, table in data.items() if isinstance(table, dict) for k in table}
    # the two whose default depends on the game are shown commented out, with the rule
    assert set(schema_keys()) - shown == {"shoe.burn", "table.seats"}
    assert "# burn = true                # default: on for fafa4" in text and "# seats = 7                  # default: the game's most" in text

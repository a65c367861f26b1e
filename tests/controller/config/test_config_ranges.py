"""Every timeout has a finite, documented range (inf, nan, negatives and absurd values are
refused naming the key and the range), and a control socket mode that lets others write
(connect) is refused."""
import math
import pathlib
import re
from dataclasses import fields

import pytest

from controller.config import ConfigError, default_config, load_config
from controller.config.schema import SECTIONS

ROOT = pathlib.Path(__file__).resolve().parents[3]
TIMEOUTS = {  # key -> (low, high) in seconds, as docs/configuration.md states them
    "timeouts.card_timeout_s": (1, 600),
    "timeouts.reconnect_min_s": (0.01, 60),
    "timeouts.reconnect_max_s": (0.01, 600),
    "timeouts.ack_timeout_s": (0.01, 10),
    "timeouts.heartbeat_interval_s": (0.1, 60),
    "control.reply_timeout_s": (0.1, 300),
    "control.idle_timeout_s": (1, 86400),
}


def problems(tmp_path, text: str) -> list[tuple[str, str]]:
    path = tmp_path / "tablectl.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    return caught.value.problems


def toml(key: str, value: str) -> str:
    section, name = key.split(".")
    # keep the cross-check (reconnect_max_s >= reconnect_min_s) out of the way
    extra = {"reconnect_max_s": "\nreconnect_min_s = 0.01", "reconnect_min_s": "\nreconnect_max_s = 600"}.get(name, "")
    return f"[{section}]\n{name} = {value}{extra}"


def key_check(key: str):
    """The schema's check of `key` (section.name)."""
    section, name = key.split(".")
    return next(f for f in fields(SECTIONS[section]) if f.name == name).metadata["check"]


def every_seconds_key() -> list[str]:
    """Every float key of the schema: all of them are durations in seconds (the _s suffix)."""
    found = []
    for section, cls in SECTIONS.items():
        for f in fields(cls):
            if f.type in ("float", float):
                assert f.name.endswith("_s"), f"{section}.{f.name} is a float that is not a duration: give it a range"
                found.append(f"{section}.{f.name}")
    return found


def test_every_duration_in_the_schema_has_a_range_here():
    assert sorted(every_seconds_key()) == sorted(TIMEOUTS)


@pytest.mark.parametrize("key", TIMEOUTS)
@pytest.mark.parametrize("value, shown", [("inf", "inf"), ("-inf", "-inf"), ("nan", "nan"), ("-1", "-1"),
                                          ("0", "0"), ("1e9", "1000000000.0")])
def test_a_timeout_out_of_its_range_is_refused_naming_key_and_range(tmp_path, key, value, shown):
    low, high = TIMEOUTS[key]
    found = problems(tmp_path, toml(key, value))
    kind = "an integer" if re.fullmatch(r"-?\d+", value) else "a number"
    assert found == [(key, f"expected a number of seconds from {low:g} to {high:g}, got {shown} ({kind})")]


@pytest.mark.parametrize("key", TIMEOUTS)
def test_both_ends_of_a_range_are_accepted(tmp_path, key):
    low, high = TIMEOUTS[key]
    for value in (low, high):
        path = tmp_path / "tablectl.toml"
        path.write_text(toml(key, repr(float(value))) + "\n", encoding="utf-8")
        section, name = key.split(".")
        assert getattr(getattr(load_config(path), section), name) == value


def test_the_defaults_are_inside_the_ranges():
    config = default_config()
    for key, (low, high) in TIMEOUTS.items():
        section, name = key.split(".")
        value = getattr(getattr(config, section), name)
        assert math.isfinite(value) and low <= value <= high


def test_the_ranges_are_documented_for_the_operator():
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for key, (low, high) in TIMEOUTS.items():
        check = key_check(key)
        assert check.range_text == f"{low:g} to {high:g} s"
        assert f"| `{key}` | {check.range_text} |" in text, key


@pytest.mark.parametrize("mode", ['"0666"', '"0777"', '"0662"', "0o602", '"0002"'])
def test_a_socket_mode_that_lets_others_connect_is_refused(tmp_path, mode):
    found = problems(tmp_path, f"[control]\nmode = {mode}")
    assert len(found) == 1 and found[0][0] == "control.mode"
    assert found[0][1].startswith("expected a mode that gives others no write access (such as 0660): "
                                  "with it any local user could command the table, got ")


@pytest.mark.parametrize("mode, expected", [('"0660"', 0o660), ('"0600"', 0o600), ('"0664"', 0o664), ("0o640", 0o640)])
def test_modes_for_owner_and_group_are_accepted(tmp_path, mode, expected):
    path = tmp_path / "tablectl.toml"
    path.write_text(f"[control]\nmode = {mode}\n", encoding="utf-8")
    assert load_config(path).control.mode == expected

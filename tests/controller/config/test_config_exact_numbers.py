"""The exact-number keys (integrity.false_alarm_rate, edge.alert_margin) and the history cap:
every written form is taken exactly, out-of-range and non-numbers are refused naming the key and
the range, the ranges are documented, and the table is dealt with the configured rate."""
import json
import pathlib
import subprocess
import sys
from fractions import Fraction

import pytest
from test_config_ranges import key_check

from controller.config import ConfigError, default_config, load_config
from controller.config.schema import exact_fraction
from controller.config.table_settings import table_settings

ROOT = pathlib.Path(__file__).resolve().parents[3]
RANGES = {  # key -> (low, high), as docs/configuration.md states them
    "integrity.false_alarm_rate": (Fraction(1, 10**12), Fraction(1, 100)),
    "edge.alert_margin": (Fraction(0), Fraction(1)),
}


def loaded(tmp_path, text: str):
    path = tmp_path / "tablectl.toml"
    path.write_text(text + "\n", encoding="utf-8")
    return load_config(path)


def problems(tmp_path, text: str) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as caught:
        loaded(tmp_path, text)
    return caught.value.problems


@pytest.mark.parametrize("written, exact", [("1e-6", Fraction(1, 10**6)), ("0.000001", Fraction(1, 10**6)),
                                            ('"1/1000000"', Fraction(1, 10**6)), ('"0.0001%"', Fraction(1, 10**6)),
                                            ("0.01", Fraction(1, 100)), ("1e-12", Fraction(1, 10**12)),
                                            ('"1/3000"', Fraction(1, 3000))])
def test_every_written_form_of_the_rate_is_taken_exactly(tmp_path, written, exact):
    config = loaded(tmp_path, f"[integrity]\nfalse_alarm_rate = {written}")
    assert config.integrity.false_alarm_rate == exact
    assert table_settings(config).false_alarm_rate == exact  # the table is dealt with it


@pytest.mark.parametrize("written, shown, expected", [
    ("0.5", "0.5 (a number)", "a number from 1e-12 to 0.01"),
    ("0", "0 (an integer)", "a number from 1e-12 to 0.01"),
    ("-1e-6", "-1e-06 (a number)", "a number from 1e-12 to 0.01"),
    ("nan", "nan (a number)", 'a number such as 0.005, 1e-6, 1/200 or "0.5%"'),
    ("inf", "inf (a number)", 'a number such as 0.005, 1e-6, 1/200 or "0.5%"'),
    ('"often"', "'often' (a string)", 'a number such as 0.005, 1e-6, 1/200 or "0.5%"'),
    ("true", "true (a boolean)", 'a number such as 0.005, 1e-6, 1/200 or "0.5%"'),
])
def test_a_bad_rate_is_refused_naming_key_and_what_was_expected(tmp_path, written, shown, expected):
    assert problems(tmp_path, f"[integrity]\nfalse_alarm_rate = {written}") == [
        ("integrity.false_alarm_rate", f"expected {expected}, got {shown}")]


def test_the_margin_takes_percent_and_fractions_and_refuses_negatives(tmp_path):
    assert loaded(tmp_path, '[edge]\nalert_margin = "0.5%"').edge.alert_margin == Fraction(1, 200)
    assert loaded(tmp_path, '[edge]\nalert_margin = 0.005').edge.alert_margin == Fraction(1, 200)
    assert problems(tmp_path, "[edge]\nalert_margin = -0.01") == [
        ("edge.alert_margin", "expected a number from 0 to 1, got -0.01 (a number)")]


def test_the_history_cap_is_a_count_in_its_range(tmp_path):
    assert loaded(tmp_path, "[integrity]\nhistory_shoes = 0").integrity.history_shoes == 0
    assert problems(tmp_path, "[integrity]\nhistory_shoes = 100001") == [
        ("integrity.history_shoes", "expected an integer from 0 to 100000, got 100001 (an integer)")]
    assert problems(tmp_path, "[integrity]\nhistory_shoes = 1.5")[0][0] == "integrity.history_shoes"


def test_the_defaults_are_in_range_and_the_ranges_are_documented():
    config = default_config()
    assert config.integrity.false_alarm_rate == Fraction(1, 10**6) and config.edge.alert_margin == 0
    assert config.integrity.history_shoes == 1000
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for key, (low, high) in RANGES.items():
        assert key_check(key).range_text == f"{float(low):g} to {float(high):g}"
        assert f"| `{key}` | {key_check(key).range_text} |" in text, key
        section, name = key.split(".")
        assert low <= getattr(getattr(config, section), name) <= high
    assert "| `integrity.history_shoes` | 0 to 100000 |" in text


def test_printed_config_reads_back_exactly(tmp_path):
    path = tmp_path / "tablectl.toml"
    path.write_text('[integrity]\nfalse_alarm_rate = "1/3000"\n[edge]\nalert_margin = "0.5%"\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "controller.config", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    printed = json.loads(done.stdout)
    assert printed["integrity"]["false_alarm_rate"] == "1/3000" and printed["edge"]["alert_margin"] == "1/200"
    assert exact_fraction(printed["integrity"]["false_alarm_rate"]) == Fraction(1, 3000)


def test_exact_fraction_reads_what_people_write():
    assert exact_fraction(0.1) == Fraction(1, 10) and exact_fraction("12.5%") == Fraction(1, 8)
    for bad in (float("nan"), "1/0", "", None, True):
        with pytest.raises(ValueError):
            exact_fraction(bad)

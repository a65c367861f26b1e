"""`tablectl meters`: the meters fold over a journal written with the journal's writer, as
text and JSON, for the whole journal, a shoe and a shift; the alarm from the config or the
option; errors exit 1 or 2 naming what is wrong."""
from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from cli import main
from controller.journal import Journal
from simulation.money_journal import MoneyDealer


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    path = tmp_path_factory.mktemp("meters_cli") / "journal.sqlite"
    with Journal(path) as writer:
        dealer = MoneyDealer(writer, "fafa4", rng=random.Random(5))
        dealer.open_shift("day")
        dealer.deal(60, void_every=15)
        dealer.close_shift()
        dealer.open_shift("swing")
        dealer.deal(100, overpay=Fraction(1), overpay_bet="player")
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["meters", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_whole_journal_as_json_and_text(capsys, journal):
    status, out, err = run(capsys, "--journal", str(journal), "--json", "--theory", "full_shoe")
    data = json.loads(out)
    assert (status, err) == (0, "")
    assert data["theory"] == "full_shoe" and data["alarm_sd"] == "3.00"
    assert data["table"]["rounds"] == 156 and data["table"]["void_rounds"] == 4
    assert [s["name"] for s in data["shifts"]] == ["day", "swing"] and data["shifts"][1]["closed_at"] is None
    assert [a["shift"] for a in data["alarms"]] == [2] and "rounds" not in data
    status, out, _ = run(capsys, "--journal", str(journal), "--theory", "full_shoe")
    assert status == 0 and out.startswith("meters  theory: for a full shoe  alarm beyond 3.00 sd\n")
    total = next(line for line in out.splitlines() if line.strip().startswith("total"))
    assert data["table"]["drop"] in total and data["table"]["house_net"] in total
    assert f"ALARM shift 2: house net {data['alarms'][0]['actual']} against a theoretical win of" in out


def test_one_shift_and_one_shoe_with_their_rounds(capsys, journal):
    status, out, _ = run(capsys, "--journal", str(journal), "--json", "--shift", "1")
    data = json.loads(out)
    assert status == 0 and data["theory"] == "exact" and [s["shift"] for s in data["shifts"]] == [1]
    assert len(data["rounds"]) == 60 and sum(r["void"] for r in data["rounds"]) == 4 and data["alarms"] == []
    status, out, _ = run(capsys, "--journal", str(journal), "--shoe", "1", "--theory", "full_shoe")
    assert status == 0 and "shoe 1: " in out and "    round 1 (shoe 1): drop " in out


def test_the_alarm_threshold_from_the_config_and_the_option(capsys, journal, tmp_path):
    config = tmp_path / "tablectl.toml"
    config.write_text(f'game = "fafa4"\ndecks = 8\n[journal]\npath = "{journal}"\n[meters]\nalarm_sd = 100\n')
    status, out, _ = run(capsys, "--config", str(config), "--json", "--theory", "full_shoe")
    assert status == 0 and json.loads(out)["alarms"] == [] and json.loads(out)["alarm_sd"] == "100.00"
    status, out, _ = run(capsys, "--config", str(config), "--json", "--theory", "full_shoe", "--alarm-sd", "2.5")
    assert status == 0 and json.loads(out)["alarm_sd"] == "2.50" and json.loads(out)["alarms"]


def test_errors(capsys, journal, tmp_path):
    assert run(capsys, "--journal", str(tmp_path / "none.sqlite")) == (
        1, "", f"tablectl meters: no journal at {tmp_path / 'none.sqlite'}\n")
    assert run(capsys, "--journal", str(journal), "--shift", "9")[::2] == (
        1, "tablectl meters: the journal has no shift 9 (shifts 1-2)\n")
    assert run(capsys, "--journal", str(journal), "--shoe", "0")[::2] == (2, "tablectl meters: --shoe 0: numbered from 1\n")
    status, _, err = run(capsys, "--journal", str(journal), "--alarm-sd", "lots")
    assert status == 2 and "--alarm-sd 'lots': not a number" in err
    status, _, err = run(capsys, "--journal", str(journal), "--shoe", "1", "--shift", "1")
    assert status == 2 and "not allowed with argument" in err

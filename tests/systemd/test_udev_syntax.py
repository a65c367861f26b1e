"""A syntax check of udev/*.rules by a parser of our own. It runs everywhere, including
machines where test_udev_rules.py (the real udevadm in a sandbox) has to skip."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEVICES = ROOT / "udev/69-tablectl-devices.rules"
ACTIONS = ROOT / "udev/70-tablectl.rules"
ROLES = {"shoe", "panel", "lights", "bets"}

MATCH_KEYS = {"ACTION", "SUBSYSTEM", "KERNEL", "ENV", "ATTR", "ATTRS", "DRIVERS", "SUBSYSTEMS"}
ASSIGN_KEYS = {"ENV", "SYMLINK", "GROUP", "MODE", "TAG", "GOTO", "LABEL", "OWNER"}
PAIR = re.compile(r'\s*([A-Z]+)(?:\{([A-Za-z_][\w]*)\})?\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(?:,|$)')


def rules(path: Path) -> list[list[tuple[str, str | None, str, str]]]:
    """Each rule line as (key, attribute, operator, value) tuples; fails on anything else."""
    parsed = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pairs, at = [], 0
        while at < len(line):
            match = PAIR.match(line, at)
            assert match, f"{path.name}:{number}: cannot parse at column {at + 1}: {line[at:]!r}"
            key, attribute, operator, value = match.groups()
            known = MATCH_KEYS if operator in ("==", "!=") else ASSIGN_KEYS
            assert key in known, f"{path.name}:{number}: {key} {operator} is not a udev key we use"
            pairs.append((key, attribute, operator, value))
            at = match.end()
        parsed.append(pairs)
    return parsed


@pytest.mark.parametrize("path", [DEVICES, ACTIONS], ids=lambda p: p.name)
def test_every_line_parses_and_every_goto_has_its_label(path):
    parsed = rules(path)
    gotos = {value for rule in parsed for key, _, _, value in rule if key == "GOTO"}
    labels = {value for rule in parsed for key, _, _, value in rule if key == "LABEL"}
    assert gotos <= labels


def test_each_device_line_names_vid_pid_serial_and_one_role():
    roles = []
    for rule in rules(DEVICES):
        matches = {(key, attribute): value for key, attribute, operator, value in rule if operator == "=="}
        sets = [value for key, attribute, operator, value in rule if (key, attribute, operator) == ("ENV", "TABLECTL_ROLE", "=")]
        attr = "ATTRS" if matches[("SUBSYSTEM", None)] == "tty" else "ATTR"
        if attr == "ATTR":
            assert matches[("SUBSYSTEM", None)] == "usb" and matches[("ENV", "DEVTYPE")] == "usb_device"
        assert re.fullmatch(r"[0-9a-f]{4}", matches[(attr, "idVendor")])
        assert re.fullmatch(r"[0-9a-f]{4}", matches[(attr, "idProduct")])
        assert matches[(attr, "serial")]
        assert len(sets) == 1 and sets[0] in ROLES
        roles.append(sets[0])
    assert sorted(roles) == ["bets", "lights", "panel", "shoe", "shoe"]  # the shoe: USB-serial or raw USB


def test_only_devices_with_a_role_get_a_name_group_and_device_unit():
    parsed = rules(ACTIONS)
    guard = [rule for rule in parsed if ("ENV", "TABLECTL_ROLE", "!=", "shoe|panel|lights|bets") in rule]
    assert guard and ("GOTO", None, "=", "tablectl_end") in guard[0]
    acting = [rule for rule in parsed if any(key == "SYMLINK" for key, *_ in rule)]
    assert acting == [[
        ("SYMLINK", None, "+=", "tablectl/$env{TABLECTL_ROLE}"),
        ("GROUP", None, "=", "tablectl"),
        ("MODE", None, "=", "0660"),
        ("TAG", None, "+=", "systemd"),
    ]]
    assert parsed.index(guard[0]) < parsed.index(acting[0])


def test_the_parser_rejects_what_udev_would_reject(tmp_path):
    broken = tmp_path / "x.rules"
    for line in ('SUBSYSTEM=="tty", SYMLNK+="x"', 'SUBSYSTEM=="tty" GROUP="x"', 'ATTRS{serial}=="A, MODE="0660"'):
        broken.write_text(line + "\n")
        with pytest.raises(AssertionError):
            rules(broken)

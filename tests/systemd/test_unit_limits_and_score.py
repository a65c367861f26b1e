"""The unit's descriptor limit is explicit, and the hardening score the docs quote is the one
the machine's systemd-analyze computes for the shipped unit (never a typed figure that
drifts: the README once said 0.8 while the unit scored 0.4)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from test_service_unit import UNIT, exposure, settings

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "daemon.md"
QUOTED = re.compile(r"overall exposure \*\*(\d+\.\d)\*\*")


def test_the_descriptor_limit_is_explicit():
    values = settings(UNIT.read_text())["Service.LimitNOFILE"]
    assert len(values) == 1 and re.fullmatch(r"\d+", values[0]), values  # one number: soft = hard
    assert int(values[0]) >= 1024
    assert f"`LimitNOFILE={values[0]}`" in DOCS.read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_quoted_security_score_is_the_computed_one(tmp_path):
    quoted = QUOTED.findall(DOCS.read_text(encoding="utf-8"))
    assert len(quoted) == 1, "docs/daemon.md must quote the score exactly once"
    assert float(quoted[0]) == exposure(UNIT.read_text(), tmp_path)

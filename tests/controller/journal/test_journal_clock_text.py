"""A record's `at`: UTC, ISO 8601 with microseconds and a Z, exactly as datetime.isoformat
writes it, although the journal formats the date and time of day only once per second."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from controller.journal import store


def _reference(ns: int) -> str:
    micros = ns // 1000
    when = datetime.fromtimestamp(micros // 1_000_000, UTC).replace(microsecond=micros % 1_000_000)
    return when.isoformat(timespec="microseconds").replace("+00:00", "Z")


@pytest.mark.parametrize("ns", [
    0, 999, 1_000_000_000 - 1, 1_000_000_000, 1_764_115_200_000_000_000,  # an epoch second, a midnight
    1_764_115_199_999_999_999, 1_764_115_200_000_001_000, 4_102_444_799_123_456_789,
])
def test_at_is_what_isoformat_writes(monkeypatch, ns):
    monkeypatch.setattr(store, "_second", (-1, ""))
    monkeypatch.setattr(store.time, "time_ns", lambda: ns)
    assert store._utc_now() == _reference(ns)


def test_the_cached_second_is_never_reused_for_another_second(monkeypatch):
    monkeypatch.setattr(store, "_second", (-1, ""))
    clock = iter([1_764_115_199_999_999_000, 1_764_115_200_000_000_000, 1_764_115_200_500_000_000,
                  1_764_115_199_000_000_000])  # the last one goes back (the wall clock was set back)
    monkeypatch.setattr(store.time, "time_ns", lambda: next(clock))
    texts = [store._utc_now() for _ in range(4)]
    assert texts == ["2025-11-25T23:59:59.999999Z", "2025-11-26T00:00:00.000000Z",
                     "2025-11-26T00:00:00.500000Z", "2025-11-25T23:59:59.000000Z"]


def test_appended_records_carry_it(tmp_path):
    with store.Journal(tmp_path / "j.sqlite") as journal:
        record = journal.append("note", {"n": 1})
    assert record.at.endswith("Z") and datetime.fromisoformat(record.at.replace("Z", "+00:00")).tzinfo is not None

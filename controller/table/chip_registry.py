"""The chip registry: the cage's chips by UID (value, chip set, in or out of service).

It is loaded by the `chips_import` and `chips_retire` commands, each journaled as one `chips`
record, and rebuilt at start-up by folding every `chips` record of the journal in order
(`ChipRegistry.from_records`; the daemon reads them: the journal's tail may not reach an
import made long ago). Until a first import, no registry exists and no chip is foreign; from
then on a chip whose UID it does not know, has retired, or whose tag value differs from its
value is foreign (local ruling L10).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.money import BadAmount, format_amount, parse_amount

UID = re.compile(r"[0-9a-f]{8,20}\Z")  # 4..10 bytes as hex (ISO 14443 UIDs are 4, 7 or 10 bytes)
SET_NAME = re.compile(r"[A-Za-z0-9 _.-]{1,32}\Z")
MAX_ROWS = 1000  # rows in one command: the control socket's line bound keeps a batch well below


class ChipError(ValueError):
    """A row or UID the registry cannot take; the message names it."""


@dataclass(frozen=True)
class Chip:
    uid: str
    value: Fraction  # in currency
    set: str
    retired: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "value": format_amount(self.value), "set": self.set, "retired": self.retired}


def parse_uid(text: object) -> str:
    uid = str(text).strip().lower()
    if not UID.match(uid):
        raise ChipError(f"UID {str(text)[:24]!r} is not 4-10 bytes of hex (e.g. 047b0000000001)")
    return uid


def parse_row(row: object, number: int) -> Chip:
    """One "UID,VALUE,SET" row (number counts from 1, for the message)."""
    parts = [part.strip() for part in str(row).split(",")]
    if len(parts) != 3:
        raise ChipError(f"row {number}: {str(row)[:60]!r} is not UID,VALUE,SET")
    try:
        uid = parse_uid(parts[0])
        value = parse_amount(parts[1])
    except (ChipError, BadAmount) as bad:
        raise ChipError(f"row {number}: {bad}") from None
    if value <= 0:
        raise ChipError(f"row {number}: value {parts[1]} is not a chip's value (it must be more than 0)")
    if not SET_NAME.match(parts[2]):
        raise ChipError(f"row {number}: chip set {parts[2][:40]!r} is not 1-32 letters, digits, space, _ . -")
    return Chip(uid, value, parts[2])


class ChipRegistry:
    def __init__(self) -> None:
        self.chips: dict[str, Chip] = {}
        self.loaded = False  # a first import was made: from then on unknown chips are foreign
        self.version = 0  # counts changes: what a reader cached from the registry is stale once it moves

    # ------------------------------------------------------------ changes (each a `chips` record)

    def parse_import(self, rows: Sequence[object]) -> list[Chip]:
        """The rows as chips, all or none: ChipError names the first bad row."""
        if not isinstance(rows, (list, tuple)) or not rows:
            raise ChipError("chips: give at least one row UID,VALUE,SET")
        if len(rows) > MAX_ROWS:
            raise ChipError(f"chips: {len(rows)} rows in one command; send at most {MAX_ROWS} at a time")
        chips, seen = [], set()
        for number, row in enumerate(rows, start=1):
            chip = parse_row(row, number)
            if chip.uid in seen:
                raise ChipError(f"row {number}: UID {chip.uid} is given twice")
            seen.add(chip.uid)
            chips.append(chip)
        return chips

    def parse_retire(self, uids: Sequence[object]) -> list[str]:
        if not isinstance(uids, (list, tuple)) or not uids:
            raise ChipError("uids: give at least one UID")
        if len(uids) > MAX_ROWS:
            raise ChipError(f"uids: {len(uids)} in one command; send at most {MAX_ROWS} at a time")
        out = [parse_uid(uid) for uid in uids]
        unknown = [uid for uid in out if uid not in self.chips]
        if unknown:
            raise ChipError(f"UID {unknown[0]} is not in the registry")
        return out

    def add(self, chips: Iterable[Chip]) -> None:
        """Imported (again): in service with this value and set."""
        for chip in chips:
            self.chips[chip.uid] = chip
        self.loaded, self.version = True, self.version + 1

    def retire(self, uids: Iterable[str]) -> None:
        for uid in uids:
            chip = self.chips.get(uid)
            if chip is not None:
                self.chips[uid] = Chip(chip.uid, chip.value, chip.set, retired=True)
        self.version += 1

    def fold(self, payload: Mapping[str, Any]) -> None:
        """Apply one journaled `chips` record."""
        imported = payload.get("imported")
        if isinstance(imported, list):
            self.add(Chip(str(c["uid"]), parse_amount(str(c["value"])), str(c["set"])) for c in imported)
        retired = payload.get("retired")
        if isinstance(retired, list):
            self.retire(str(uid) for uid in retired)

    @classmethod
    def from_records(cls, payloads: Iterable[Mapping[str, Any]]) -> ChipRegistry:
        """The registry every `chips` record of a journal (oldest first) leaves."""
        registry = cls()
        for payload in payloads:
            registry.fold(payload)
        return registry

    # ------------------------------------------------------------ a chip read on a space

    def why_foreign(self, uid: str, value: Fraction) -> str | None:
        """"unknown", "retired" or "value differs" for a chip that is not the house's; None for
        one that is, or while no registry is loaded."""
        if not self.loaded:
            return None
        chip = self.chips.get(uid.lower())
        if chip is None:
            return "unknown"
        if chip.retired:
            return "retired"
        if chip.value != value:
            return "value differs"
        return None

    def snapshot(self) -> dict[str, Any]:
        in_service = sum(1 for c in self.chips.values() if not c.retired)
        return {"loaded": self.loaded, "chips": len(self.chips), "in_service": in_service}

"""One journal record, its canonical JSON and the hash that chains it to the one before.

The hash of record N is sha256 over the canonical JSON array

    [prev_hash, seq, at, mono_ns, kind, round, payload_text]

(UTF-8, no spaces, `ensure_ascii=False`), where prev_hash is record N-1's hash (GENESIS
for the first record) and payload_text is the payload's canonical JSON text exactly as
stored. Anyone can recompute it from `tablectl journal export --json` with any JSON library.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller import bounded_json
from controller.json_text import compact_encoder

GENESIS = "0" * 64  # prev_hash of the first record
json_string = json.encoder.encode_basestring  # a str as json.dumps(ensure_ascii=False) writes it


PAYLOAD_BYTES = 16 * 1024 * 1024  # a record's payload read back, at most (the daemon's are a few KiB)


class JournalError(Exception):
    """A journal that cannot be opened or written, or a record that cannot be stored."""


class DamagedRecord(JournalError):
    """A stored record that cannot be used as it is (its payload is not a JSON object, a
    column holds bytes that are not UTF-8 or a value of the wrong type)."""

    def __init__(self, seq: int, reason: str):
        self.seq, self.reason = seq, reason
        super().__init__(f"record {seq}: {reason}")


_canonical = compact_encoder(sort_keys=True, allow_nan=False)  # built once: every record goes through it


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, no NaN: the same value always gives the same text (exactly
    what json.dumps writes with those options; TypeError or ValueError for what is not JSON)."""
    return _canonical(value)


def record_hash(prev_hash: str, seq: int, at: str, mono_ns: int, kind: str, round_no: int | None, payload_text: str) -> str:
    return hashlib.sha256(_chained_text(prev_hash, seq, at, mono_ns, kind, round_no, payload_text).encode("utf-8")).hexdigest()


def _chained_text(prev_hash, seq, at, mono_ns, kind, round_no, payload_text) -> str:
    """canonical_json of the array, built directly when every field has its usual type (the
    journal's hot path: json.dumps of a list costs twice this); anything else (a damaged
    row being verified) goes through canonical_json itself. Same text either way."""
    if (type(seq) is int and type(mono_ns) is int and (round_no is None or type(round_no) is int)
            and type(prev_hash) is str and type(at) is str and type(kind) is str and type(payload_text) is str):
        return (f"[{json_string(prev_hash)},{seq},{json_string(at)},{mono_ns},{json_string(kind)},"
                f"{'null' if round_no is None else round_no},{json_string(payload_text)}]")
    return canonical_json([prev_hash, seq, at, mono_ns, kind, round_no, payload_text])


@dataclass(frozen=True)
class Record:
    seq: int  # 1, 2, 3 ... with no gaps
    at: str  # wall clock, UTC, ISO 8601 with microseconds
    mono_ns: int  # CLOCK_MONOTONIC when written (orders records within one boot)
    kind: str  # "card", "result", ... (see docs/journal.md); any other kind is opaque
    round: int | None
    payload_text: str  # canonical JSON of the payload, exactly as hashed
    prev_hash: str
    hash: str

    @property
    def payload(self) -> Mapping[str, Any]:
        """The payload as an object; DamagedRecord (naming this record) if it is not one."""
        try:
            bounded_json.check(self.payload_text, max_bytes=PAYLOAD_BYTES)  # a deep one: RecursionError in json
            value = json.loads(self.payload_text)
        except bounded_json.BoundedJSONError as error:
            raise DamagedRecord(self.seq, f"its payload is refused unread ({error})") from None
        except (TypeError, ValueError) as error:
            raise DamagedRecord(self.seq, f"its payload is not JSON ({error})") from None
        if not isinstance(value, dict):
            raise DamagedRecord(self.seq, f"its payload is not a JSON object ({_a(value)})")
        return value

    def expected_hash(self) -> str:
        return record_hash(self.prev_hash, self.seq, self.at, self.mono_ns, self.kind, self.round, self.payload_text)

    def to_json(self) -> dict:
        """The exported form: every stored field, the payload as an object (its canonical
        JSON text, as hashed, is `canonical_json(payload)`)."""
        return {
            "seq": self.seq,
            "at": self.at,
            "mono_ns": self.mono_ns,
            "kind": self.kind,
            "round": self.round,
            "payload": self.payload,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


COLUMNS = "seq, at, mono_ns, kind, round, payload, prev_hash, hash"
# SQLite stores any value in any column: what each column of an intact record holds.
COLUMN_TYPES = {"seq": (int,), "at": (str,), "mono_ns": (int,), "kind": (str,), "round": (int, type(None)),
                "payload": (str,), "prev_hash": (str,), "hash": (str,)}
_STORED = {bytes: "a BLOB", str: "text", int: "an integer", float: "a real number", type(None): "NULL"}


def _a(value: Any) -> str:
    """'a list', 'a string', ... for a JSON value."""
    return {list: "a list", str: "a string", int: "a number", float: "a number", bool: "a boolean",
            type(None): "null"}.get(type(value), type(value).__name__)


def column_problem(row: tuple) -> str | None:
    """What is wrong with a row's column types (before anything is computed from them)."""
    for (name, types), value in zip(COLUMN_TYPES.items(), row, strict=True):
        if type(value) not in types:
            expected = " or ".join(_STORED[t] for t in types)
            return f"its {name} is {_STORED.get(type(value), type(value).__name__)}, not {expected}"
    return None


def record_from_row(row) -> Record:
    return Record(*row)

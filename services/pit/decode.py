"""What a message on a table's `record` topic holds: its records, each with whether its hash
matches its contents, or why it is not ours.

    body = parse(message.payload)                  # NotOurs: not JSON, too large, nested too deeply
    for item in records_of(body, message.payload):  # Arrival(record, hash_ok, payload) or NotOurs, in order
        ...

The pit reads every record of the floor, so the JSON work is done the fast way first, with
orjson (parse, and the payload's canonical text: sorted keys, no spaces, as the journal
writes it). A record whose hash then matches its contents is proved to be the one hashed at
the table, whatever the library. If anything in a message is off (a record refused, a hash
that does not match), the whole message is read again exactly as the standard library reads
it (`json.loads`, `controller.journal.canonical_json`), and that reading decides: orjson
reads integers beyond 64 bits as floats and refuses lone surrogates, where `json` does not (a
record cannot hold a lone surrogate: the journal hashes UTF-8).

Before either reads it, a message is checked against MESSAGE_BYTES and MAX_DEPTH
(controller.bounded_json): one nested thousands deep would raise RecursionError in `json`,
and the broker would deliver it again after every restart.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import orjson

from controller import bounded_json
from controller.journal import Record, canonical_json

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1  # SQLite's integers
MESSAGE_BYTES = 1024 * 1024  # a `record` message: the feed sends at most 128 KiB, or one record alone
MAX_DEPTH = bounded_json.MAX_DEPTH  # levels of nesting: a record's payload needs fewer than ten
FIELDS = {"seq": int, "at": str, "mono_ns": int, "kind": str, "payload": dict, "prev_hash": str, "hash": str}


class NotOurs(ValueError):
    """A message that is not a journal record as the feed sends it."""


class Arrival(NamedTuple):
    record: Record
    hash_ok: bool  # the record's hash matches its contents
    payload: dict  # the record's payload as read (equal to record.payload when hash_ok), not read again


def parse(raw: bytes) -> Any:
    """The message's JSON (orjson first, then the standard library) once its size and depth are
    within bounds; NotOurs saying why otherwise."""
    try:
        bounded_json.check(raw, max_bytes=MESSAGE_BYTES, max_depth=MAX_DEPTH)
    except bounded_json.BoundedJSONError as error:
        raise NotOurs(str(error) if isinstance(error, bounded_json.NotJSON) else f"refused unread: {error}") from None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    return _exact(raw)


def _exact(raw: bytes) -> Any:
    """The message as the standard library reads it (its bounds checked again: cheap, and this
    is the only way to json.loads here)."""
    try:
        return bounded_json.loads(raw, max_bytes=MESSAGE_BYTES, max_depth=MAX_DEPTH)
    except bounded_json.BoundedJSONError as error:
        raise NotOurs(str(error)) from None


def records_of(body: Mapping[str, Any], raw: bytes) -> list[Arrival | NotOurs]:
    """The records of a `record` message, one (`{"seq": ...}`) or several (`{"records": [...]}`),
    in order; an item that is not a record is a NotOurs naming it (the others still count).
    NotOurs for the message as a whole when `records` is not a list of records."""
    try:
        fast = _read(body, _fast_text)
        if all(isinstance(item, Arrival) and item.hash_ok for item in fast):
            return fast
    except NotOurs:
        pass  # decided below
    exact = _exact(raw)
    if not isinstance(exact, dict):
        raise NotOurs("not a JSON object")
    return _read(exact, canonical_json)


def _read(body: Mapping[str, Any], text: Callable[[Any], str]) -> list[Arrival | NotOurs]:
    if "records" not in body:
        return [_arrival(body, text)]
    items = body["records"]
    if not isinstance(items, list) or not items:
        raise NotOurs("'records' is not a list of records")
    found: list[Arrival | NotOurs] = []
    for n, item in enumerate(items):
        try:
            if not isinstance(item, dict):
                raise NotOurs("not a JSON object")
            found.append(_arrival(item, text))
        except NotOurs as error:
            found.append(NotOurs(f"records[{n}]: {error}"))
    return found


def _arrival(message: Mapping[str, Any], text: Callable[[Any], str]) -> Arrival:
    record = record_from_message(message, text)
    try:
        return Arrival(record, record.hash == record.expected_hash(), message["payload"])
    except UnicodeEncodeError:  # a lone surrogate (the journal cannot hold one)
        raise NotOurs("a text in it is not valid Unicode (a lone surrogate)") from None


def record_from_message(message: Mapping[str, Any], text: Callable[[Any], str] = canonical_json) -> Record:
    """A record as the feed sends it (`tablectl journal export`'s form) -> Record, its payload
    as canonical JSON text; NotOurs naming the field that is missing or of the wrong type."""
    get: Callable[[str], Any] = message.get
    seq, at, mono_ns, kind, round_no = get("seq"), get("at"), get("mono_ns"), get("kind"), get("round")
    payload, prev_hash, record_hash = get("payload"), get("prev_hash"), get("hash")
    if not (type(seq) is int and type(at) is str and type(mono_ns) is int and type(kind) is str and type(payload) is dict
            and type(prev_hash) is str and type(record_hash) is str):  # the usual case in one test; below, which field
        for name, expected in FIELDS.items():
            if type(get(name)) is not expected:
                raise NotOurs(f"field {name!r} is missing or not {expected.__name__}")
    if round_no is not None and type(round_no) is not int:
        raise NotOurs("field 'round' is not an integer or null")
    if not 1 <= seq <= INT64_MAX:
        raise NotOurs("field 'seq' is not a positive 64-bit integer")
    for name, value in (("mono_ns", mono_ns), ("round", round_no)):
        if value is not None and not INT64_MIN <= value <= INT64_MAX:
            raise NotOurs(f"field {name!r} is not a 64-bit integer")  # SQLite's integers, the journal's too
    try:
        payload_text = text(payload)
    except ValueError as error:  # NaN or infinity (the journal writes neither)
        raise NotOurs(f"field 'payload' cannot be canonical JSON ({error})") from None
    return Record(seq, at, mono_ns, kind, round_no, payload_text, prev_hash, record_hash)


def _fast_text(payload: Any) -> str:
    try:
        return orjson.dumps(payload, option=orjson.OPT_SORT_KEYS).decode("utf-8")
    except (orjson.JSONEncodeError, UnicodeDecodeError):
        return canonical_json(payload)

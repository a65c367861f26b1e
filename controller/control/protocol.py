"""The control socket's wire: JSON lines, requests, replies, and the command vocabulary.

A request is one JSON object on one line: {"id": 1, "cmd": "no_more_bets", ...fields}.
It gets exactly one reply: {"id": 1, "ok": true, ...} or {"id": 1, "ok": false, "error": "..."}.
{"cmd": "subscribe"} turns the connection into an event stream: after its reply, every event
the daemon publishes arrives as one JSON object a line. Commands are the dealer panel's.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.json_text import compact_encoder
from controller.table.inputs import COMMANDS as TABLE_COMMANDS
from controller.table.inputs import CommandSpec as CommandSpec  # re-exported: the socket checks requests against it

MAX_LINE = 65536  # bytes in one request line; longer is refused and the connection closed
# json.loads recurses once per nesting level: a line of 50,000 "[" raises RecursionError,
# which is not a ValueError. A request is one object of flat fields, so say so.
TOO_DEEP = "bad JSON: nested too deeply (a request is one object of plain fields)"


class ControlError(Exception):
    """The control socket cannot be used: not there, refused, no reply, a bad line."""


class BadRequest(ValueError):
    """A request line the server answers with an error (and keeps serving)."""


# field type name -> (check, what is expected)
FIELD_TYPES = {
    "int": (lambda v: type(v) is int, "an integer"),
    "str": (lambda v: isinstance(v, str) and v != "", "a non-empty string"),
    "list[int]": (lambda v: isinstance(v, list) and all(type(x) is int for x in v), "a list of integers"),
    "list[str]": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of strings"),
}


# The table's commands (controller.table.inputs.COMMANDS, their one list), `subscribe`, and the
# daemon's own (DAEMON_COMMANDS).
COMMANDS: dict[str, CommandSpec] = {
    "status": TABLE_COMMANDS["status"],
    "subscribe": CommandSpec("turn this connection into the event stream"),
    **{name: spec for name, spec in TABLE_COMMANDS.items() if name != "status"},
    "new_chain": CommandSpec("supervisor, only when the journal failed its start-up check (the key must be on): archive "
                             "it and start a new chain naming its head", {"reason": "str"}),
}
# The daemon's own commands, beside the table's (docs/journal.md, "Recovery: a new chain").
DAEMON_COMMANDS = frozenset({"new_chain"})


@dataclass(frozen=True)
class ParsedRequest:
    id: Any  # the client's id, echoed in the reply (int, str or None)
    cmd: str
    args: dict


_compact = compact_encoder(sort_keys=False, allow_nan=True)  # built once: every event and reply goes through it


def encode(obj: Mapping[str, Any]) -> bytes:
    return _compact(obj).encode("utf-8") + b"\n"


def request_id(line: bytes) -> Any:
    """The id of a request, if it can be read at all (for the error reply to a bad one)."""
    try:
        obj = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError too
        return None
    rid = obj.get("id") if isinstance(obj, dict) else None
    return rid if _good_id(rid) else None


def _good_id(rid) -> bool:
    return rid is None or isinstance(rid, str) or type(rid) is int


def parse_request(line: bytes, commands: Mapping[str, CommandSpec] = COMMANDS) -> ParsedRequest:
    """Raises BadRequest saying exactly what is wrong with the line."""
    try:
        text = line.decode("utf-8")  # json.loads(bytes) would guess UTF-16/32 from a BOM
    except UnicodeDecodeError as error:
        raise BadRequest(f"not UTF-8: {error}") from None
    try:
        obj = json.loads(text)
    except ValueError as error:
        raise BadRequest(f"bad JSON: {error}") from None
    except RecursionError:
        raise BadRequest(TOO_DEEP) from None
    if not isinstance(obj, dict):
        raise BadRequest(f"a request must be a JSON object, got {type(obj).__name__}")
    rid = obj.pop("id", None)
    if not _good_id(rid):
        raise BadRequest(f"'id' must be an integer or a string, got {rid!r}")
    if "cmd" not in obj:
        raise BadRequest("missing field 'cmd'")
    cmd = obj.pop("cmd")
    if not isinstance(cmd, str) or cmd not in commands:
        raise BadRequest(f"unknown command {cmd!r} (one of {', '.join(commands)})")
    check_fields(cmd, obj, commands[cmd])
    return ParsedRequest(rid, cmd, obj)


def check_fields(cmd: str, args: Mapping[str, Any], spec: CommandSpec) -> None:
    known = spec.fields()
    for name in args:
        if name not in known:
            allowed = ", ".join(known) if known else "none"
            raise BadRequest(f"{cmd}: unknown field {name!r} (fields: {allowed})")
    for name, type_name in spec.required.items():
        if name not in args:
            raise BadRequest(f"{cmd}: missing field {name!r} ({FIELD_TYPES[type_name][1]})")
    for name, value in args.items():
        ok, expected = FIELD_TYPES[known[name]]
        if not ok(value):
            raise BadRequest(f"{cmd}: field {name!r} must be {expected}, got {value!r}")

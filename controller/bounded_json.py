"""JSON from outside the process, read only within bounds: its size and its nesting depth are
checked before it is parsed.

    value = loads(raw, max_bytes=MESSAGE_BYTES, max_depth=MAX_DEPTH)   # TooLarge, TooDeep, NotJSON

`json.loads` (and any recursive parser) recurses once per level of nesting: a line of 50,000
"[" raises RecursionError, which is not a ValueError, and kills whatever thread read it. A
huge text costs several times its size once parsed. So every consumer of outside input (MQTT
payloads, the control socket's event lines, HTTP headers) reads through here, and gets one
kind of error, a ValueError naming the bound, to log and drop.

The depth is found without parsing, in byte operations that run at C speed (a 100 KB
message in well under a millisecond): the brackets outside strings are kept, then reduced one
level a pass (every innermost `[]` removed at once), at most `max_depth` passes.
"""
from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32  # levels of nesting: journal records, events and requests use fewer than ten

_OPENERS_TO_SQUARE = bytes.maketrans(b"{}", b"[]")
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')


class BoundedJSONError(ValueError):
    """Outside input refused before or while it was parsed; the message says why."""


class TooLarge(BoundedJSONError):
    pass


class TooDeep(BoundedJSONError):
    pass


class NotJSON(BoundedJSONError):
    pass


def as_bytes(raw: bytes | bytearray | memoryview | str) -> bytes:
    return raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else bytes(raw)


def check(raw: bytes | bytearray | memoryview | str, *, max_bytes: int, max_depth: int = MAX_DEPTH) -> bytes:
    """The input as bytes once it is no longer than `max_bytes` and nested no deeper than
    `max_depth` (brackets that do not pair up are NotJSON); the error names the bound."""
    if len(raw) > max_bytes:  # a str's length is at most its UTF-8 length: refused before encoding it
        raise TooLarge(f"{len(raw)} bytes or more, more than the {max_bytes} allowed")
    data = as_bytes(raw)
    if len(data) > max_bytes:
        raise TooLarge(f"{len(data)} bytes, more than the {max_bytes} allowed")
    if data.count(b"[") + data.count(b"{") <= max_depth:
        return data  # not even that many brackets: no deeper
    brackets = _brackets_outside_strings(data)
    for _ in range(max_depth):
        inner = brackets.replace(b"[]", b"")  # the innermost level, everywhere at once
        if not inner:
            return data
        if inner == brackets:
            raise NotJSON("not JSON: its brackets do not pair up")
        brackets = inner
    raise TooDeep(f"nested deeper than the {max_depth} levels allowed")


def _brackets_outside_strings(data: bytes) -> bytes:
    """The brackets of the text that are not inside a string, `{}` written `[]`. Escaped
    backslashes and quotes go first (valid JSON has a backslash only inside a string); of the
    quotes and brackets left, two quotes side by side are a string without brackets (removing
    them keeps every other quote's parity), and what is left between quotes is a string's."""
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    short = data.translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in short:
        short = b"".join(short.split(b'"')[::2])
    return short.translate(_OPENERS_TO_SQUARE)


def loads(raw: bytes | bytearray | memoryview | str, *, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads` after `check`: the value, or a BoundedJSONError (TooLarge, TooDeep, NotJSON)."""
    data = check(raw, max_bytes=max_bytes, max_depth=max_depth)
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as error:  # RecursionError: not after check; kept as a last guard
        raise NotJSON(f"not JSON ({error})") from None

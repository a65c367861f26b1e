"""JSON from outside the process, read only within bounds: its size and its nesting depth are
checked before it is parsed.

    value = loads(raw, max_bytes=MESSAGE_BYTES, max_depth=MAX_DEPTH)   # TooLarge, TooDeep, NotJSON

`json.loads` (and any recursive parser) recurses once per level of nesting: a line of 50,000
"[" raises RecursionError, which is not a ValueError, and kills whatever thread read it. A
huge text costs several times its size once parsed. So every consumer of JSON from outside
(the pit's and the feed's MQTT payloads, the daemon's event lines as the floor's processes
read them, journal payloads read back) reads through here, and gets one kind of error, a
ValueError naming the bound, to log and drop.

The depth is found without parsing, mostly in byte operations that run at C speed: the
brackets outside strings are kept, and how deep they nest is measured (`_deepest`).
bench/bench_bounded_json.py measures it against parsing (docs/floor.md).
"""
from __future__ import annotations

import itertools
import json
from typing import Any

MAX_DEPTH = 32  # levels of nesting: journal records, events and requests use fewer than ten

PASSES_UP_TO = 64 * 1024  # brackets reduced a level a pass up to this many, summed beyond
_OPENERS_TO_SQUARE = bytes.maketrans(b"{}", b"[]")
_STEPS = bytes.maketrans(b"[]", b"\x01\xff")  # as signed bytes: +1, -1
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
    structure = _structure(data)
    if structure.count(b"[") + structure.count(b"{") <= max_depth:
        return data  # not even that many brackets: no deeper
    brackets = _outside_strings(structure).translate(_OPENERS_TO_SQUARE)
    if b"[" * (max_depth + 1) in brackets or _deepest(brackets, max_depth) > max_depth:
        raise TooDeep(f"nested deeper than the {max_depth} levels allowed")
    return data


def _structure(data: bytes) -> bytes:
    """The text's quotes and brackets only. Escaped backslashes and quotes go first (valid JSON
    has a backslash only inside a string)."""
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    return data.translate(None, _NOT_STRUCTURE)


def _outside_strings(structure: bytes) -> bytes:
    """The brackets outside strings: two quotes side by side are a string without brackets
    (removing them keeps every other quote's parity); what is left between quotes is a string's."""
    short = structure.replace(b'""', b"")
    if b'"' in short:
        short = b"".join(short.split(b'"')[::2])
    return short


def _deepest(brackets: bytes, max_depth: int) -> int:
    """How deep the brackets nest (max_depth + 1: deeper than that). A short text is reduced a
    level a pass (every innermost `[]` removed at once); a long one, whose passes would each
    copy it, is summed once (+1 an opener, -1 a closer) and its highest sum taken. Brackets
    that do not pair up are NotJSON, or, in a long text, left for json.loads to refuse: it stops
    at the first stray closer, never deeper than the sum before it."""
    if len(brackets) > PASSES_UP_TO:
        return max(itertools.accumulate(memoryview(brackets.translate(_STEPS)).cast("b")), default=0)
    for depth in range(max_depth + 1):
        if not brackets:
            return depth
        inner = brackets.replace(b"[]", b"")  # the innermost level, everywhere at once
        if inner == brackets:
            raise NotJSON("not JSON: its brackets do not pair up")
        brackets = inner
    return max_depth + 1  # as many passes and more to go, or none: deeper than max_depth either way


def loads(raw: bytes | bytearray | memoryview | str, *, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads` after `check`: the value, or a BoundedJSONError (TooLarge, TooDeep, NotJSON)."""
    data = check(raw, max_bytes=max_bytes, max_depth=max_depth)
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as error:  # RecursionError: not after check; kept as a last guard
        raise NotJSON(f"not JSON ({error})") from None


class LineTooLong(TooLarge):
    """A buffer past its bound without a whole line in it."""


class NotAnObject(NotJSON):
    """A line of JSON that is not an object (every line of ours is one)."""


def take_object_line(buffer: bytearray, *, max_bytes: int, max_depth: int = MAX_DEPTH) -> dict[str, Any] | None:
    """The first whole line of `buffer`, taken out of it, as a JSON object read within bounds;
    None while no line is whole yet. LineTooLong once `buffer` holds more than `max_bytes`
    without a line end (read no further); TooLarge, TooDeep or NotJSON for the line itself
    (NotAnObject when it is JSON but not an object). Line readers of outside sockets share it."""
    end = buffer.find(b"\n")
    if end < 0:
        if len(buffer) > max_bytes:
            raise LineTooLong(f"a line longer than {max_bytes} bytes")
        return None
    line = bytes(buffer[:end])
    del buffer[:end + 1]
    value = loads(line, max_bytes=max_bytes, max_depth=max_depth)
    if not isinstance(value, dict):
        raise NotAnObject(f"not a JSON object: {line[:80]!r}")
    return value

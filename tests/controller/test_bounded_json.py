"""controller.bounded_json: outside input is refused by its size and nesting depth before it is
parsed (a deep one would raise RecursionError inside json.loads), with an error naming the
bound; what is within bounds reads exactly as json.loads reads it."""
from __future__ import annotations

import json
import random
import sys

import pytest

from controller.bounded_json import MAX_DEPTH, BoundedJSONError, NotJSON, TooDeep, TooLarge, check, loads


def nested(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


@pytest.mark.parametrize("text", [
    "[" * 50_000 + "]" * 50_000,
    '{"a":' * 5_000 + "1" + "}" * 5_000,
    '[{"a":[' * 20 + "1" + "]}]" * 20,
    '{"records":[' + json.dumps({"payload": json.loads(nested(40))}) + "]}",
])
def test_deep_nesting_is_refused_before_it_is_parsed(text):
    with pytest.raises(TooDeep, match=f"nested deeper than the {MAX_DEPTH} levels allowed"):
        loads(text.encode(), max_bytes=1 << 20)


def test_unbalanced_brackets_are_refused_too_without_recursing():
    for text in ("[" * 100_000, "{" * 100_000 + "}", "[" * 40 + "]", "]" * 40 + "[" * 40, "[]" * 40_000 + "[" * 100):
        with pytest.raises(BoundedJSONError):
            loads(text, max_bytes=1 << 20)
    with pytest.raises(NotJSON, match="brackets do not pair up"):
        loads("[" * 30 + "]" * 31 + "[]" * 10, max_bytes=1 << 20)


def test_long_texts_are_measured_by_their_sums_and_say_the_same():
    wide = "[" + ",".join(["[[1]]"] * 40_000) + "]"  # more brackets than a pass-by-pass reduction takes
    assert loads(wide, max_bytes=1 << 20) == json.loads(wide)
    with pytest.raises(TooDeep):
        loads("[" + ",".join(["[[1]]"] * 40_000 + [nested(MAX_DEPTH)]) + "]", max_bytes=1 << 20)
    blocks = ",".join([nested(MAX_DEPTH - 1)] * 4_000)  # each block as deep as allowed, and many
    assert loads(f"[{blocks}]", max_bytes=1 << 20) == json.loads(f"[{blocks}]")


def test_exactly_the_allowed_depth_reads_and_one_more_does_not():
    assert loads(nested(MAX_DEPTH), max_bytes=1000) == json.loads(nested(MAX_DEPTH))
    with pytest.raises(TooDeep):
        loads(nested(MAX_DEPTH + 1), max_bytes=1000)
    assert loads(nested(3), max_bytes=100, max_depth=3) == [[[]]]
    with pytest.raises(TooDeep):
        loads(nested(4, "{\"a\":", "}").replace("{\"a\":}", "{}"), max_bytes=100, max_depth=3)


def test_brackets_inside_strings_are_text_not_nesting():
    deep_text = json.dumps(["[" * 500, "{" * 500, "]" * 70, '\\"[', "\\", "\"", "\\\\[[[", "\n[["])
    assert loads(deep_text, max_bytes=10_000) == json.loads(deep_text)
    hidden = json.dumps(["]]]]" + "\\"]) + "".join("[" for _ in range(MAX_DEPTH + 1))
    with pytest.raises(BoundedJSONError):
        loads(hidden, max_bytes=10_000)
    escaped_quote_then_deep = '["a\\"]' + "[" * 40 + "]" * 40 + '"]'  # the brackets are inside the string
    assert loads(escaped_quote_then_deep, max_bytes=10_000) == json.loads(escaped_quote_then_deep)


def test_the_depth_found_matches_the_parsed_depth_on_random_documents():
    rng = random.Random(20261126)

    def value(level: int):
        choice = rng.random()
        if level > 45 or choice < 0.3:
            return rng.choice([1, "x[", "]", '"{', "\\", None, 2.5, "\\\"]", "é}"])
        if choice < 0.65:
            return [value(level + 1) for _ in range(rng.randint(0, 3))]
        return {rng.choice(["k", "[", "}"]) + str(n): value(level + 1) for n in range(rng.randint(0, 3))}

    def depth(v) -> int:
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        return 0

    for _ in range(400):
        doc = value(0)
        text = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
        if depth(doc) <= MAX_DEPTH:
            assert loads(text, max_bytes=1 << 20) == doc
        else:
            with pytest.raises(TooDeep):
                check(text, max_bytes=1 << 20)


def test_size_is_checked_first_in_bytes():
    with pytest.raises(TooLarge, match="more than the 10 allowed"):
        loads(b"[" + b"1," * 10 + b"1]", max_bytes=10)
    with pytest.raises(TooLarge):
        loads('"éééééé"', max_bytes=10)  # 8 characters, 14 bytes
    with pytest.raises(TooLarge):
        check("x" * 10_000_000, max_bytes=100)


def test_what_is_not_json_is_a_value_error_naming_it():
    for raw in (b"\xff", b"{", b"[1,]", b"nan"):
        with pytest.raises(NotJSON, match="not JSON"):
            loads(raw, max_bytes=100)
    assert issubclass(BoundedJSONError, ValueError)


def test_a_refused_text_never_reaches_the_recursion_limit():
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(120)  # a thread deep in its own calls: a parser that recursed would fail here
    try:
        with pytest.raises(TooDeep):
            loads(nested(10_000), max_bytes=1 << 20)
    finally:
        sys.setrecursionlimit(limit)


def test_take_object_line_takes_whole_lines_one_at_a_time_within_bounds():
    from controller.bounded_json import LineTooLong, NotAnObject, take_object_line

    buffer = bytearray(b'{"a": 1}\n{"b": [2]}\n{"c"')
    assert take_object_line(buffer, max_bytes=64) == {"a": 1}
    assert take_object_line(buffer, max_bytes=64) == {"b": [2]}
    assert take_object_line(buffer, max_bytes=64) is None and buffer == bytearray(b'{"c"')  # not whole yet
    with pytest.raises(LineTooLong, match="a line longer than 8 bytes"):
        take_object_line(bytearray(b"x" * 9), max_bytes=8)  # no line end within the bound: read no further
    with pytest.raises(NotAnObject, match="not a JSON object"):
        take_object_line(bytearray(b"[1]\n"), max_bytes=64)
    with pytest.raises(TooDeep):
        take_object_line(bytearray(b'{"a":' * 40 + b"\n"), max_bytes=1024)

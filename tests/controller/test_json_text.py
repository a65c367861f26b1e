"""The journal's canonical JSON and the control socket's lines keep one C encoder instead of
building one per call (controller/json_text.py; json.dumps builds one each time); their text
must stay exactly json.dumps' with the same options (every record's hash covers it, other
programs read the lines), and what is not JSON must still be refused (TypeError /
ValueError, never a wrong text)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.control.protocol import encode
from controller.journal.records import canonical_json

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)))  # UTF-8 encodable
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                    st.floats(allow_nan=False, allow_infinity=False), texts)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(texts, inner, max_size=5)), max_leaves=30)


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


@given(values)
def test_the_text_is_exactly_what_json_dumps_writes(value):
    assert canonical_json(value) == dumps(value)


@given(st.dictionaries(texts, st.one_of(values, st.floats())))
def test_a_control_line_is_exactly_what_json_dumps_writes(event):
    assert encode(event) == json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def test_tuples_and_str_enums_are_written_as_json_dumps_writes_them():
    from controller.journal import RecordKind
    value = {"kind": RecordKind.CARD, "pair": (1, 2), "nested": {"z": [], "a": {}}}
    assert canonical_json(value) == dumps(value) == '{"kind":"card","nested":{"a":{},"z":[]},"pair":[1,2]}'


@pytest.mark.parametrize("bad, error", [({"x": float("nan")}, ValueError), ({"x": float("inf")}, ValueError),
                                        ({"x": {1, 2}}, TypeError), ({"x": object()}, TypeError),
                                        ({1: "a", "b": 2}, TypeError)])
def test_what_is_not_json_is_refused(bad, error):
    with pytest.raises(error):
        canonical_json(bad)


def test_a_circular_payload_is_refused_as_not_json():
    payload: dict = {"round": 1}
    payload["self"] = payload
    with pytest.raises(ValueError, match="circular"):
        canonical_json(payload)
    with pytest.raises(ValueError, match="circular"):
        encode(payload)
    with pytest.raises(TypeError):
        encode({"x": {1, 2}})

"""record_hash builds the chained array's text directly on the hot path; it must be exactly
the canonical JSON of the array (docs/journal.md: anyone recomputes it with any JSON
library), for every string (quotes, backslashes, control characters, non-ASCII) and for the
odd types a damaged row can carry when it is verified."""
from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from controller.journal.records import _chained_text, canonical_json, record_hash

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)))  # UTF-8 encodable
rounds = st.one_of(st.none(), st.integers(min_value=1, max_value=2**40))


@given(prev=texts, seq=st.integers(min_value=0, max_value=2**62), at=texts, mono=st.integers(min_value=0, max_value=2**63),
       kind=texts, round_no=rounds, payload=st.dictionaries(texts, st.one_of(texts, st.integers(), st.none(), st.booleans())))
def test_the_text_is_the_canonical_json_of_the_array(prev, seq, at, mono, kind, round_no, payload):
    payload_text = canonical_json(payload)
    fields = [prev, seq, at, mono, kind, round_no, payload_text]
    assert _chained_text(*fields) == canonical_json(fields)
    assert record_hash(*fields) == hashlib.sha256(canonical_json(fields).encode("utf-8")).hexdigest()


@given(odd=st.one_of(st.booleans(), st.floats(allow_nan=False, allow_infinity=False), texts, st.none()))
def test_fields_of_other_types_are_hashed_as_json_writes_them(odd):
    """A row whose seq, mono_ns or round is not an int (a tampered file) still hashes as its
    canonical JSON, so `journal verify` reports it exactly as before."""
    for at_index in (1, 3, 5):
        fields = ["0" * 64, 7, "2026-01-01T00:00:00.000000Z", 123, "card", 3, "{}"]
        fields[at_index] = odd
        assert _chained_text(*fields) == canonical_json(fields)


def test_a_known_record_keeps_its_hash():
    """Pinned: the hash json.dumps gave for this record before the text was built directly."""
    fields = ["0" * 64, 1, "2026-01-01T00:00:00.000000Z", 5, "card", None, '{"card":"K\u2665","n":"a\\"b"}']
    assert fields[-1] == '{"card":"K♥","n":"a\\"b"}'
    assert record_hash(*fields) == "ce4566aa7d7e8e71e8a1f12f7b2c12e353f8be077766bcd845e1077c1edf4e07"

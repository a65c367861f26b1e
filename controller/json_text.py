"""Compact JSON text from an encoder built once.

json.dumps with any option builds a new encoder on every call, about a third of the cost of
encoding a small object; the daemon writes JSON for every journal record and every event.
`compact_encoder` keeps the C encoder json.dumps would build and writes exactly what
json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=..., allow_nan=...)
writes. It does not look for circular references (json.dumps keeps a dict of the objects it
is inside for that): a cycle ends in RecursionError, raised as ValueError as json.dumps would.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def compact_encoder(*, sort_keys: bool, allow_nan: bool) -> Callable[[Any], str]:
    """value -> its JSON text; TypeError or ValueError for what is not JSON."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # an interpreter without the C accelerator
        return functools.partial(json.dumps, separators=(",", ":"), ensure_ascii=False, sort_keys=sort_keys,
                                 allow_nan=allow_nan)
    encode = make(None, _not_json, json.encoder.encode_basestring, None, ":", ",", sort_keys, False, allow_nan)

    def dumps(value: Any) -> str:
        try:
            return "".join(encode(value, 0))
        except RecursionError:
            raise ValueError("circular reference, or nested too deeply for JSON") from None
    return dumps

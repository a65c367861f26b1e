"""A driver event as the `device` journal record: {"device": "shoe", "event": "CardDrawn",
...its fields} in plain JSON. The journal keeps it as it is: other programs read it."""
from __future__ import annotations

import dataclasses
import enum
from typing import Any

from drivers import bet_events as bev
from drivers import events as ev
from firmware_bridge.messages import Hello

_PLAIN_TYPES = frozenset({int, bool, str, float, type(None)})
# Fields already plain JSON: a bet sensor's chips ((uid, tag), ...) are tuples of str and int,
# which JSON writes as it writes lists (the same bytes), so they are taken as they are: a SPACE
# list of 20 chips would be 21 lists built for nothing.
_JSON_READY: dict[type, frozenset[str]] = {bev.SpaceChips: frozenset({"chips"})}
_RECORDED_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def plain(value: Any) -> Any:
    """A field's value as plain JSON (a HELLO as its fields, an enum as its value)."""
    if isinstance(value, Hello):
        return {"kind": value.kind.name.lower(), "boot_id": value.boot_id, "serial": value.serial,
                "firmware": list(value.firmware), "protocol": list(value.protocol)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [v if type(v) in _PLAIN_TYPES else plain(v) for v in value]
    return value


def _recorded_fields(event_type: type) -> tuple[tuple[str, bool], ...]:
    """The fields of an event type that its record carries, each with whether it is plain JSON
    as it is (looked up once per type: every card is an event)."""
    names = _RECORDED_FIELDS.get(event_type)
    if names is None:
        ready = _JSON_READY.get(event_type, frozenset())
        names = _RECORDED_FIELDS[event_type] = tuple(
            (f.name, f.name in ready) for f in dataclasses.fields(event_type) if f.name not in ("device", "at"))
    return names


def device_record(event: ev.DeviceEvent) -> dict[str, Any]:
    record = {"device": event.device, "event": type(event).__name__}
    for name, ready in _recorded_fields(type(event)):
        value = getattr(event, name)
        record[name] = value if ready or type(value) in _PLAIN_TYPES else plain(value)
    return record

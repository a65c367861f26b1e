"""Driver events -> the daemon's `device` record and the table inputs (docs/table.md, "From
driver events to table inputs"), plus the one thing the mapping has to remember.

The shoe's link: when a session comes up (first connect, link restored, reboot) the driver
asks for a status, and the first status's draw counter is the proof the table needs (local
ruling L4). So DeviceConnected / LinkRestored / DeviceRebooted only mark a session as
pending; its first ShoeStatusChanged becomes ShoeLinkRestored(counter) (ShoeRebooted(counter)
after a reboot), and a later status hands the table its counter as ShoeCounter(counter).
What the counter proves is the table's to judge (controller/table/draw_counter.py).

Which status fields changed is the driver's to say (`changed`, across reconnects, so a
reconnect does not read as "door closed" and "a shoe is in"). Only the very first status
after start-up names every field: of those, the ones that differ from what the table already
knows (restored from its journal) become inputs.
"""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.journal import RecordKind
from controller.table import UnknownButton, command_for_button
from controller.table import inputs as i
from drivers import events as ev
from firmware_bridge.messages import Hello


@dataclass
class Translation:
    record: dict  # the `device` journal record (`tamper` for a frame that failed authentication)
    inputs: list = field(default_factory=list)  # table inputs, in order
    problem: str | None = None  # the event cannot become an input (an unknown button): an `error` record
    kind: str = RecordKind.DEVICE
    button: int | None = None  # the panel's button: the answer to its command is published


def _plain(value):
    if isinstance(value, Hello):
        return {"kind": value.kind.name.lower(), "boot_id": value.boot_id, "serial": value.serial,
                "firmware": list(value.firmware), "protocol": list(value.protocol)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


_PLAIN_TYPES = frozenset({int, bool, str, float, type(None)})


_RECORDED_FIELDS: dict[type, tuple[str, ...]] = {}


def _recorded_fields(event_type: type) -> tuple[str, ...]:
    """The fields of an event type that its record carries (looked up once per type: every
    card is an event)."""
    names = _RECORDED_FIELDS.get(event_type)
    if names is None:
        names = _RECORDED_FIELDS[event_type] = tuple(
            f.name for f in dataclasses.fields(event_type) if f.name not in ("device", "at"))
    return names


def device_record(event: ev.DeviceEvent) -> dict:
    """The event as plain JSON: {"device": "shoe", "event": "CardDrawn", ...its fields}."""
    record = {"device": event.device, "event": type(event).__name__}
    for name in _recorded_fields(type(event)):
        value = getattr(event, name)
        record[name] = value if type(value) in _PLAIN_TYPES else _plain(value)
    return record


class Translator:
    """Stateful: one per daemon, used from the loop thread only."""

    def __init__(self, game_key: str, table) -> None:
        self.game_key = game_key
        self.table = table  # read for the start-up baseline (door, key, cut card)
        self.pending_session: str | None = None  # "connected" / "restored" / "rebooted"
        self.first_status = True  # none heard since start-up
        self.last_draw_counter: int | None = None  # the shoe's counter on the last card translated
        # (device, event type) -> its handler; an event without one is journaled only
        self.handlers: dict[tuple[str, type], Callable[[Any, Translation], None]] = {
            ("shoe", ev.CardDrawn): self._card_drawn,
            ("shoe", ev.DeviceConnected): self._connected,
            ("shoe", ev.LinkRestored): self._restored,
            ("shoe", ev.DeviceRebooted): self._rebooted,
            ("shoe", ev.LinkLost): self._link_lost,
            ("shoe", ev.FrameTampered): self._tampered,
            ("panel", ev.FrameTampered): self._tampered,
            ("lights", ev.FrameTampered): self._tampered,
            ("shoe", ev.ShoeStatusChanged): self._shoe_status,
            ("panel", ev.ButtonPressed): self._button_pressed,
            ("panel", ev.KeyTurned): self._key_turned,
            ("panel", ev.PanelState): self._panel_state,
        }

    def translate(self, event: ev.DeviceEvent) -> Translation:
        out = Translation(device_record(event))
        handler = self.handlers.get((event.device, type(event)))
        if handler is not None:
            handler(event, out)
        return out

    # ------------------------------------------------------------ shoe
    def _card_drawn(self, e: ev.CardDrawn, out: Translation) -> None:
        self.last_draw_counter = e.draw_counter
        out.inputs.append(i.Card(e.code, e.draw_counter, e.double_draw, e.misread))

    # a session comes up: its first status carries the proof (module docstring)
    def _connected(self, e: ev.DeviceConnected, out: Translation) -> None:
        self.pending_session = "connected"

    def _restored(self, e: ev.LinkRestored, out: Translation) -> None:
        self.pending_session = "restored"

    def _rebooted(self, e: ev.DeviceRebooted, out: Translation) -> None:
        self.pending_session = "rebooted"

    def _link_lost(self, e: ev.LinkLost, out: Translation) -> None:
        self.pending_session = None
        out.inputs.append(i.ShoeLinkLost(e.reason))

    def _tampered(self, e: ev.FrameTampered, out: Translation) -> None:
        """Local ruling L8: two frames for one SEQ, one of them a card: the card dealt may be forged."""
        out.kind = RecordKind.TAMPER  # never delivered, on record
        if e.device == "shoe" and e.disputed is not None and "CARD" in (e.disputed["taken"]["type"], e.disputed["repeat"]["type"]):
            out.inputs.append(i.CardDisputed(e.detail, e.disputed))

    def _shoe_status(self, e: ev.ShoeStatusChanged, out: Translation) -> None:
        if self.pending_session is not None:
            restore = i.ShoeRebooted if self.pending_session == "rebooted" else i.ShoeLinkRestored
            out.inputs.append(restore(draw_counter=e.draw_counter))
            self.pending_session = None
        else:
            out.inputs.append(i.ShoeCounter(e.draw_counter))
        changed = e.changed
        if self.first_status:
            self.first_status = False
            known = {"present": True, "door_open": self.table.door_open,
                     "cut_card": self.table.shoe.cut_card_seen, "empty": False}
            changed = tuple(name for name in changed if getattr(e, name) != known[name])
        for name in changed:
            if name == "door_open":
                out.inputs.append(i.ShoeDoor(e.door_open))
            elif name == "present":
                out.inputs.append(i.ShoePresence(e.present))
            elif name == "cut_card" and e.cut_card:
                out.inputs.append(i.CutCard())
            elif name == "empty" and e.empty:
                out.inputs.append(i.ShoeEmpty())

    # ------------------------------------------------------------ panel
    def _button_pressed(self, e: ev.ButtonPressed, out: Translation) -> None:
        out.button = e.button
        out.record["by"] = {"source": "panel", "button": e.button}  # who gave a command: the panel, by its button
        try:
            command = command_for_button(self.game_key, e.button)
        except UnknownButton as error:
            out.problem = str(error)
            return
        out.record["command"] = command.name
        out.inputs.append(command)

    def _key_turned(self, e: ev.KeyTurned, out: Translation) -> None:
        out.record["by"] = {"source": "panel", "key": "on" if e.on else "off"}
        out.inputs.append(i.SupervisorKey(e.on))

    def _panel_state(self, e: ev.PanelState, out: Translation) -> None:
        if e.key_on != self.table.key_on:  # turned while the panel was not heard
            out.inputs.append(i.SupervisorKey(e.key_on))

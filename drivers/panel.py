"""The dealer's button panel: buttons and the supervisor key as typed events.

Exactly-once holds within a link session; across a reconnect the panel may resend a
message whose ack was lost (PROTOCOL.md §4). Buttons and the key are levels, so the driver
keeps their state and drops a repeat that changes nothing (a second "pressed" without a
release in between): the controller never sees one press twice.
"""
from __future__ import annotations

from typing import Unpack

from drivers import events as ev
from drivers.device import DeviceDriver, DriverOptions, Post
from drivers.transport import Transport
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import Button, Key, Message, PanelStatus


class PanelDriver(DeviceDriver):
    KIND = DeviceKind.PANEL

    def __init__(self, url: str | Transport, post: Post, *, name: str = "panel", **options: Unpack[DriverOptions]) -> None:
        super().__init__(url, post, name=name, **options)
        self.pressed: set[int] = set()
        self.key_on: bool | None = None  # unknown until the panel reports it

    def _on_message(self, msg: Message, now: float) -> None:
        if isinstance(msg, Button):
            if msg.pressed == (msg.button in self.pressed):
                return  # a resend from before a reconnect: nothing changed
            (self.pressed.add if msg.pressed else self.pressed.discard)(msg.button)
            self._emit(ev.ButtonPressed if msg.pressed else ev.ButtonReleased, button=msg.button)
        elif isinstance(msg, Key):
            if msg.on == self.key_on:
                return
            self.key_on = msg.on
            self._emit(ev.KeyTurned, on=msg.on)
        elif isinstance(msg, PanelStatus):
            self.pressed, self.key_on = set(msg.pressed), msg.key_on
            self._emit(ev.PanelState, key_on=msg.key_on, pressed=tuple(msg.pressed))
        else:
            self._emit(ev.DeviceError, code=None, detail=f"unexpected {type(msg).__name__} from a panel")

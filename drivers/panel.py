"""The dealer's button panel: buttons and the supervisor key as typed events."""
from __future__ import annotations

from drivers import events as ev
from drivers.device import DeviceDriver
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import Button, Key, Message, PanelStatus


class PanelDriver(DeviceDriver):
    KIND = DeviceKind.PANEL

    def __init__(self, url, post, *, name: str = "panel", **options) -> None:
        super().__init__(url, post, name=name, **options)

    def _on_message(self, msg: Message, now: float) -> None:
        if isinstance(msg, Button):
            self._emit(ev.ButtonPressed if msg.pressed else ev.ButtonReleased, button=msg.button)
        elif isinstance(msg, Key):
            self._emit(ev.KeyTurned, on=msg.on)
        elif isinstance(msg, PanelStatus):
            self._emit(ev.PanelState, key_on=msg.key_on, pressed=tuple(msg.pressed))
        else:
            self._emit(ev.DeviceError, code=None, detail=f"unexpected {type(msg).__name__} from a panel")

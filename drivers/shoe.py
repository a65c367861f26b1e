"""The shoe driver: cards and shoe state as typed events.

The link delivers each CARD once per session. Across a host reconnect the shoe resends a
card whose ack was lost with the link (PROTOCOL.md §4); the driver drops such a card when it
repeats, byte for byte, one already delivered in this boot of the shoe (DrawRepeated,
journaled only). Everything else goes on with its draw counter: what the counter proves
(a gap, a count that went back, the proof after a reconnect: local ruling L4) is the
table's alone (controller/table/draw_counter.py).

Shoe status: the driver reports each status whole (ShoeStatusHeard); which fields changed
since the last one, and which status carries a session's proof, is the session owner's to say
(controller/daemon/sessions.py). A status resent from before a reconnect (its ack was lost
with the link) is older than what was already heard from the same boot, so it is dropped: a
stale counter must not look like a gap or a lost count.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Unpack

from drivers import events as ev
from drivers.device import DeviceDriver, DriverOptions, Post
from drivers.transport import Transport
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import CardRead, Hello, Message, ShoeStatus

# Cards remembered to recognise a resend: more than the link ever has unacknowledged (8).
REPEAT_WINDOW = 32
_MS_WRAP = 1 << 32  # device_ms is a u32 of milliseconds since the shoe booted


def _older(ms: int, than: int) -> bool:
    """Is device time `ms` strictly before `than` (u32, wrapping after 49 days)?"""
    return 0 < (than - ms) % _MS_WRAP < _MS_WRAP // 2


class ShoeDriver(DeviceDriver):
    KIND = DeviceKind.SHOE

    def __init__(self, url: str | Transport, post: Post, *, name: str = "shoe", **options: Unpack[DriverOptions]) -> None:
        super().__init__(url, post, name=name, **options)
        self._delivered: OrderedDict[int, CardRead] = OrderedDict()  # draw counter -> card, this boot
        self._last_device_ms: int | None = None  # newest device time heard in this boot
        self._boot_id: int | None = None  # the boot the cards in _delivered came from

    def remember(self, boot_id: int | None, cards: list[CardRead]) -> None:
        """Before the first session: the cards a previous daemon journaled last from boot
        `boot_id` of the shoe (controller/daemon/shoe_resends.py). A 1.2 shoe sends again a card
        whose ack a crash cut off; with this, it is a repeat, not a second card."""
        self._boot_id = boot_id
        for card in cards[-REPEAT_WINDOW:]:
            self._delivered[card.draw_counter] = card
            self._last_device_ms = card.device_ms

    def _on_session_up(self, hello: Hello, rebooted: bool, now: float) -> None:
        if rebooted or (self._boot_id is not None and hello.boot_id != self._boot_id):
            self._delivered.clear()  # a new boot: its counter may start again
            self._last_device_ms = None  # and its clock does
        self._boot_id = hello.boot_id
        super()._on_session_up(hello, rebooted, now)

    def _on_message(self, msg: Message, now: float) -> None:
        if isinstance(msg, (CardRead, ShoeStatus)):
            if self._last_device_ms is not None and _older(msg.device_ms, self._last_device_ms):
                if isinstance(msg, ShoeStatus):
                    return  # resent from before a reconnect; the fresh status follows
            else:
                self._last_device_ms = msg.device_ms
        if isinstance(msg, CardRead):
            self._card(msg)
        elif isinstance(msg, ShoeStatus):
            self._shoe_status(msg)
        else:
            self._emit(ev.DeviceError, code=None, detail=f"unexpected {type(msg).__name__} from a shoe")

    def _card(self, msg: CardRead) -> None:
        before = self._delivered.get(msg.draw_counter)
        if before is not None and before == msg:  # not `None == msg`: that asks CardRead.__eq__ too
            self._emit(ev.DrawRepeated, draw_counter=msg.draw_counter, code=msg.code)
            return
        self._delivered[msg.draw_counter] = msg
        if before is not None:  # a new counter is appended at the end already
            self._delivered.move_to_end(msg.draw_counter)
        if len(self._delivered) > REPEAT_WINDOW:
            self._delivered.popitem(last=False)
        self._emit(ev.CardDrawn, code=msg.code, draw_counter=msg.draw_counter,
                   device_time=msg.device_ms, double_draw=msg.double_draw, misread=msg.misread)

    def _shoe_status(self, msg: ShoeStatus) -> None:
        self._emit(ev.ShoeStatusHeard, present=msg.present, door_open=msg.door_open, cut_card=msg.cut_card_seen,
                   empty=msg.empty, draw_counter=msg.draw_counter)

"""The bet sensor driver: its layout and the chips on each betting space as typed events.

A layout or a space's chip list longer than a frame comes in parts (PROTOCOL.md §10): the
driver puts them together and posts one event when the last part arrives. A part that does
not follow the one before (a resend of a tail whose first parts were acknowledged before a
host crash) is dropped and the whole is asked for again: a partial list is never posted as
a whole one.

Every session starts with the whole state (the STATUS_QUERY answer: the layout, then every
space), and across a reconnect the sensor first resends what it had not had acknowledged
(protocol 1.2+). So a list may come again: one not newer than the list posted for its space
from the same boot (its change count) is dropped, as is a layout equal to the one posted;
what changed while the sensor was unheard is posted once. A list heard before the layout (a
change the sensor resends first to a host that has just started) is posted without its seat and
wager, and again when the session's whole state brings it after the layout. After a reboot
everything is posted again (its change counts restart). With `durable_acks` the base class holds each message's ack
until its event's record is durable; a message dropped here, and a part before a list's last
(it gives no event), is acknowledged at once. Should the host die before the last part's record
is durable, the sensor resends only the tail, which the next driver drops and asks again for.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Unpack

from drivers import bet_events as bev
from drivers import events as ev
from drivers.device import DeviceDriver, DriverOptions, Post
from drivers.transport import Transport
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import BetSpace, Chip, Hello, Layout, Message, Space, SpaceQuery, StatusQuery

_WRAP = 1 << 32  # a space's change count is a u32
_UID, _VALUE = itemgetter(0), itemgetter(1)  # a Chip's fields by position


def _newer(change: int, than: int) -> bool:
    """Is change count `change` after `than` (u32, wrapping)?"""
    return 0 < (change - than) % _WRAP < _WRAP // 2


class BetSensorDriver(DeviceDriver):
    KIND = DeviceKind.BETS

    def __init__(self, url: str | Transport, post: Post, *, name: str = "bets", **options: Unpack[DriverOptions]) -> None:
        super().__init__(url, post, name=name, **options)
        self.layout: dict[int, BetSpace] = {}  # space id -> space, from the sensor's current boot
        self._layout_parts: list[BetSpace] | None = None  # a layout being put together
        self._next_layout_part = 0
        self._space_parts: dict[int, tuple[int, int, list[Chip]]] = {}  # space -> (change, next part, chips)
        self._heard: dict[int, tuple[int, tuple[Chip, ...]]] = {}  # space -> (change, chips) last posted, this boot

    def request_space(self, space: int | None = None) -> None:
        """Ask the sensor for one space's chips, or every space's (answered by SpaceChips)."""
        self._send(SpaceQuery() if space is None else SpaceQuery(space))

    def _on_session_up(self, hello: Hello, rebooted: bool, now: float) -> None:
        if rebooted:
            self.layout.clear()  # a new boot: its change counts start again
            self._heard.clear()
        self._layout_parts, self._next_layout_part = None, 0
        self._space_parts.clear()
        super()._on_session_up(hello, rebooted, now)

    def _on_session_renewed(self, now: float) -> None:
        self._layout_parts, self._next_layout_part = None, 0
        self._space_parts.clear()
        super()._on_session_renewed(now)

    def _on_message(self, msg: Message, now: float) -> None:
        if isinstance(msg, Layout):
            self._layout(msg)
        elif isinstance(msg, Space):
            self._space(msg, now)
        else:
            self._emit(ev.DeviceError, code=None, detail=f"unexpected {type(msg).__name__} from a bet sensor")

    def _layout(self, msg: Layout) -> None:
        if msg.part == 0:
            self._layout_parts = None  # a layout starts (one cut short before it is dropped)
        elif msg.part != self._next_layout_part:
            self._layout_parts, self._next_layout_part = None, 0
            self._emit(ev.DeviceError, code=None,
                       detail=f"LAYOUT part {msg.part} without the parts before it: dropped, asking again")
            self.link.send(StatusQuery(), self.reactor.now())
            return
        parts = (self._layout_parts or []) + list(msg.spaces)
        if msg.more:
            self._layout_parts, self._next_layout_part = parts, msg.part + 1
            return
        self._layout_parts, self._next_layout_part = None, 0
        ids = [s.space for s in parts]
        if len(set(ids)) != len(ids):
            twice = sorted({i for i in ids if ids.count(i) > 1})
            self._emit(ev.DeviceError, code=None, detail=f"LAYOUT names space(s) {twice} twice: not taken")
            return
        layout = {s.space: s for s in parts}
        if layout == self.layout and list(layout) == list(self.layout):
            return  # the same layout, asked for again at a new session
        self.layout = layout
        self._emit(bev.BetLayout, spaces=tuple((s.space, s.seat, s.name) for s in parts))

    def _space(self, msg: Space, now: float) -> None:
        pending = self._space_parts.pop(msg.space, None)
        if msg.part == 0:
            chips: list[Chip] = []  # a list starts (one cut short before it is dropped)
        elif pending is not None and pending[:2] == (msg.change, msg.part):
            chips = pending[2]
        else:
            self._emit(ev.DeviceError, code=None,
                       detail=f"SPACE {msg.space} part {msg.part} of change {msg.change} without the parts "
                              "before it: dropped, asking for the space again")
            self.link.send(SpaceQuery(msg.space), now)
            return
        if msg.more:
            self._space_parts[msg.space] = (msg.change, msg.part + 1, chips + list(msg.chips))
            return
        whole = msg.chips if msg.part == 0 else (*chips, *msg.chips)  # a list of one frame is taken as it came
        heard = self._heard.get(msg.space)
        if heard is not None and not _newer(msg.change, heard[0]):
            if msg.change == heard[0] and whole != heard[1]:
                self._emit(ev.DeviceError, code=None, detail=f"SPACE {msg.space}: change {msg.change} "
                                                             "came with another list: not taken")
            return  # resent, or the session's whole state: posted already
        known = self.layout.get(msg.space)
        if known is not None:  # a list heard before the layout names its space comes again after it: posted then too
            self._heard[msg.space] = (msg.change, whole)
        # (UID as hex, value) per chip, in C: a Chip is a (uid, value) tuple
        readings = tuple(zip(map(bytes.hex, map(_UID, whole)), map(_VALUE, whole)))
        self._emit(bev.SpaceChips, space=msg.space, seat=known.seat if known else None,
                   name=known.name if known else None, change=msg.change, chips=readings, overflow=msg.overflow)

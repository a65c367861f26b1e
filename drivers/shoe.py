"""The shoe driver: cards and shoe state as typed events, the draw counter checked.

The link already delivers each CARD once per session; the draw counter
(firmware_bridge.draw_counter) is the check that survives reconnects and reboots: a gap
is reported (a missed card is never silence), a repeated counter is reported and the card
not delivered again, and a counter that went back is reported as unprovable.

Across a reconnect the shoe may resend a status whose ack was lost with the link
(PROTOCOL.md §4). Its device time is older than what was already heard from the same
boot, so it is dropped: a stale counter must not look like a gap or a lost count.
"""
from __future__ import annotations

from drivers import events as ev
from drivers.device import DeviceDriver
from firmware_bridge.draw_counter import CounterRestarted, DrawCounter, DrawGap, DrawRepeated
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import CardRead, Hello, Message, ShoeStatus

_STATUS_FIELDS = ("present", "door_open", "cut_card", "empty")
_MS_WRAP = 1 << 32  # device_ms is a u32 of milliseconds since the shoe booted


def _older(ms: int, than: int) -> bool:
    """Is device time `ms` strictly before `than` (u32, wrapping after 49 days)?"""
    return 0 < (than - ms) % _MS_WRAP < _MS_WRAP // 2


class ShoeDriver(DeviceDriver):
    KIND = DeviceKind.SHOE

    def __init__(self, url, post, *, name: str = "shoe", **options) -> None:
        super().__init__(url, post, name=name, **options)
        self.draws = DrawCounter()
        self._status: dict[str, bool] | None = None
        self._last_device_ms: int | None = None  # newest device time heard in this boot

    def _on_session_up(self, hello: Hello, rebooted: bool, now: float) -> None:
        if rebooted:
            self.draws.rebooted()
            self._last_device_ms = None  # a new boot starts its clock again
        self._status = None  # the first status of a session reports every field
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
            self._draw_checks(self.draws.status(msg.draw_counter), code=None)
            self._shoe_status(msg)
        else:
            self._emit(ev.DeviceError, code=None, detail=f"unexpected {type(msg).__name__} from a shoe")

    def _card(self, msg: CardRead) -> None:
        if not self._draw_checks(self.draws.card(msg.draw_counter), code=msg.code):
            return
        self._emit(ev.CardDrawn, code=msg.code, draw_counter=msg.draw_counter,
                   device_time=msg.device_ms, double_draw=msg.double_draw, misread=msg.misread)

    def _draw_checks(self, findings, code: int | None) -> bool:
        """Post what the draw counter found; False if the card is a repeat to drop."""
        deliver = True
        for finding in findings:
            if isinstance(finding, DrawGap):
                self._emit(ev.DrawGap, expected=finding.expected, got=finding.got)
            elif isinstance(finding, DrawRepeated):
                self._emit(ev.DrawRepeated, draw_counter=finding.counter, code=code)
                deliver = False
            elif isinstance(finding, CounterRestarted):
                self._emit(ev.DrawCountUnknown, last_heard=finding.last, reported=finding.now)
        return deliver

    def _shoe_status(self, msg: ShoeStatus) -> None:
        status = dict(present=msg.present, door_open=msg.door_open,
                      cut_card=msg.cut_card_seen, empty=msg.empty)
        previous, self._status = self._status, status
        changed = tuple(f for f in _STATUS_FIELDS if previous is None or previous[f] != status[f])
        if changed:
            self._emit(ev.ShoeStatusChanged, draw_counter=msg.draw_counter, changed=changed, **status)

"""The bet sensor's session (the `bets` entry of DeviceSessions' kinds): its layout and the
chips on each space, as table inputs.

The layout (BetLayout, heard at the sensor's first session after a boot) becomes
BetLayoutHeard when it fits the game (controller/daemon/bet_layout.py); one that does not
leaves the session `mismatch`, its reason in `tablectl status`, and the readings in the
journal only. A space's chips (SpaceChips) become a SpaceChips input once its seat and wager
are known from a fitting layout; before any layout they are journaled only.

BetSensorLink tells the table whether the readings are live: up when the session is up with a
fitting layout, down (with the reason) when the link is lost or the layout does not fit. It
is given on a change only, so reconnect attempts against an absent sensor give one.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from controller.daemon.bet_layout import layout_problems, layout_reason
from controller.table import inputs as i
from drivers import bet_events as bev
from drivers import events as ev

if TYPE_CHECKING:
    from controller.daemon.sessions import Handler, Session, Translation

MISMATCH = "mismatch"  # the session's state while its layout does not fit the game


class BetSession:
    def __init__(self, game_key: str, up: Callable[[Session, ev.SessionUp, Translation], list[str]],
                 down: Callable[[Session, ev.LinkDown, Translation], bool],
                 refused: Callable[[Session, ev.SessionRefused, Translation], bool]) -> None:
        self.game_key = game_key
        self._link_up, self._link_down, self._link_refused = up, down, refused  # every device's own link handlers
        self.layout: tuple[tuple[int, int, str], ...] | None = None  # the fitting layout of the sensor's boot
        self.problem = ""  # why the layout heard does not fit ("" when it fits or none was heard)
        self.live: bool | None = None  # what the table was last told (None: nothing yet)

    def handlers(self) -> dict[type, Handler]:
        return {ev.SessionUp: self._up, ev.LinkDown: self._down, ev.SessionRefused: self._refused,
                bev.BetLayout: self._layout, bev.SpaceChips: self._space}

    def _tell(self, out: Translation, live: bool, reason: str = "") -> None:
        if live != self.live:
            self.live = live
            out.inputs.append(i.BetSensorLink(live, reason))

    def _up(self, s: Session, e: ev.SessionUp, out: Translation) -> None:
        steps = self._link_up(s, e, out)
        if not steps:
            return  # the sensor renewed a session that was up: nothing new
        if "rebooted" in steps:  # its layout comes again (the driver forgot it)
            self.layout, self.problem = None, ""
        if self.problem:
            s.state, s.reason = MISMATCH, self.problem
            out.change = {**(out.change or {}), "link": MISMATCH, "reason": self.problem}
        elif self.layout is not None:
            self._tell(out, True)

    def _down(self, s: Session, e: ev.LinkDown, out: Translation) -> None:
        if self._link_down(s, e, out):
            self._tell(out, False, f"link {s.state}: {e.reason}")

    def _refused(self, s: Session, e: ev.SessionRefused, out: Translation) -> None:
        if self._link_refused(s, e, out):
            self._tell(out, False, f"link {s.state}: {e.reason}")

    def _layout(self, s: Session, e: bev.BetLayout, out: Translation) -> None:
        problems = layout_problems(self.game_key, e.spaces)
        if problems:
            self.layout, self.problem = None, layout_reason(self.game_key, problems)
            if s.state in ("ok", MISMATCH):
                s.state, s.reason = MISMATCH, self.problem
            out.change = {"event": "device", "device": e.device, "link": s.state, "reason": self.problem}
            self._tell(out, False, self.problem)
            return
        self.layout, self.problem = e.spaces, ""
        if s.state == MISMATCH:
            s.state, s.reason = "ok", ""
        out.change = {"event": "device", "device": e.device, "link": s.state, "layout": len(e.spaces)}
        out.inputs.append(i.BetLayoutHeard(e.spaces))
        if s.state == "ok":
            self._tell(out, True)

    def _space(self, s: Session, e: bev.SpaceChips, out: Translation) -> None:
        out.change = {"event": "device", "device": e.device, "space": e.space, "seat": e.seat, "bet": e.name,
                      "chips": len(e.chips), "total": e.total, "overflow": e.overflow}
        if self.layout is None or e.seat is None or e.name is None:
            return  # no fitting layout yet: journaled only
        out.inputs.append(i.SpaceChips(e.space, e.seat, e.name, e.chips, e.overflow))


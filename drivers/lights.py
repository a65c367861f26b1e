"""The lamp board: set lamps (only what changed), switch all off, read the lamps back.

The driver keeps the state the controller wants (`desired`) and what the board shows as
far as it knows (`_board`, from the board's last LAMP_REPORT plus our sets since). When a
session comes up (first connect, reconnect, board reboot) it asks for a report and then
sends only the lamps that differ, so a rebooted board is put back without the controller
doing anything and a reconnect does not flicker the lamps.

This is the one place the lamp picture is diffed: the daemon hands over the whole picture
it wants, and only the lamps whose pattern differs from the board's are sent
(`changed_lamps`). Like every driver it runs on the reactor's thread; `read_back` waits
by turning the reactor, so it is for whoever owns the reactor outside its callbacks (the
daemon's shutdown, tests, tools).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Unpack

from drivers import events as ev
from drivers.device import DeviceDriver, DriverOptions, Post
from drivers.errors import DeviceTimeoutError, LinkDownError
from drivers.transport import Transport
from firmware_bridge.enums import DeviceKind, LampPattern
from firmware_bridge.messages import AllOff, Hello, LampQuery, LampReport, LampSet, Message


def changed_lamps(wanted: Mapping[int, LampPattern], board: Mapping[int, LampPattern]) -> dict[int, LampPattern]:
    """The lamps of `wanted` whose pattern the board does not show (a lamp it never
    reported is off)."""
    return {lamp: pattern for lamp, pattern in wanted.items() if board.get(lamp, LampPattern.OFF) != pattern}


class _ReadBack:
    def __init__(self) -> None:
        self.done = False
        self.lamps: dict[int, LampPattern] | None = None
        self.error: Exception | None = None


class LightsDriver(DeviceDriver):
    KIND = DeviceKind.LIGHTS

    def __init__(self, url: str | Transport, post: Post, *, name: str = "lights", **options: Unpack[DriverOptions]) -> None:
        super().__init__(url, post, name=name, **options)
        self.desired: dict[int, LampPattern] = {}
        self._board: dict[int, LampPattern] | None = None  # None: unknown until a report
        # Our LAMP_QUERYs not yet answered, each with the read_back waiting for it (or None).
        self._queries: list[tuple[LampQuery, _ReadBack | None]] = []
        # read_backs asked while the session's first report is awaited: queried after the
        # board has been brought to `desired`, so they see every lamp set before them.
        self._deferred: list[_ReadBack] = []

    # ------------------------------------------------------------------ controller API
    def set_lamp(self, lamp_id: int, pattern: LampPattern | int) -> None:
        self.set_lamps({lamp_id: pattern})

    def set_lamps(self, lamps: dict[int, LampPattern | int]) -> None:
        """Set several lamps; checks them all first (ValueError names the bad one). The
        controller hands over its whole picture after every input: lamps already wanted as
        they are change nothing and cost nothing."""
        lamps = {lamp: p for lamp, p in lamps.items() if self.desired.get(lamp) != p}
        if not lamps:
            return
        # LampSet checks the id and turns an int into its LampPattern (refusing one that is none).
        sets = (LampSet(lamp, p) for lamp, p in lamps.items())  # type: ignore[arg-type]  # the int is converted there
        checked = {m.lamp: m.pattern for m in sets}
        self.desired.update(checked)
        self._sync(self.reactor.now())
        self._flush()
        self._arm()

    def all_off(self) -> None:
        self.desired = {lamp: LampPattern.OFF for lamp in self.desired}
        if self._up:
            self.link.send(AllOff(), self.reactor.now())
            if self._board is not None:
                self._board = {lamp: LampPattern.OFF for lamp in self._board}
            self._flush()
            self._arm()

    @property
    def connected(self) -> bool:
        """A session with the board is up (read_back can be answered)."""
        return self._up

    def read_back(self, timeout: float = 2.0) -> dict[int, LampPattern]:
        """Ask the board for every lamp and wait for the answer (lamp id -> pattern),
        turning the reactor meanwhile (not from inside one of its callbacks)."""
        if not self._up:
            raise LinkDownError(f"{self.name}: no link to the lamp board")
        waiter = _ReadBack()
        if self._board is None:
            self._deferred.append(waiter)
        else:
            self._query(self.reactor.now(), waiter)
            self._flush()
            self._arm()
        if not self.reactor.run_until(lambda: waiter.done, timeout):
            self._queries = [(q, w) for q, w in self._queries if w is not waiter]
            if waiter in self._deferred:
                self._deferred.remove(waiter)
            raise DeviceTimeoutError(f"{self.name}: no lamp report within {timeout} s")
        if waiter.error is not None:
            raise waiter.error
        assert waiter.lamps is not None
        return waiter.lamps

    # ------------------------------------------------------------------ driver hooks
    def request_status(self) -> None:
        if self._up:
            self._query(self.reactor.now())
            self._flush()
            self._arm()

    def _query(self, now: float, waiter: _ReadBack | None = None) -> None:
        query = LampQuery()
        self._queries.append((query, waiter))
        self.link.send(query, now)

    def _acked(self, query: LampQuery) -> bool:
        tx = self.link.tx
        return not any(p.msg is query for p in tx.inflight) and not any(m is query for m in tx.unsent)

    def _on_session_up(self, hello: Hello, rebooted: bool, now: float) -> None:
        self._fail_readbacks(LinkDownError(f"{self.name}: session restarted before the answer"))
        self._board = None
        self._query(now)

    def _on_session_renewed(self, now: float) -> None:
        self._query(now)  # a report the board dropped with its failed sends: asked again

    def _session_down(self, reason: str, now: float, *, refused: bool = False, hello: Hello | None = None) -> None:
        super()._session_down(reason, now, refused=refused, hello=hello)
        self._fail_readbacks(LinkDownError(f"{self.name}: link lost: {reason}"))

    def _hang_up(self, reason: str) -> None:
        self._fail_readbacks(LinkDownError(f"{self.name}: link lost: {reason}"))
        super()._hang_up(reason)

    def _on_message(self, msg: Message, now: float) -> None:
        if not isinstance(msg, LampReport):
            self._emit(ev.DeviceError, code=None, detail=f"unexpected {type(msg).__name__} from lights")
            return
        self._emit(ev.LampReport, lamps=tuple(int(p) for p in msg.lamps))
        # The board answers in order, and acks a query no later than in the frame of its
        # answer: a report that arrives while none of our queries is acknowledged is an
        # old one, resent in a new session, and must not be taken for the board's state now.
        answered = [(q, w) for q, w in self._queries if self._acked(q)]
        if not answered:
            return
        self._queries = [item for item in self._queries if item not in answered]
        lamps = dict(enumerate(msg.lamps))
        for _, waiter in answered:
            if waiter is not None:
                waiter.lamps = dict(lamps)
                waiter.done = True
        self._board = lamps
        self._sync(now)
        deferred, self._deferred = self._deferred, []
        for waiter in deferred:
            self._query(now, waiter)

    def _sync(self, now: float) -> None:
        """Send the lamps whose desired pattern differs from the board's."""
        if not self._up or self._board is None:
            return  # reconciled when the session's first report arrives
        for lamp, pattern in changed_lamps(self.desired, self._board).items():
            self.link.send(LampSet(lamp, pattern), now)
            self._board[lamp] = pattern

    def _fail_readbacks(self, error: Exception) -> None:
        queries, self._queries = self._queries, []
        deferred, self._deferred = self._deferred, []
        for waiter in [w for _, w in queries] + deferred:
            if waiter is not None:
                waiter.error = error
                waiter.done = True

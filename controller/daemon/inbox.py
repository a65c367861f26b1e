"""The loop's inbox: what drivers and the control socket post, taken in batches.

`post` appends from the reactor's thread (a driver's or the socket's callback) or hops to it
through the reactor's wake-up pipe from any other. The taker given at construction runs once
at the end of the reactor turn the items arrived in, so everything read in one turn shares
one commit (controller/daemon/loop.py); `take` hands it up to a batch at a time and stops at
a Stop, which ends the loop.
"""
from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drivers.reactor import Reactor


@dataclass(frozen=True)
class Stop:
    """Posted by the signal handler: stop taking input and shut down."""
    reason: str


class Inbox:
    def __init__(self, reactor: Reactor) -> None:
        self.reactor = reactor
        self.items: collections.deque[Any] = collections.deque()
        self._taker: Callable[[], None] = lambda: None
        self._take_queued = False

    def deliver_to(self, taker: Callable[[], None]) -> None:
        """The one consumer (the loop, as it is built): called after the turn items arrive in."""
        self._taker = taker

    def post(self, item: Any) -> None:
        """A driver event, a control Request, a table's FollowUp, or Stop. Never blocks."""
        thread = self.reactor.thread
        if thread is not None and thread != threading.get_ident():
            self.reactor.call_soon_threadsafe(lambda: self.post(item))
            return
        self.items.append(item)
        self.wake()

    def wake(self) -> None:
        """Have the taker run at the end of this reactor turn (once, however many posts)."""
        if not self._take_queued:
            self._take_queued = True
            self.reactor.call_soon(self._take)

    def _take(self) -> None:
        self._take_queued = False
        self._taker()

    def take(self, most: int) -> tuple[list[Any], Stop | None]:
        """Up to `most` items in order, and the Stop that ended the batch (it is taken too)."""
        batch: list[Any] = []
        while self.items and len(batch) < most:
            item = self.items.popleft()
            if isinstance(item, Stop):
                return batch, item
            batch.append(item)
        return batch, None

    def put_back(self, item: Any) -> None:
        """First in line again (a Stop that must wait behind a batch the journal holds)."""
        self.items.appendleft(item)

    def take_where(self, wanted: Callable[[Any], bool]) -> list[Any]:
        """Every waiting item `wanted` accepts, out of its place (the rest keep theirs)."""
        found = [item for item in self.items if wanted(item)]
        for item in found:
            self.items.remove(item)
        return found

    def __len__(self) -> int:
        return len(self.items)

"""The feed's window of records in flight: which MQTT message ids each record still waits
for, and the cursor that moves over a record only once the broker acknowledged (PUBACK)
every message of it and of every record before it. Records sent together in one message
(a backlog) are one entry, named by the last of them: the cursor moves over all of them at
once, when that message and their summaries are acknowledged.

PUBACKs arrive on the network thread, publishes are made on the feed's thread. No lock of
ours is held while calling paho (paho holds its own while calling back into us), so a PUBACK
may be seen before the publish that caused it is registered: it waits in `_early`.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from services.broker import succeeded
from services.feed.cursor import Cursor

Message = tuple[str, bytes]  # topic, payload


@dataclass
class _InFlight:
    seq: int  # the last record of the entry
    hash: str
    records: int = 1  # records in the entry (seq - records + 1 .. seq)
    waiting: dict[int, Message] = field(default_factory=dict)  # mid -> the message it carries


class AckWindow:
    def __init__(self, cursor: Cursor, limit: int = 1000) -> None:
        self.acked = cursor  # every message of every record up to here is acknowledged
        self.limit = limit  # records in flight at most
        self.changed = threading.Condition()
        self._records: OrderedDict[int, _InFlight] = OrderedDict()  # last seq of an entry -> the entry
        self._count = 0  # records in flight
        self._owner: dict[int, int | None] = {}  # mid -> seq (None: a message outside the cursor)
        self._early: dict[int, Any] = {}  # mid -> reason code, acknowledged before it was registered
        self.refused: list[tuple[int, int, Message, str]] = []  # (seq, mid, message, reason): to send again

    # ------------------------------------------------------------------ the feed's thread
    def register(self, seq: int | None, record_hash: str, sent: list[tuple[int, Message]], records: int = 1) -> None:
        """Messages just published for the `records` records ending at `seq` (None: a status
        or replay message)."""
        with self.changed:
            if seq is not None:
                flight = self._records.get(seq)
                if flight is None:
                    flight = self._records[seq] = _InFlight(seq, record_hash, records)
                    self._count += records
                flight.waiting.update(sent)
            for mid, _ in sent:
                self._owner[mid] = seq
            for mid, _ in sent:
                if mid in self._early:
                    self._acknowledged(mid, self._early.pop(mid))
            self._advance()

    def wait_for_room(self, timeout: float, records: int = 1) -> bool:
        """True when `records` more may be sent (or nothing is in flight); False after `timeout`
        without room."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while self._count and self._count + records > self.limit:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
            return True

    def in_flight(self) -> int:
        """Records sent and not yet acknowledged."""
        with self.changed:
            return self._count

    def take_refused(self) -> list[tuple[int, int, Message, str]]:
        with self.changed:
            refused, self.refused = self.refused, []
            return refused

    # ------------------------------------------------------------------ the network thread
    def on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        with self.changed:
            if mid in self._owner:
                self._acknowledged(mid, reason)
            else:
                self._early[mid] = reason
            self._advance()
            self.changed.notify_all()

    # ------------------------------------------------------------------ under the lock
    def _acknowledged(self, mid: int, reason: Any) -> None:
        seq = self._owner.pop(mid)
        flight = self._records.get(seq) if seq is not None else None
        if flight is None:
            return
        message = flight.waiting.pop(mid, None)
        if message is not None and not succeeded(reason):
            self.refused.append((flight.seq, mid, message, str(reason)))  # the record stays in flight: sent again later
            flight.waiting[-mid] = message  # a placeholder until it is published again

    def replace(self, seq: int, old_mid: int, new: tuple[int, Message]) -> None:
        """A refused message published again under a new message id."""
        with self.changed:
            flight = self._records.get(seq)
            if flight is not None:
                flight.waiting.pop(-old_mid, None)
            self.register(seq, flight.hash if flight else "", [new])

    def _advance(self) -> None:
        while self._records:
            first = next(iter(self._records.values()))
            if first.waiting:
                return
            self._records.popitem(last=False)
            self._count -= first.records
            self.acked = Cursor(first.seq, first.hash)

"""`FoldStream`: a page's state folded from the journal and handed to a web server's loop as
server-sent events. The scoreboard and the dealer page are both one of these; each gives the
fold (what it keeps of the records) and where a restart starts reading.

One thread owns the fold: it catches up from the start point, then folds each record as
`services.follow.JournalFollower` delivers it and posts what changed, already serialized, to
the asyncio loop (`call_soon_threadsafe`). The loop keeps the latest parts (for the page's
JSON route and a display that connects), a log of the updates since the fold caught up (for
Last-Event-ID), and a bounded queue per display.

Server-sent events:
  update  id = the journal record's seq; data {"seq", "kind", "at", PART?...}: the parts that
          record changed, each whole ("at": when it was journaled). The first update a display
          gets is a snapshot ("kind": "snapshot", every part) unless its Last-Event-ID is in
          the log: then it gets exactly the updates after that id, so nothing is missed.
  link    no id; data {"online", "journal_error"}: the daemon's event stream is there or not.
A display that falls QUEUE updates behind is cut off; its browser reconnects with its
Last-Event-ID and is brought up to date from the log.
"""
from __future__ import annotations

import abc
import asyncio
import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import structlog
from sse_starlette.event import ServerSentEvent

from controller.journal import Record
from services.follow import POLL_S, JournalFollower, Link

log = structlog.get_logger("fold_stream")

LOG_BYTES = 16 * 1024 * 1024  # updates kept for Last-Event-ID (an 80-round shoe is ~3 MB)
QUEUE = 500  # updates a display may fall behind before it is cut off
RETRY_MS = 1000  # the browser's wait before it reconnects
SEQ_DIGITS = 19  # a journal seq is a positive 64-bit integer


class BadLastEventId(ValueError):
    """A Last-Event-ID header that is not one of our ids (a journal seq)."""


def last_event_id(header: str | None) -> int | None:
    """The seq a reconnecting display names; None when it names none we could have sent
    (absent, empty, not ASCII digits: the display gets a snapshot). BadLastEventId when it is
    longer than any seq (SEQ_DIGITS): refused before int() reads it (Python refuses to read
    more than 4,300 digits, and such a header is not a browser's)."""
    if not header:
        return None
    if len(header) > SEQ_DIGITS:
        raise BadLastEventId(f"expected a record's seq (at most {SEQ_DIGITS} digits), got {len(header)} characters")
    return int(header) if header.isascii() and header.isdigit() else None


def json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Fold(Protocol):
    """What a page keeps of the journal: `apply` folds one record and names the parts it
    changed; `seq` is the last record folded."""

    seq: int

    def apply(self, record: Record) -> set[str]: ...


@dataclass(frozen=True)
class StartedFold:
    """A fresh fold and where in the journal it starts reading (after `since`, whose hash is
    `since_hash` when known)."""

    fold: Fold
    since: int = 0
    since_hash: str | None = None


@dataclass(eq=False)  # each display is itself (kept in a set)
class Display:
    """One connected browser: its queue, and whether it was cut off for falling behind."""

    queue: asyncio.Queue[ServerSentEvent] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    dropped: bool = False


class FoldStream(abc.ABC):
    """Subclasses give `PARTS` (the names of the page's parts, in the order updates carry
    them), `start_fold()` and `part_json(fold, name)`."""

    PARTS: tuple[str, ...] = ()
    THREAD_NAME = "page-follower"

    def __init__(self, journal_path: str, socket_path: str, *, poll_s: float = POLL_S, log_bytes: int = LOG_BYTES,
                 on_failure: Callable[[str], None] | None = None) -> None:
        self.journal_path, self.socket_path = journal_path, socket_path
        self.poll_s, self.log_bytes_max = poll_s, log_bytes
        self.on_failure = on_failure
        # the loop's copies (written only on the loop)
        self.parts: dict[str, Any] = {}
        self.link: dict[str, Any] | None = None  # None until the follower has tried the daemon
        self.seq = 0  # the last update's record (or where the fold caught up)
        self.log: deque[tuple[int, str]] = deque()
        self.log_bytes = 0
        self.log_base = 0  # the log holds every update after this seq
        self.displays: set[Display] = set()
        self.failure: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready: asyncio.Event | None = None

    # ------------------------------------------------------------------ the page's own
    @abc.abstractmethod
    def start_fold(self) -> StartedFold:
        """The page's fold, built from the journal where the page starts reading."""

    @abc.abstractmethod
    def part_json(self, fold: Any, name: str) -> Any:
        """Part `name` of PARTS as the page's JSON, from the fold."""

    @abc.abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The page's JSON route: every part, the seq and the link."""

    # ------------------------------------------------------------------ on the loop
    async def start(self) -> None:
        """Start the follower thread; returns once the fold has caught up with the journal."""
        self._loop, self._ready = asyncio.get_running_loop(), asyncio.Event()
        self._thread = threading.Thread(target=self._follow, name=self.THREAD_NAME, daemon=True)
        self._thread.start()
        await self._ready.wait()

    async def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, self.poll_s + 5)

    def connect(self, last: int | None) -> tuple[list[ServerSentEvent], Display]:
        """A display connects (`last`: the seq of its Last-Event-ID, see last_event_id): what it
        gets first, and its queue for what follows (taken together on the loop, so nothing
        published in between is lost or doubled)."""
        display = Display()
        self.displays.add(display)
        first = [ServerSentEvent(json_text(self.link), event="link", retry=RETRY_MS)]
        if last is not None and self.log_base <= last <= self.seq:
            first += [ServerSentEvent(text, event="update", id=str(seq)) for seq, text in self.log if seq > last]
        else:
            snapshot = {"seq": self.seq, "kind": "snapshot", **{name: self.parts.get(name) for name in self.PARTS}}
            first.append(ServerSentEvent(json_text(snapshot), event="update", id=str(self.seq)))
        return first, display

    def disconnect(self, display: Display) -> None:
        self.displays.discard(display)

    def _broadcast(self, event: ServerSentEvent) -> None:
        for display in list(self.displays):
            try:
                display.queue.put_nowait(event)
            except asyncio.QueueFull:
                display.dropped = True  # it reconnects with its Last-Event-ID and catches up from the log
                self.displays.discard(display)

    def _caught_up(self, seq: int, parts: dict[str, Any]) -> None:
        self.parts, self.seq, self.log_base = parts, seq, seq
        assert self._ready is not None
        self._ready.set()

    def _update(self, seq: int, update: dict[str, Any], text: str) -> None:
        self.parts.update((name, update[name]) for name in self.PARTS if name in update)
        self.seq = seq
        self.log.append((seq, text))
        self.log_bytes += len(text)
        while self.log_bytes > self.log_bytes_max and len(self.log) > 1:
            base, dropped = self.log.popleft()
            self.log_bytes -= len(dropped)
            self.log_base = base
        self._broadcast(ServerSentEvent(text, event="update", id=str(seq)))

    def _link(self, link: dict[str, Any]) -> None:
        self.link = link
        self._broadcast(ServerSentEvent(json_text(link), event="link"))

    def _failed(self, why: str) -> None:
        self.failure = why
        if self._ready is not None:
            self._ready.set()
        if self.on_failure is not None:
            self.on_failure(why)

    # ------------------------------------------------------------------ on the follower thread
    def _post(self, callback: Callable[..., None], *args: Any) -> None:
        assert self._loop is not None
        try:
            self._loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:  # the loop has closed: the server is shutting down
            self._stop.set()

    def _follow(self) -> None:
        try:
            started = self.start_fold()
            fold = started.fold
            follower = JournalFollower(self.journal_path, self.socket_path, since=started.since,
                                       since_hash=started.since_hash, poll_s=self.poll_s)
            records, _problem = follower.read_new()  # a problem is reported by the first Link below
            for record in records:
                fold.apply(record)
            self._post(self._caught_up, fold.seq, {name: self.part_json(fold, name) for name in self.PARTS})
            for item in follower.items(self._stop):
                if isinstance(item, Link):
                    self._post(self._link, {"online": item.online, "journal_error": item.journal_error})
                    continue
                changed = fold.apply(item)
                if changed:
                    update: dict[str, Any] = {"seq": item.seq, "kind": item.kind, "at": item.at}
                    update.update((name, self.part_json(fold, name)) for name in self.PARTS if name in changed)
                    self._post(self._update, item.seq, update, json_text(update))
        except Exception as error:  # a bug must not leave a frozen page behind a live server
            log.exception("follower_failed", stream=self.THREAD_NAME)
            self._post(self._failed, f"{type(error).__name__}: {error}")

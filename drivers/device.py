"""The driver base: one device, one transport, one firmware_bridge Link, one reader thread.

The controller runs one loop thread that owns all state; a driver's reader thread only
posts typed events (drivers.events) into it through the `post` callback. The reader
thread reads with a short timeout, feeds the link, runs its timers, writes what the link
wants written, and keeps the device reachable:

- hang-up / unplug (DeviceDisconnectedError, or any transport error): LinkLost, then
  reopen by the same URL with backoff, start a new session, LinkRestored;
- no ack after all retries (SendFailed) or a silent peer (PeerSilent): LinkLost, then a
  new session is tried with backoff on the same open transport;
- a new boot id in the device's HELLO: DeviceRebooted (its state is gone);
- with a key (link_options["key"], protocol 1.1): frames that fail authentication are
  FrameTampered, and a device that cannot authenticate is LinkLost with the reason, then
  tried again with backoff.

Sends (from the controller's thread) go through the same lock as the reader's link work,
so the link is never used by two threads at once. A subclass says which device kind it
expects (`KIND`) and turns delivered messages into events (`_on_message`).
"""
from __future__ import annotations

import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable

from drivers import events as ev
from drivers.errors import TransportError
from drivers.reconnect import Backoff, reopen_with_backoff
from drivers.transport import Transport
from drivers.url import transport_for_url
from firmware_bridge.enums import DeviceKind
from firmware_bridge.link import Link
from firmware_bridge.link_events import (
    Connected,
    Delivered,
    PeerRebooted,
    PeerSilent,
    ProtocolViolation,
    SendFailed,
    SessionRefused,
    Tampered,
)
from firmware_bridge.messages import Error, Hello, Message, StatusQuery

Post = Callable[[ev.DeviceEvent], None]
HOST_SERIAL = "tablectl"


class DeviceDriver(ABC):
    KIND: DeviceKind  # set by each subclass

    def __init__(
        self,
        url: str | Transport,
        post: Post,
        *,
        name: str,
        max_read_wait: float = 0.05,
        backoff: Backoff | None = None,
        clock: Callable[[], float] = time.monotonic,
        usb_backend=None,
        link_options: dict | None = None,
    ) -> None:
        self.name = name
        self.transport = url if isinstance(url, Transport) else transport_for_url(url, usb_backend=usb_backend)
        self._post = post
        self._clock = clock
        self._max_read_wait = max_read_wait
        self._backoff = backoff or Backoff()
        host = Hello(DeviceKind.HOST, boot_id=secrets.randbits(32), serial=HOST_SERIAL)
        self.link = Link(host, **(link_options or {}))
        self._lock = threading.RLock()  # guards the link and writes
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pending: list[ev.DeviceEvent] = []  # events made under the lock, posted after
        self.up = False  # a session with the right kind of device is up
        self.ever_up = False
        self.peer: Hello | None = None
        self._lost = False  # LinkLost posted and not yet answered by LinkRestored
        self._restart_at: float | None = None  # when to try a new session on an open transport
        self._refused_for: str | None = None  # the last refusal reported while the link is down

    # ------------------------------------------------------------------ public API
    def start(self) -> DeviceDriver:
        if self._thread is not None:
            raise RuntimeError(f"{self.name}: driver already started")
        self._thread = threading.Thread(target=self._run, name=f"driver-{self.name}", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the reader thread and close the transport (idempotent)."""
        self._stop.set()
        self.transport.cancel_read()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        self.transport.close()

    def __enter__(self) -> DeviceDriver:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.close()

    def request_status(self) -> None:
        """Ask the device for its whole state (answered by a status event)."""
        self._send(StatusQuery())

    # ------------------------------------------------------------------ for subclasses
    @abstractmethod
    def _on_message(self, msg: Message, now: float) -> None:
        """Turn a delivered message into events (call self._emit); runs under the lock."""

    def _on_session_up(self, hello: Hello, rebooted: bool, now: float) -> None:
        """A session is up (first, restored, or after a reboot). Default: ask for status."""
        self.link.send(StatusQuery(), now)

    def _on_session_renewed(self, now: float) -> None:
        """The device started a new session while ours was up: its sends had failed, and what
        failed was dropped (PROTOCOL.md §2), so ask again for its state."""
        self.link.send(StatusQuery(), now)

    def _emit(self, cls, **fields) -> None:
        self._pending.append(cls(device=self.name, at=self._clock(), **fields))

    def _send(self, msg: Message) -> None:
        """Queue a reliable message and write what the link has to send (thread-safe).

        A write failure is left to the reader thread, which sees the same dead handle on
        its next read and reconnects; the link's queue is cleared by the new session.
        """
        with self._lock:
            self.link.send(msg, self._clock())
            self._flush()

    # ------------------------------------------------------------------ reader thread
    def _run(self) -> None:
        try:
            if self._connect():
                while not self._stop.is_set():
                    self._step()
        finally:
            self._post_pending()

    def _connect(self) -> bool:
        """(Re)open the transport by its URL with backoff, then start a session."""
        def retrying(error: TransportError, delay: float) -> None:
            with self._lock:
                self._link_lost(f"cannot open {self.transport.description}: {error}")
            self._post_pending()

        if not reopen_with_backoff(self.transport, self._stop, self._backoff, retrying):
            return False
        with self._lock:
            self.link.reset()
            self.link.start(self._clock())
            self._restart_at = None
            self._flush()
        return True

    def _step(self) -> None:
        now = self._clock()
        deadline = self.link.next_deadline()
        if self._restart_at is not None:
            deadline = self._restart_at if deadline is None else min(deadline, self._restart_at)
        wait = self._max_read_wait if deadline is None else min(self._max_read_wait, max(0.0, deadline - now))
        try:
            data = self.transport.read(wait)
        except TransportError as error:
            self._hang_up(str(error))
            return
        with self._lock:
            now = self._clock()
            link_events = self.link.receive(data, now) if data else []
            link_events += self.link.poll(now)
            for event in link_events:
                self._on_link_event(event, now)
            if self._restart_at is not None and now >= self._restart_at:
                self._restart_at = None
                self.link.reset()
                self.link.start(now)
            self._flush()
        # Posting is the last thing before the next select(): the loop thread, woken by it,
        # then finds the GIL free instead of waiting for this thread's ack write.
        self._post_pending()

    def _hang_up(self, reason: str) -> None:
        with self._lock:
            self.up = False
            self._link_lost(reason)
        self._post_pending()
        if self._stop.is_set():
            return
        self._connect()

    def _flush(self) -> None:
        out = self.link.outgoing()
        if out and self.transport.is_open:
            try:
                self.transport.write(out)
            except TransportError:
                pass  # the reader's next read sees the dead handle and reconnects

    def _post_pending(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
        for event in pending:
            self._post(event)

    # ------------------------------------------------------------------ link events
    def _on_link_event(self, event, now: float) -> None:
        if isinstance(event, Delivered):
            if self.up:
                if isinstance(event.msg, Error):
                    self._emit(ev.DeviceError, code=int(event.msg.code), detail=event.msg.detail)
                else:
                    self._on_message(event.msg, now)
        elif isinstance(event, (Connected, PeerRebooted)):
            self._session_up(event.hello, isinstance(event, PeerRebooted), now)
        elif isinstance(event, SendFailed):
            self._session_down(f"no ack from the {self.KIND.name.lower()} after "
                               f"{self.link.tx.retries} retries", now)
        elif isinstance(event, PeerSilent):
            self._session_down(f"{self.KIND.name.lower()} silent for {event.silent_for:.1f} s", now)
        elif isinstance(event, ProtocolViolation):
            self._emit(ev.DeviceError, code=None, detail=event.detail)
        elif isinstance(event, Tampered):
            self._emit(ev.FrameTampered, detail=event.detail, count=event.count)
        elif isinstance(event, SessionRefused):  # no key, another key, or a downgrade: try again later
            reason = f"no session: {event.reason}"
            if self._lost and reason != self._refused_for:
                self._emit(ev.LinkRefused, reason=reason)  # already down (e.g. "cannot open"): now for this
            self._refused_for = reason
            self._session_down(reason, now)

    def _session_up(self, hello: Hello, rebooted: bool, now: float) -> None:
        if hello.kind != self.KIND:
            detail = (f"{self.transport.description} is a {hello.kind.name.lower()}, "
                      f"expected a {self.KIND.name.lower()}")
            if not self._lost:
                self._emit(ev.DeviceError, code=None, detail=detail)
            self._session_down(detail, now)
            return
        was_up, self.up, self.peer = self.up, True, hello
        self._refused_for = None
        self._backoff.reset()
        if not self.ever_up:
            self.ever_up = True
            self._lost = False
            self._emit(ev.DeviceConnected, hello=hello)
        elif self._lost:
            self._lost = False
            self._emit(ev.LinkRestored, hello=hello)
        if rebooted:
            self._emit(ev.DeviceRebooted, hello=hello)
        if not was_up or rebooted:
            self._on_session_up(hello, rebooted, now)
        else:
            self._on_session_renewed(now)

    def _session_down(self, reason: str, now: float) -> None:
        """The transport is open but the session failed: try a new one after a backoff."""
        self.up = False
        self._link_lost(reason)
        self._restart_at = now + self._backoff.next_delay()

    def _link_lost(self, reason: str) -> None:
        if not self._lost:
            self._lost = True
            self._emit(ev.LinkLost, reason=reason)

"""The driver base: one device, one transport, one firmware_bridge Link, driven by a reactor.

Everything runs on the reactor's thread (drivers/reactor.py): the transport's fd is
registered with the reactor, and its callback reads what arrived, feeds the sans-IO link,
writes what the link wants written (acks first) and posts typed events (drivers.events)
through the `post` callback, there and then. The link's deadlines (retransmission,
heartbeat, silence) and the reconnect backoff are one reactor timer, re-armed after every
step. The device is kept reachable:

- hang-up / unplug (DeviceDisconnectedError, or any transport error): LinkDown, then
  reopen by the same URL (at once, then with backoff; LinkDown again for each open that
  fails), start a new session: SessionUp with the device's HELLO;
- no ack after all retries (SendFailed) or a silent peer (PeerSilent): LinkDown, then a
  new session is tried with backoff on the same open transport;
- a device of another kind, or (with a key, link_options["key"], protocol 1.1) one that
  cannot authenticate: SessionRefused with the reason, then tried again with backoff; frames
  that fail authentication are FrameTampered;
- with `durable_acks` (the daemon's shoe, protocol 1.2): a message is not
  acknowledged when it arrives but when the owner says it is durable. The last event a message
  gives is posted as AckWhenDurable(event, release); a message that gives no event (a resend
  the driver drops unseen) is acknowledged at once.

A transport without a file descriptor (pyusb) gets one reader thread that only reads and
hands each transfer's bytes to the reactor (`call_soon_threadsafe`); the link is still used
on the reactor's thread alone. A driver reports raw facts only, each time they happen: every
session that comes up, every loss, every refusal. What they mean for the device's session
(connected, restored, rebooted, lost; waiting / ok / lost / absent, the boot id) is judged by
its one owner, the daemon's controller/daemon/sessions.py. A driver keeps only what its
transport needs: whether a session is up (to take messages, send, heartbeat) and when to
reopen or try again. A subclass says which device kind it expects
(`KIND`) and turns delivered messages into events (`_on_message`).
"""
from __future__ import annotations

import enum
import functools
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Required, TypedDict

from drivers import events as ev
from drivers.errors import TransportError
from drivers.reactor import FdHandle, Reactor
from drivers.reconnect import Backoff
from drivers.transport import Transport
from drivers.url import transport_for_url
from firmware_bridge.enums import DeviceKind, type_name
from firmware_bridge.link import Link
from firmware_bridge.link_events import (
    Connected,
    DisputedSeq,
    LinkEvent,
    PeerRebooted,
    PeerSilent,
    ProtocolViolation,
    SendFailed,
    SessionRefused,
    Tampered,
)
from firmware_bridge.messages import (
    Error,
    Hello,
    MalformedPayload,
    Message,
    StatusQuery,
    UnknownMessageType,
    unpack,
)

Post = Callable[[ev.DeviceEvent | ev.AckWhenDurable], None]

if TYPE_CHECKING:  # pyusb has no types: Any to mypy, and still says what is meant
    from usb.backend import IBackend


class DriverOptions(TypedDict, total=False):
    """DeviceDriver's keyword options that each kind of driver passes on unchanged."""
    reactor: Required[Reactor]
    backoff: Backoff | None
    usb_backend: IBackend | None
    link_options: dict[str, Any] | None  # Link's keyword options (ack_timeout=, key=, ...)
    durable_acks: bool  # ack a message only once its event's record is durable (the daemon)
HOST_SERIAL = "tablectl"
USB_READ_WAIT_S = 0.05  # the reader thread's poll: how soon it notices close()
READER_STALL_S = 5.0  # a reader thread whose read has not returned for this long is stuck


class DeviceDriver(ABC):
    KIND: DeviceKind  # set by each subclass

    def __init__(
        self,
        url: str | Transport,
        post: Post,
        *,
        reactor: Reactor,
        name: str,
        backoff: Backoff | None = None,
        usb_backend: IBackend | None = None,
        link_options: dict[str, Any] | None = None,
        durable_acks: bool = False,
    ) -> None:
        self.name = name
        self.transport = url if isinstance(url, Transport) else transport_for_url(url, usb_backend=usb_backend)
        self.reactor = reactor
        self._post = post
        self._backoff = backoff or Backoff()
        host = Hello(DeviceKind.HOST, boot_id=secrets.randbits(32), serial=HOST_SERIAL)
        self.link = Link(host, **{**(link_options or {}), "hold_acks": durable_acks})
        self._collected: list[ev.DeviceEvent] | None = None  # events of the message being handled
        self._timer = reactor.timer(self._on_timer)
        self._fd: FdHandle | None = None
        self._reader: threading.Thread | None = None  # fd-less transports only
        self._reader_beat = 0.0  # time.monotonic() when the reader thread last came back from a read
        self._reader_died: str | None = None  # what ended the current reader thread unexpectedly
        self._handle = 0  # counts the transport's opens: bytes from a reader of an older handle are dropped
        self._started = self._closed = False
        self._ack_due = False  # a release moved the ACK field: one frame carries it, once the turn's releases are done
        self._up = False  # a session with the right kind of device is up: messages are taken
        self._reopen_at: float | None = None  # the transport is closed: when to try to open it
        self._restart_at: float | None = None  # the transport is open: when to try a new session

    # ------------------------------------------------------------------ public API
    def start(self) -> DeviceDriver:
        if self._started:
            raise RuntimeError(f"{self.name}: driver already started")
        self._started = True
        self._reopen_at = self.reactor.now()
        self._arm()
        return self

    def close(self) -> None:
        """Stop watching the device and close the transport (idempotent)."""
        self._closed = True
        self._timer.cancel()
        self._unwatch()
        self.transport.close()

    def __enter__(self) -> DeviceDriver:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def frame_counts(self) -> dict[str, int]:
        """What this driver's line has carried since it was made, for `tablectl status`: what
        the link could not use (out of sequence, repeated, disputed, tampered) and what the
        decoder threw away (garbage bytes, bad CRCs). Plain counters, read from another thread
        (each value is one int: a snapshot may be a frame behind)."""
        stats = self.link.link_stats()
        return {"frames": stats["frames_in"], "out_of_sequence": stats["out_of_order"],
                "repeated": stats["duplicates"], "disputed": stats["disputed"], "tampered": stats["tampered"],
                "garbage_bytes": stats["garbage_bytes"], "bad_crcs": stats["bad_crcs"],
                "bad_headers": stats["bad_headers"], "truncated": stats["truncated"]}

    @property
    def authenticated(self) -> bool:
        """Whether its link takes only authenticated frames (a key is configured, PROTOCOL.md §8)."""
        return self.link.auth is not None

    def problem(self) -> str | None:
        """Why this driver can no longer hear its device, or None: it reads it, or it waits to
        reopen it (a lost device is handled here, not a dead part). For the daemon's watchdog
        (controller/daemon/health.py); called on the reactor's thread."""
        if not self._started:
            return None
        if self._closed:
            return "the driver is closed"
        if self._reopen_at is not None:
            return None if self._timer.armed else "its reopen timer is not armed"
        if self.transport.fileno() is not None:
            return None if self._fd is not None else "its port is open but no longer watched"
        if self._reader_died is not None:
            return f"its USB reader thread died: {self._reader_died}"
        reader = self._reader
        if reader is None or not reader.is_alive():
            return None if self._reader_beat < 0 else "its USB reader thread is not running"
        stuck = time.monotonic() - self._reader_beat
        return f"its USB reader thread has been stuck in one read for {stuck:.0f} s" if stuck > READER_STALL_S else None

    def request_status(self) -> None:
        """Ask the device for its whole state (answered by a status event)."""
        self._send(StatusQuery())

    # ------------------------------------------------------------------ for subclasses
    @abstractmethod
    def _on_message(self, msg: Message, now: float) -> None:
        """Turn a delivered message into events (call self._emit)."""

    def _on_session_up(self, hello: Hello, rebooted: bool, now: float) -> None:
        """A session is up (first, restored, or after a reboot). Default: ask for status."""
        self.link.send(StatusQuery(), now)

    def _on_session_renewed(self, now: float) -> None:
        """The device started a new session while ours was up: its sends had failed, and what
        failed was dropped (PROTOCOL.md §2), so ask again for its state."""
        self.link.send(StatusQuery(), now)

    def _emit(self, cls: type[ev.DeviceEvent], **fields: Any) -> None:
        event = cls(device=self.name, at=self.reactor.now(), **fields)
        if self._collected is not None:
            self._collected.append(event)
        else:
            self._post(event)

    def _send(self, msg: Message) -> None:
        """Queue a reliable message and write what the link has to send. A write failure
        is left to the read side, which sees the same dead handle and reconnects; the
        link's queue is cleared by the new session."""
        self.link.send(msg, self.reactor.now())
        self._flush()
        self._arm()

    # ------------------------------------------------------------------ the reactor's callbacks
    def _on_readable(self, mask: int) -> None:
        try:
            data = self.transport.read_ready()
        except TransportError as error:
            self._hang_up(str(error))
            return
        if data:
            self._on_bytes(data)

    def _on_bytes(self, data: bytes) -> None:
        now = self.reactor.now()
        for event in self.link.receive(data, now):
            self._on_link_event(event, now)
        self._flush()
        self._arm()

    def _on_timer(self, now: float) -> None:
        if self._reopen_at is not None:
            if now >= self._reopen_at:
                self._open(now)
        else:
            for event in self.link.poll(now):
                self._on_link_event(event, now)
            if self._restart_at is not None and now >= self._restart_at and self._reopen_at is None:
                self._restart_at = None
                self.link.reset()
                self.link.start(now)
            self._flush()
        self._arm()

    def _arm(self) -> None:
        if self._closed:
            return
        if self._reopen_at is not None:
            self._timer.at(self._reopen_at)
            return
        deadline = self.link.next_deadline()
        if self._restart_at is not None:
            deadline = self._restart_at if deadline is None else min(deadline, self._restart_at)
        self._timer.at(deadline)

    # ------------------------------------------------------------------ opening and hang-up
    def _open(self, now: float) -> None:
        """Open the transport by its URL; on failure LinkDown, and try again later."""
        try:
            self.transport.open()
        except TransportError as error:
            self._emit(ev.LinkDown, reason=f"cannot open {self.transport.description}: {error}")
            self._reopen_at = now + self._backoff.next_delay()
            return
        self._reopen_at = self._restart_at = None
        self._handle += 1
        self._backoff.reset()
        self._watch()
        self.link.reset()
        self.link.start(now)
        self._flush()

    def _watch(self) -> None:
        fd = self.transport.fileno()
        if fd is not None:
            self._fd = self.reactor.register_fd(fd, self._on_readable)
            return
        self._reader_beat, self._reader_died = time.monotonic(), None
        self._reader = threading.Thread(target=self._read_without_fd, args=(self._handle,),
                                        name=f"driver-{self.name}-usb", daemon=True)
        self._reader.start()

    def _unwatch(self) -> None:
        if self._fd is not None:
            self.reactor.unregister_fd(self._fd)
            self._fd = None
        reader, self._reader = self._reader, None
        if reader is not None and reader is not threading.current_thread():
            self.transport.cancel_read()
            reader.join()

    def _read_without_fd(self, handle: int) -> None:
        """The one thread of an fd-less transport: read, hand each transfer to the reactor.
        It ends when the transport closes or fails (the failure handed over: a negative beat
        says so); anything else that ends it is kept for problem() and the thread's traceback."""
        transport = self.transport
        try:
            while not self._closed and transport.is_open:
                try:
                    data = transport.read(USB_READ_WAIT_S)
                except TransportError as error:
                    reason = str(error)
                    self._reader_beat = -1.0
                    self.reactor.call_soon_threadsafe(functools.partial(self._from_reader, handle, None, reason))
                    return
                self._reader_beat = time.monotonic()
                if data:
                    self.reactor.call_soon_threadsafe(functools.partial(self._from_reader, handle, data, None))
            self._reader_beat = -1.0
        except BaseException as error:
            if handle == self._handle:
                self._reader_died = f"{type(error).__name__}: {error}"
            raise

    def _from_reader(self, handle: int, data: bytes | None, error: str | None) -> None:
        if self._closed or handle != self._handle or self._reopen_at is not None:
            return  # from a handle closed since (our close, or a hang-up already handled)
        if error is not None:
            self._hang_up(error)
        elif data:
            self._on_bytes(data)

    def _hang_up(self, reason: str) -> None:
        if self._closed:
            return
        self._up = False
        if self._fd is not None:
            self.reactor.unregister_fd(self._fd)
            self._fd = None
        self._reader = None  # an fd-less transport's reader has returned (or returns on close)
        self.transport.close()
        self._emit(ev.LinkDown, reason=reason)
        self._reopen_at = self.reactor.now()  # reopen at once, then with backoff
        self._restart_at = None
        self._arm()

    def _flush(self) -> None:
        out = self.link.outgoing()
        if out and self.transport.is_open:
            try:
                self.transport.write(out)
            except TransportError:
                pass  # the next read sees the dead handle and reconnects

    # ------------------------------------------------------------------ link events
    def _on_link_event(self, event: LinkEvent, now: float) -> None:
        if isinstance(event, Message):  # delivered by the link as itself
            collected: list[ev.DeviceEvent] = []
            self._collected = collected
            try:
                if self._up:
                    if isinstance(event, Error):
                        self._emit(ev.DeviceError, code=int(event.code), detail=event.detail)
                    else:
                        self._on_message(event, now)
            finally:
                self._collected = None
            self._hand_over(collected, event if self.link.hold_acks else None, now)
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
            disputed = None if event.disputed is None else disputed_json(event.disputed)
            self._emit(ev.FrameTampered, detail=event.detail, count=event.count, disputed=disputed)
        elif isinstance(event, SessionRefused):  # no key, another key, or a downgrade: try again later
            self._session_down(f"no session: {event.reason}", now, refused=True)

    def _hand_over(self, events: list[ev.DeviceEvent], held: Message | None, now: float) -> None:
        """Post a delivered message's events; with `held` (durable_acks: the message, not yet
        acknowledged) the last one carries the release of its ack, and a message without events
        is acknowledged now."""
        if held is None:
            for event in events:
                self._post(event)
            return
        if not events:
            self.link.release(held, now)  # written by the caller's flush
            return
        for event in events[:-1]:
            self._post(event)
        self._post(ev.AckWhenDurable(events[-1], functools.partial(self._release, held)))

    def _release(self, held: Message) -> None:
        """The message `held` is durable: acknowledge it (on the reactor's thread). The ack is
        cumulative: the releases of one commit (a round's cards read at once) go out as one
        frame, written once they are all made, later in the same reactor turn."""
        if self._closed:
            return
        if self.link.release(held, self.reactor.now()) and not self._ack_due:
            self._ack_due = True
            self.reactor.call_soon(self._send_ack)

    def _send_ack(self) -> None:
        self._ack_due = False
        if not self._closed:
            self._flush()
            self._arm()

    def _session_up(self, hello: Hello, rebooted: bool, now: float) -> None:
        if hello.kind != self.KIND:
            detail = (f"{self.transport.description} is a {hello.kind.name.lower()}, "
                      f"expected a {self.KIND.name.lower()}")
            self._session_down(detail, now, refused=True, hello=hello)
            return
        was_up, self._up = self._up, True
        self._backoff.reset()
        self._emit(ev.SessionUp, hello=hello)
        if not was_up or rebooted:  # a new session (the link saw a new boot id: what this driver keeps of the device is gone)
            self._on_session_up(hello, rebooted, now)
        else:
            self._on_session_renewed(now)

    def _session_down(self, reason: str, now: float, *, refused: bool = False, hello: Hello | None = None) -> None:
        """The transport is open but the session failed (`refused`: the device answered but
        gets none; `hello`: it is another kind of device): try a new one after a backoff."""
        self._up = False
        if refused:
            self._emit(ev.SessionRefused, reason=reason, hello=hello)
        else:
            self._emit(ev.LinkDown, reason=reason)
        self._restart_at = now + self._backoff.next_delay()


def disputed_json(disputed: DisputedSeq) -> dict[str, Any]:
    """Both frames of a disputed SEQ as the journal keeps them: type, exact payload, and its
    fields when it decodes."""
    def frame(msg_type: int, payload: bytes) -> dict[str, Any]:
        try:
            msg = unpack(msg_type, payload)
            fields = {name: (value.value if isinstance(value, enum.Enum) else value)
                      for name, value in vars(msg).items()}
        except (UnknownMessageType, MalformedPayload):
            fields = None
        return {"type": type_name(msg_type), "payload": payload.hex(" "), "fields": fields}
    return {"seq": disputed.seq, "taken": frame(disputed.taken_type, disputed.taken_payload),
            "repeat": frame(disputed.repeat_type, disputed.repeat_payload)}

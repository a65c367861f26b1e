"""The sans-IO link both ends use (host driver and virtual firmware); PROTOCOL.md §2, §4, §8.

It never touches an fd and never reads a clock: bytes come in through `receive`,
time through `now` (monotonic seconds), and bytes to write come out of `outgoing`.
The caller's loop is:

    events = link.receive(data, now)     # when bytes arrive (a message from the peer is itself an event)
    events = link.poll(now)              # when link.next_deadline() has passed
    link.send(msg, now)                  # when there is something to say
    write(link.outgoing())               # after any of the above

Sessions: `start(now)` sends a HELLO that asks for a reply (the host after opening the
port, a device after rebooting). A HELLO resynchronises the receiver's sequence
numbers; its boot_id tells a reconnect (`Connected`) from a reboot (`PeerRebooted`).

With a `key` (protocol 1.1) every frame is authenticated and nothing else is accepted:
HELLOs carry a nonce and a MAC under the device key, every other frame a counter and a MAC
under the session key both HELLOs imply. A frame that fails is `Tampered` (dropped, never
delivered, never acted on); a peer that cannot or will not authenticate is `SessionRefused`.

Protocol 1.2 (PROTOCOL.md §9): with `hold_acks` (the host) a delivered message is acknowledged
only once its owner calls `release(msg)` with it (its record is committed and fsynced), so a
crash before that makes the peer send it again; with `keep_unacked` (a 1.2 device) the retry
limit ends the session but nothing is dropped: the unacknowledged messages go again, in
order, in the next session (`SessionFailed`), and at most `queue_limit` wait (`send` says
False when the queue is full).
"""
from __future__ import annotations

import collections
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from firmware_bridge.enums import DeviceKind, Msg, NakReason, type_name
from firmware_bridge.frame import (
    FLAG_ACK_VALID,
    FLAG_AUTH,
    FLAG_RELIABLE,
    KNOWN_FLAGS,
    PROTOCOL_MAJOR,
    Frame,
    FrameDecoder,
    plain_frame_bytes,
)
from firmware_bridge.link_auth import LinkAuth, random_nonce
from firmware_bridge.link_events import (
    Connected,
    DisputedSeq,
    LinkEvent,
    PeerRebooted,
    PeerSilent,
    ProtocolViolation,
    SendFailed,
    SessionFailed,
    SessionRefused,
    Tampered,
)
from firmware_bridge.messages import (
    Ack,
    Heartbeat,
    Hello,
    MalformedPayload,
    Message,
    Nak,
    UnknownMessageType,
    pack,
    unpack,
)
from firmware_bridge.sender import SEQ_MOD, Pending, Sender

LINK_OWNED = (Hello, Ack, Nak)
AUTH_NAKS = {
    NakReason.AUTH_REQUIRED: "it has a key for us and our HELLO was not authenticated (configure its key)",
    NakReason.AUTH_UNAVAILABLE: "it has no key, so it cannot authenticate (protocol 1.1)",
    NakReason.AUTH_FAILED: "our HELLO does not verify with its key: its key differs from ours",
}
_ACK = pack(Ack())  # the frame sent most: its type and (empty) payload, packed once
TAMPER_REPORT_INTERVAL = 1.0  # a burst of tampered frames is one report a second, with its count


class Link:
    def __init__(self, local: Hello, *, ack_timeout: float = 0.25, retries: int = 5, window: int = 8,
                 heartbeat_interval: float | None = 1.0, silence_timeout: float | None = 3.5,
                 idle_flush: float = 0.05, key: bytes | None = None,
                 nonces: Callable[[], int] = random_nonce, hold_acks: bool = False,
                 keep_unacked: bool = False, queue_limit: int | None = None):
        if queue_limit is not None and queue_limit < window:
            raise ValueError(f"queue_limit={queue_limit} must hold at least a window ({window})")
        self.local = replace(local, reply_requested=False)
        self.hold_acks = hold_acks  # ack a delivered message only once release() says it is durable
        self.keep_unacked = keep_unacked  # protocol 1.2 device: a failed session drops nothing
        self.queue_limit = queue_limit  # messages waiting (unsent + in flight), None: unbounded
        self.heartbeat_interval = heartbeat_interval
        self.silence_timeout = silence_timeout
        self.idle_flush = idle_flush
        self.decoder = FrameDecoder()
        self.tx = Sender(ack_timeout, retries, window)
        self.auth = LinkAuth(key, local.kind == DeviceKind.HOST, nonces) if key is not None else None
        self.peer: Hello | None = None  # kept across reset(): a new boot_id means a reboot
        self.stats = {"frames_in": 0, "frames_out": 0, "delivered": 0, "duplicates": 0,
                      "out_of_order": 0, "naks_sent": 0, "violations": 0, "tampered": 0, "unverifiable": 0,
                      "disputed": 0, "queue_full": 0}
        self._tamper_quiet_until: float | None = None  # reports held back until then
        self._tamper_held: tuple[int, str] = (0, "")
        self._clear_session()

    def _clear_session(self) -> None:
        self._out: list[bytes] = []
        self.rx_expected: int | None = None  # None: no HELLO from the peer in this session
        # what each SEQ taken in this session carried (type, payload), for the last half of the
        # sequence space: a repeat with other contents is not a retransmission (§2, §8.1)
        self._taken: dict[int, tuple[int, bytes]] = {}
        self._disputed: set[int] = set()  # SEQs already reported as disputed
        self._rx_acked = 0  # the ACK field: the last SEQ received in order AND released (durable)
        # [seq, message held (None: not held), released] not yet acked, in order
        self._held: collections.deque[list[Any]] = collections.deque()
        self.connected = False
        self.awaiting_reply = False
        self._down = False  # our sends failed: restart the session when the peer is heard again
        self._ack_owed = False
        self._nak_sent_for: int | None = None
        self._last_request: tuple[int, int, int] | None = None  # (boot_id, seq, nonce) of the peer's last request
        self._request_seq: int | None = None  # SEQ of our own outstanding request
        self._request_ack = (0, 0)  # the ACK field our request carries (what we had received)
        self._unproven: Hello | None = None  # a requester we answered, not yet heard in the session
        self._last_rx: float | None = None  # when the peer was last heard
        self._last_tx = 0.0  # when we last sent (meaningful once a session is up)
        self._last_byte: float | None = None
        self._silence_reported = False
        if self.auth is not None:
            self.auth.close()

    # ------------------------------------------------------------ the caller's API

    def start(self, now: float) -> None:
        """Begin a session: HELLO with a reply requested; other messages wait for the reply."""
        self.tx.renumber()
        self.connected = False
        self.awaiting_reply = True
        self._down = False
        self._nak_sent_for = None
        self._unproven = None
        # the HELLO (and its retransmissions) still ack what we received, so the peer does
        # not resend that renumbered in the new session
        self._request_ack = self._ack_field()
        if self.auth is not None:
            self.auth.new_request(self.local.boot_id)
        request = self.tx.take(replace(self.local, reply_requested=True), now)
        self._request_seq = request.seq
        self._expect(None)
        self._transmit(request, now)

    def send(self, msg: Message, now: float) -> bool:
        """Queue ``msg``. Reliable messages wait for a session and a free window slot, then are
        retransmitted until acked; an unreliable one (HEARTBEAT) goes now, or nowhere when
        no session is up. False: a reliable message found the queue full (`queue_limit`) and
        was not queued."""
        if isinstance(msg, LINK_OWNED):
            raise ValueError(f"{type(msg).__name__} is sent by the link itself (use start())")
        if not msg.RELIABLE:
            if self.connected:
                self._transmit_unreliable(msg, now)
            return True
        if self.queue_limit is not None and self.queued() >= self.queue_limit:
            self.stats["queue_full"] += 1
            return False
        self.tx.unsent.append(msg)
        self._pump(now)
        return True

    def queued(self) -> int:
        """Reliable messages not yet acknowledged: in flight and waiting (our HELLO not counted)."""
        return len(self.tx.unsent) + sum(not isinstance(p.msg, Hello) for p in self.tx.inflight)

    def release(self, msg: Message | None, now: float) -> bool:
        """With `hold_acks`: the delivered message `msg` (that very object: it is its own receipt)
        is durable, so it may be acknowledged (with everything before it that is released too).
        One delivered before the peer restarted its sequence (a new session) is void: the peer
        sends it again. True when the ACK field moved (an ack is then owed: `outgoing()` carries
        it); False for anything not held (released already, void, or never held)."""
        if msg is None:
            return False
        for entry in self._held:
            if entry[1] is msg:
                entry[1], entry[2] = None, 1
                break
        else:
            return False
        return self._ack_released()

    def _ack_released(self) -> bool:
        moved = False
        while self._held and self._held[0][2]:
            self._rx_acked = self._held.popleft()[0]
            moved = True
        if moved:
            self._ack_owed = True
        return moved

    def _consumed(self, seq: int, held: Message | None = None) -> None:
        """Frame `seq` was taken in order: ack it now, or (`held`: the message it carried) once
        release() names that message; the ack never passes a held frame. Nothing is owed while
        the ACK field cannot move: an ack repeating the last one would tell the peer nothing
        and cost it a wake-up on every card."""
        if held is not None:
            self._held.append([seq, held, 0])
        elif self._held:
            self._held.append([seq, None, 1])  # acknowledged with the held ones before it
        else:
            self._rx_acked = seq
            self._ack_owed = True

    def _restart_rx(self, seq: int) -> None:
        """The peer's HELLO numbered `seq` starts its sequence again: expect seq + 1; what was
        held from before is never acked (the peer resends it)."""
        self._expect((seq + 1) % SEQ_MOD)
        self._rx_acked = seq
        self._held.clear()

    def receive(self, data: bytes, now: float) -> list[LinkEvent]:
        self._last_byte = now
        return self._on_frames(self.decoder.feed(data), now)

    def _on_frames(self, frames: list[Frame], now: float) -> list[LinkEvent]:
        events: list[LinkEvent] = []
        for frame in frames:
            events += self._on_frame(frame, now)
        if frames and self._down and not (self.connected or self.awaiting_reply):
            self.start(now)  # the peer is back after our sends failed
        self._pump(now)
        return events

    def poll(self, now: float) -> list[LinkEvent]:
        events: list[LinkEvent] = []
        if self.decoder.pending and self._last_byte is not None and now - self._last_byte >= self.idle_flush:
            events += self._on_frames(self.decoder.flush(), now)
        if self.tx.due(now):
            if self.tx.exhausted():
                if self.keep_unacked:  # 1.2: the session ends, the messages stay for the next one
                    self.tx.renumber()
                    events.append(SessionFailed(len(self.tx.unsent)))
                else:
                    events += [SendFailed(msg) for msg in self.tx.clear()]
                self.connected = self.awaiting_reply = False
                self._down = True
            else:
                for pending in self.tx.retransmit(now):
                    self._transmit(pending, now)
        if self.auth is not None and self.auth.renew_due and not self.awaiting_reply:
            self.start(now)  # a new session key before the frame counter runs out
        if self.connected and self.heartbeat_interval is not None \
                and now - self._last_tx >= self.heartbeat_interval:
            self._transmit_unreliable(Heartbeat(int(now * 1000) % (1 << 32)), now)
        silence_due = self._silence_due()
        if silence_due is not None and self._last_rx is not None and now >= silence_due:
            self._silence_reported = True
            events.append(PeerSilent(now - self._last_rx))
        events += self._held_tamper_report(now)
        self._pump(now)
        return events

    def outgoing(self) -> bytes:
        return b"".join(self.outgoing_frames())

    def outgoing_frames(self) -> list[bytes]:
        """What to write, one encoded frame per item (fault injection works per frame)."""
        if self._ack_owed:
            msg_type, payload = _ACK  # packed once: no Ack built for every ack
            self._emit(msg_type, self.tx.next_seq, 0, payload, self._last_tx)
            self._ack_owed = False  # with a key and no session key yet, an ack cannot be sent
        frames, self._out = self._out, []
        return frames

    def next_deadline(self) -> float | None:
        # asked after every read and write (the driver re-arms its timer): no lists on the way
        due = self.tx.deadline
        for t in (self._silence_due(),
                  self._last_tx + self.heartbeat_interval if self.connected and self.heartbeat_interval is not None
                  else None,
                  self._last_byte + self.idle_flush if self.decoder.pending and self._last_byte is not None else None,
                  self._tamper_quiet_until if self._tamper_held[0] else None):
            if t is not None and (due is None or t < due):
                due = t
        return due

    def reset(self, boot_id: int | None = None) -> None:
        """Forget the session and everything queued (a reboot, or a host reopening the port).

        Our boot_id changes (to ``boot_id`` or the next number) so the peer sees a new
        session, and our sequence numbers start again from 0 as a rebooted firmware's
        would; the peer's last HELLO is kept so its reboot is still noticed.
        """
        new_boot = (self.local.boot_id + 1) % (1 << 32) if boot_id is None else boot_id
        self.local = replace(self.local, boot_id=new_boot)
        self.tx.clear()
        self.tx.next_seq = 0
        self.decoder.reset()
        self._clear_session()

    def link_stats(self) -> dict[str, int]:
        return {**self.stats, "retransmissions": self.tx.retransmissions, **self.decoder.stats()}

    # ------------------------------------------------------------ sending

    def _pump(self, now: float) -> None:
        while self.connected and not self.awaiting_reply and self.tx.ready():
            self._transmit(self.tx.take(self.tx.unsent.popleft(), now), now)

    def _ack_field(self) -> tuple[int, int]:
        if self.rx_expected is None:
            return self._request_ack if self.awaiting_reply else (0, 0)
        return self._rx_acked, FLAG_ACK_VALID

    def _emit(self, msg_type: int, seq: int, flags: int, payload: bytes, now: float, *,
              hello_request: bool | None = None, plain: bool = False) -> None:
        """Encode and queue one frame; with a key it is signed (unless `plain`: the refusals
        a side without a session key can only send in the clear)."""
        ack, ack_flag = self._ack_field()
        if self.auth is None or plain:
            data = plain_frame_bytes(msg_type, seq, ack, flags | ack_flag, payload)
        else:
            signed = self.auth.encode(Frame(msg_type, seq, ack, flags | ack_flag, payload), hello_request)
            if signed is None:
                return  # nothing but a HELLO goes out before the session key exists
            data = signed
        self._out.append(data)
        self.stats["frames_out"] += 1
        self._ack_owed = False
        self._last_tx = now

    def _transmit(self, pending: Pending, now: float) -> None:
        hello_request = pending.msg.reply_requested if isinstance(pending.msg, Hello) else None
        self._emit(pending.msg_type, pending.seq, FLAG_RELIABLE, pending.payload, now, hello_request=hello_request)

    def _transmit_unreliable(self, msg: Message, now: float, plain: bool = False) -> None:
        msg_type, payload = _ACK if type(msg) is Ack else pack(msg)
        self._emit(msg_type, self.tx.next_seq, 0, payload, now, plain=plain)

    def _nak(self, seq: int, reason: NakReason, plain: bool = False) -> None:
        self.stats["naks_sent"] += 1
        self._transmit_unreliable(Nak(seq, reason), self._last_tx, plain)

    # ------------------------------------------------------------ receiving

    def _silence_due(self) -> float | None:
        if not self.connected or self.silence_timeout is None or self._silence_reported or self._last_rx is None:
            return None
        return self._last_rx + self.silence_timeout

    def _heard(self, now: float) -> None:
        self._last_rx = now
        self._silence_reported = False

    def _violation(self, detail: str) -> list[LinkEvent]:
        self.stats["violations"] += 1
        return [ProtocolViolation(detail)]

    def _on_frame(self, frame: Frame, now: float) -> list[LinkEvent]:
        self.stats["frames_in"] += 1
        if self.auth is None:
            self._heard(now)  # with a key, only a frame that passes authentication is the peer's
        if frame.version != PROTOCOL_MAJOR:
            self._nak(frame.seq, NakReason.UNSUPPORTED_VERSION)
            return self._violation(f"frame of protocol version {frame.version}, we speak {PROTOCOL_MAJOR}")
        flags = frame.flags  # its bits tested here, not through Frame's properties: every frame comes this way
        if flags & ~KNOWN_FLAGS:
            return self._violation(f"{type_name(frame.msg_type)} frame with unknown flag bits 0x{flags:02x}")
        events: list[LinkEvent] = []
        if frame.msg_type == Msg.HELLO:
            return self._on_hello(frame, now)
        if self.auth is not None:
            admitted, events = self._admit(self.auth, frame, now)
            if not admitted:
                return events
        elif flags & FLAG_AUTH:
            return self._violation(f"authenticated {type_name(frame.msg_type)} frame, but no key is configured")
        if flags & FLAG_ACK_VALID and not self.awaiting_reply:
            self.tx.acked(frame.ack, now)
        if not flags & FLAG_RELIABLE:
            return events + self._on_unreliable(frame, now)
        if self.rx_expected is None:
            if not self.awaiting_reply:
                self._nak(frame.seq, NakReason.NOT_CONNECTED)
            return events
        return events + self._on_sequenced(frame, self.rx_expected, now)

    def _expect(self, seq: int | None) -> None:
        """A new session's numbering from the peer: what was taken under the old one is
        forgotten (its SEQs will be used again for other messages)."""
        self.rx_expected = seq
        self._taken.clear()
        self._disputed.clear()

    def _on_sequenced(self, frame: Frame, expected: int, now: float) -> list[LinkEvent]:
        distance = (frame.seq - expected) % SEQ_MOD
        if distance >= SEQ_MOD // 2:  # already taken: a retransmission, unless it says something else
            taken = self._taken.get(frame.seq)
            if taken is not None and taken != (frame.msg_type, frame.payload):
                return self._repeat_differs(frame, taken, now)
            self.stats["duplicates"] += 1
            self._ack_owed = True
            return []
        if distance > 0:  # one or more frames before this one were lost
            self.stats["out_of_order"] += 1
            if self._nak_sent_for != expected:
                self._nak_sent_for = expected
                self._nak(expected, NakReason.OUT_OF_ORDER)
            return []
        self.rx_expected = (expected + 1) % SEQ_MOD
        self._taken[frame.seq] = (frame.msg_type, frame.payload)
        self._taken.pop((frame.seq + SEQ_MOD // 2) % SEQ_MOD, None)  # now "ahead", no longer "already taken"
        self._nak_sent_for = None
        try:
            msg = unpack(frame.msg_type, frame.payload)
        except UnknownMessageType as error:
            self._consumed(frame.seq)
            self._nak(frame.seq, NakReason.UNKNOWN_TYPE)
            return self._violation(f"seq {frame.seq}: {error}")
        except MalformedPayload as error:
            self._consumed(frame.seq)
            self._nak(frame.seq, NakReason.MALFORMED)
            return self._violation(f"seq {frame.seq}: {error}")
        if not msg.RELIABLE or isinstance(msg, Hello):
            self._consumed(frame.seq)
            return self._violation(f"seq {frame.seq}: {type_name(frame.msg_type)} sent as a sequenced frame")
        self.stats["delivered"] += 1
        self._consumed(frame.seq, msg if self.hold_acks else None)
        return [msg]  # delivered as itself: no wrapper on the way to the driver

    def _repeat_differs(self, frame: Frame, taken: tuple[int, bytes], now: float) -> list[LinkEvent]:
        """A frame with a SEQ already taken and other contents: one of the two is not the
        peer's (a CRC lets noise through about once in 4 billion frames; a person at the line
        every time). Dropped, not acknowledged, and reported as tamper with both frames, at
        once the first time for its SEQ, with or without a key."""
        self.stats["disputed"] += 1
        detail = (f"{type_name(frame.msg_type)} frame repeats seq {frame.seq} with other contents than the "
                  f"{type_name(taken[0])} taken with that seq: one of the two was not sent by the peer")
        if frame.seq in self._disputed:
            return self._tampered(detail, now)
        self._disputed.add(frame.seq)
        self.stats["tampered"] += 1
        return [Tampered(detail, disputed=DisputedSeq(frame.seq, taken[0], taken[1], frame.msg_type, frame.payload))]

    def _on_unreliable(self, frame: Frame, now: float) -> list[LinkEvent]:
        try:
            msg = unpack(frame.msg_type, frame.payload)
        except (UnknownMessageType, MalformedPayload) as error:
            return self._violation(f"unsequenced frame: {error}")
        if isinstance(msg, (Ack, Heartbeat)):
            return []
        if isinstance(msg, Nak):
            return self._on_nak(msg, now)
        return self._violation(f"{type_name(frame.msg_type)} must be sent reliably")

    def _on_nak(self, nak: Nak, now: float) -> list[LinkEvent]:
        if nak.reason == NakReason.OUT_OF_ORDER:
            if self.tx.inflight and self.tx.inflight[0].seq == nak.seq:
                for pending in self.tx.retransmit(now):
                    self._transmit(pending, now)
            return []
        if nak.reason == NakReason.NOT_CONNECTED:
            if self.awaiting_reply:
                return []
            self.start(now)
            return self._violation("peer has no session (did it restart?): sent HELLO")
        if nak.reason in AUTH_NAKS:
            return self._on_auth_nak(nak)
        what = self.tx.recent_types.get(nak.seq, "a frame")
        return self._violation(f"peer rejected seq {nak.seq} ({what}): {nak.reason.name}")

    # ------------------------------------------------------------ authentication (PROTOCOL.md §8)

    def _admit(self, auth: LinkAuth, frame: Frame, now: float) -> tuple[bool, list[LinkEvent]]:
        """With a key: may `frame` (not a HELLO) be used? (False, events) when it may not."""
        if not frame.authenticated:
            if frame.msg_type == Msg.NAK and not frame.reliable and self._plain_nak_allowed(frame, auth):
                # a refusal or "no session" from a peer without our session key: its content
                # is taken (it can only end a session attempt), nothing else (not its ACK field)
                return False, self._on_unreliable(frame, now)
            if auth.session is None:
                self.stats["unverifiable"] += 1  # from before this session: nothing to check it with
                return False, []
            return False, self._tampered(f"unauthenticated {type_name(frame.msg_type)} frame (seq {frame.seq}) "
                                         "in an authenticated session", now)
        if auth.session is None:
            self.stats["unverifiable"] += 1
            if frame.reliable and not self.awaiting_reply:
                self._nak(frame.seq, NakReason.NOT_CONNECTED, plain=True)  # the peer has a session we lost
            return False, []
        problem = auth.check(frame)
        if problem is not None:
            return False, self._tampered(f"{type_name(frame.msg_type)} frame (seq {frame.seq}): {problem}", now)
        self._heard(now)
        events: list[LinkEvent] = []
        if self._unproven is not None:  # the requester we answered holds the session key: it is who it says
            events, self._unproven = self._identify(self._unproven), None
        return True, events

    def _plain_nak_allowed(self, frame: Frame, auth: LinkAuth) -> bool:
        try:
            nak = unpack(frame.msg_type, frame.payload)
        except (UnknownMessageType, MalformedPayload):
            return False
        if not isinstance(nak, Nak):
            return False
        if nak.reason == NakReason.NOT_CONNECTED:
            # a peer that lost our session names a reliable frame of ours it could not check: one
            # still unacknowledged in a session of ours (a stale or made-up one restarts nothing)
            return auth.session is not None and any(p.seq == nak.seq for p in self.tx.inflight)
        return nak.reason in AUTH_NAKS

    def _on_auth_nak(self, nak: Nak) -> list[LinkEvent]:
        if not (self.awaiting_reply and nak.seq == self._request_seq):
            return self._violation(f"peer sent NAK {nak.reason.name} for seq {nak.seq}, which is no request of ours")
        return self._refused(f"the peer refused our HELLO: {AUTH_NAKS[nak.reason]}")

    def _refused(self, reason: str) -> list[LinkEvent]:
        """No session this time: forget the attempt, and what was queued as after a failure
        (a 1.2 device keeps it for the next session)."""
        if self.keep_unacked:
            self.tx.renumber()
        else:
            self.tx.clear()
        self.connected = self.awaiting_reply = False
        self._request_seq = None
        return [SessionRefused(reason)]

    def _tampered(self, detail: str, now: float) -> list[LinkEvent]:
        """Report a frame that failed authentication: at once, or folded into one report a
        second while a burst lasts (a flood must not flood the journal)."""
        self.stats["tampered"] += 1
        if self._tamper_quiet_until is not None and now < self._tamper_quiet_until:
            self._tamper_held = (self._tamper_held[0] + 1, detail)
            return []
        self._tamper_quiet_until = now + TAMPER_REPORT_INTERVAL
        return [Tampered(detail)]

    def _held_tamper_report(self, now: float) -> list[LinkEvent]:
        if self._tamper_quiet_until is None or now < self._tamper_quiet_until:
            return []
        count, detail = self._tamper_held
        if not count:
            self._tamper_quiet_until = None
            return []
        self._tamper_held = (0, "")
        self._tamper_quiet_until = now + TAMPER_REPORT_INTERVAL
        return [Tampered(detail, count)]

    # ------------------------------------------------------------ HELLO (PROTOCOL.md §4)

    def _on_hello(self, frame: Frame, now: float) -> list[LinkEvent]:
        try:
            hello = unpack(frame.msg_type, frame.payload)
        except MalformedPayload as error:
            self._nak(frame.seq, NakReason.MALFORMED, plain=True)
            return self._violation(str(error))
        assert isinstance(hello, Hello)
        if hello.protocol[0] != PROTOCOL_MAJOR:
            return self._violation(f"peer speaks protocol {hello.protocol[0]}.{hello.protocol[1]}, "
                                   f"we speak {PROTOCOL_MAJOR}.x: no session")
        if not frame.reliable:
            return self._violation("HELLO sent unsequenced")
        if self.auth is not None:
            return self._on_hello_with_key(self.auth, frame, hello, now)
        if frame.authenticated:
            if hello.reply_requested:
                self._nak(frame.seq, NakReason.AUTH_UNAVAILABLE)
            return self._violation(f"{_who(hello)} asks for authenticated frames (protocol 1.1), "
                                   "but no key is configured for it")
        if hello.reply_requested:
            return self._on_hello_request(frame, hello, now)
        if self.awaiting_reply and frame.ack_valid and frame.ack == self._request_seq:
            return self._on_our_answer(frame, hello, now)
        self._on_other_answer(frame, now)
        return []

    def _on_hello_with_key(self, auth: LinkAuth, frame: Frame, hello: Hello, now: float) -> list[LinkEvent]:
        ours = self.awaiting_reply and frame.ack_valid and frame.ack == self._request_seq
        if not frame.authenticated:  # a downgrade: refused whatever it says
            if hello.reply_requested:
                self._nak(frame.seq, NakReason.AUTH_REQUIRED, plain=True)
            tamper = self._tampered(f"{_who(hello)} sent a HELLO without authentication, "
                                    "but a key is configured for it: refused", now)
            if ours:
                return tamper + self._refused(f"{_who(hello)} answered without authentication "
                                              "though a key is configured for it: refused")
            return tamper
        if hello.reply_requested:
            if not auth.request_verifies(frame):
                self._nak(frame.seq, NakReason.AUTH_FAILED, plain=True)
                return self._tampered(f"{_who(hello)}'s HELLO does not verify with our key "
                                      "(another key, or forged): refused", now)
            if auth.is_host and self.awaiting_reply:
                return []  # both asked at once: the host's request wins, the device answers it
            self._heard(now)
            return self._on_hello_request(frame, hello, now)
        if ours:
            if not auth.answer_verifies(frame, auth.request):
                if auth.answers_an_earlier_request(frame):
                    return []  # a late answer to an earlier request that had the same SEQ (a reset starts at 0)
                detail = (f"{_who(hello)}'s answer to our HELLO does not verify with our key "
                          "(another key, or forged): refused")
                return self._tampered(detail, now) + self._refused(detail)
            self._heard(now)
            return self._on_our_answer(frame, hello, now)
        if auth.answer_verifies(frame, auth.request):
            # our answer, sent again (our ack was lost): acknowledged again, but not proof the
            # peer is there (a recording of it proves nothing), so the silence timer runs on
            self._on_other_answer(frame, now)
            return []
        if auth.answers_an_earlier_request(frame):
            return []  # a late answer to a request we gave up on
        return self._tampered(f"{_who(hello)} sent a HELLO answer that answers no request of ours", now)

    def _on_hello_request(self, frame: Frame, hello: Hello, now: float) -> list[LinkEvent]:
        key = (hello.boot_id, frame.seq, frame.counter)
        if key == self._last_request and not self.awaiting_reply:
            # our reply was lost: send it (and whatever followed) again, same numbers
            for pending in self.tx.retransmit(now):
                self._transmit(pending, now)
            self._ack_owed = True
            return []
        self._last_request = key
        # A requester that kept its receive state says in its ACK what it has. With a key
        # that is not taken on trust: the request may be a replay, so what it names is resent.
        if frame.ack_valid and not self.awaiting_reply and self.auth is None:
            self.tx.acked(frame.ack, now)
        self._restart_rx(frame.seq)
        self._nak_sent_for = None
        self.awaiting_reply = False
        self.tx.renumber()
        if self.auth is not None:
            self.auth.answer(self.local.boot_id, hello.boot_id, frame.counter)
        self._transmit(self.tx.take(self.local, now), now)
        self.connected = True
        if self.auth is not None:
            # Not reported until the requester is heard under the session key (its ack of
            # our answer): a recorded request played again must not pass for a reboot.
            self._unproven = hello
            return []
        return self._identify(hello)

    def _on_our_answer(self, frame: Frame, hello: Hello, now: float) -> list[LinkEvent]:
        # the answer to our start(): its ACK names our request, so a late reply to an
        # earlier request (a previous session) is not mistaken for it
        if self.auth is not None:
            self.auth.answered(self.local.boot_id, hello.boot_id, frame.counter)
        self._restart_rx(frame.seq)
        self._ack_owed = True
        self.awaiting_reply = False
        self.connected = True
        self.tx.acked(frame.ack, now)
        return self._identify(hello)

    def _on_other_answer(self, frame: Frame, now: float) -> None:
        # a reply to a request of ours that crossed the peer's own request, or our answer
        # sent again: an ordinary frame
        if self.rx_expected is not None and frame.seq == self.rx_expected:
            self.rx_expected = (self.rx_expected + 1) % SEQ_MOD
            self._consumed(frame.seq)
            if frame.ack_valid:
                self.tx.acked(frame.ack, now)
        self._ack_owed = True

    def _identify(self, hello: Hello) -> list[LinkEvent]:
        hello = replace(hello, reply_requested=False)  # a session flag, not identity
        previous, self.peer = self.peer, hello
        if previous is not None and previous.boot_id != hello.boot_id:
            return [PeerRebooted(hello, previous.boot_id)]
        return [Connected(hello)]


def _who(hello: Hello) -> str:
    serial = f" {hello.serial}" if hello.serial else ""
    return f"the {hello.kind.name.lower()}{serial} (boot {hello.boot_id:#010x})"

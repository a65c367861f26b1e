"""The sans-IO link both ends use (host driver and virtual firmware); PROTOCOL.md §2 and §4.

It never touches an fd and never reads a clock: bytes come in through `receive`,
time through `now` (monotonic seconds), and bytes to write come out of `outgoing`.
The caller's loop is:

    events = link.receive(data, now)     # when bytes arrive
    events = link.poll(now)              # when link.next_deadline() has passed
    link.send(msg, now)                  # when there is something to say
    write(link.outgoing())               # after any of the above

Sessions: `start(now)` sends a HELLO that asks for a reply (the host after opening the
port, a device after rebooting). A HELLO resynchronises the receiver's sequence
numbers; its boot_id tells a reconnect (`Connected`) from a reboot (`PeerRebooted`).
"""
from __future__ import annotations

from dataclasses import replace

from firmware_bridge.enums import Msg, NakReason, type_name
from firmware_bridge.frame import (
    FLAG_ACK_VALID,
    FLAG_RELIABLE,
    KNOWN_FLAGS,
    PROTOCOL_MAJOR,
    Frame,
    FrameDecoder,
    encode_frame,
)
from firmware_bridge.link_events import (
    Connected,
    Delivered,
    LinkEvent,
    PeerRebooted,
    PeerSilent,
    ProtocolViolation,
    SendFailed,
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


class Link:
    def __init__(self, local: Hello, *, ack_timeout: float = 0.25, retries: int = 5, window: int = 8,
                 heartbeat_interval: float | None = 1.0, silence_timeout: float | None = 3.5,
                 idle_flush: float = 0.05):
        self.local = replace(local, reply_requested=False)
        self.heartbeat_interval = heartbeat_interval
        self.silence_timeout = silence_timeout
        self.idle_flush = idle_flush
        self.decoder = FrameDecoder()
        self.tx = Sender(ack_timeout, retries, window)
        self.peer: Hello | None = None  # kept across reset(): a new boot_id means a reboot
        self.stats = {"frames_in": 0, "frames_out": 0, "delivered": 0, "duplicates": 0,
                      "out_of_order": 0, "naks_sent": 0, "violations": 0}
        self._clear_session()

    def _clear_session(self) -> None:
        self._out: list[bytes] = []
        self.rx_expected: int | None = None  # None: no HELLO from the peer in this session
        self.connected = False
        self.awaiting_reply = False
        self._down = False  # our sends failed: restart the session when the peer is heard again
        self._ack_owed = False
        self._nak_sent_for: int | None = None
        self._last_request: tuple[int, int] | None = None  # (boot_id, seq) of the peer's last request
        self._request_seq: int | None = None  # SEQ of our own outstanding request
        self._request_ack = (0, 0)  # the ACK field our request carries (what we had received)
        self._last_rx = self._last_tx = self._last_byte = None
        self._silence_reported = False

    # ------------------------------------------------------------ the caller's API

    def start(self, now: float) -> None:
        """Begin a session: HELLO with a reply requested; other messages wait for the reply."""
        self.tx.renumber()
        self.connected = False
        self.awaiting_reply = True
        self._down = False
        self._nak_sent_for = None
        # the HELLO (and its retransmissions) still ack what we received, so the peer does
        # not resend that renumbered in the new session
        self._request_ack = self._ack_field()
        request = self.tx.take(replace(self.local, reply_requested=True), now)
        self._request_seq = request.seq
        self.rx_expected = None
        self._transmit(request, now)

    def send(self, msg: Message, now: float) -> None:
        """Queue ``msg``. Reliable messages wait for a session and a free window slot, then are
        retransmitted until acked; an unreliable one (HEARTBEAT) goes now, or nowhere when
        no session is up."""
        if isinstance(msg, LINK_OWNED):
            raise ValueError(f"{type(msg).__name__} is sent by the link itself (use start())")
        if not msg.RELIABLE:
            if self.connected:
                self._transmit_unreliable(msg, now)
            return
        self.tx.unsent.append(msg)
        self._pump(now)

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
                events += [SendFailed(msg) for msg in self.tx.clear()]
                self.connected = self.awaiting_reply = False
                self._down = True
            else:
                for pending in self.tx.retransmit(now):
                    self._transmit(pending, now)
        if self.connected and self.heartbeat_interval is not None \
                and now - self._last_tx >= self.heartbeat_interval:
            self._transmit_unreliable(Heartbeat(int(now * 1000) % (1 << 32)), now)
        if self._silence_due() is not None and now >= self._silence_due():
            self._silence_reported = True
            events.append(PeerSilent(now - self._last_rx))
        self._pump(now)
        return events

    def outgoing(self) -> bytes:
        return b"".join(self.outgoing_frames())

    def outgoing_frames(self) -> list[bytes]:
        """What to write, one encoded frame per item (fault injection works per frame)."""
        if self._ack_owed:
            self._transmit_unreliable(Ack(), self._last_tx)
        frames, self._out = self._out, []
        return frames

    def next_deadline(self) -> float | None:
        times = [self.tx.deadline, self._silence_due()]
        if self.connected and self.heartbeat_interval is not None:
            times.append(self._last_tx + self.heartbeat_interval)
        if self.decoder.pending and self._last_byte is not None:
            times.append(self._last_byte + self.idle_flush)
        times = [t for t in times if t is not None]
        return min(times) if times else None

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
        return (self.rx_expected - 1) % SEQ_MOD, FLAG_ACK_VALID

    def _emit(self, msg_type: int, seq: int, flags: int, payload: bytes, now) -> None:
        ack, ack_flag = self._ack_field()
        self._out.append(encode_frame(Frame(msg_type, seq, ack, flags | ack_flag, payload)))
        self.stats["frames_out"] += 1
        self._ack_owed = False
        if now is not None:
            self._last_tx = now

    def _transmit(self, pending: Pending, now: float) -> None:
        self._emit(pending.msg_type, pending.seq, FLAG_RELIABLE, pending.payload, now)

    def _transmit_unreliable(self, msg: Message, now) -> None:
        msg_type, payload = pack(msg)
        self._emit(msg_type, self.tx.next_seq, 0, payload, now)

    def _nak(self, seq: int, reason: NakReason) -> None:
        self.stats["naks_sent"] += 1
        self._transmit_unreliable(Nak(seq, reason), self._last_tx)

    # ------------------------------------------------------------ receiving

    def _silence_due(self) -> float | None:
        if not self.connected or self.silence_timeout is None or self._silence_reported or self._last_rx is None:
            return None
        return self._last_rx + self.silence_timeout

    def _violation(self, detail: str) -> list[LinkEvent]:
        self.stats["violations"] += 1
        return [ProtocolViolation(detail)]

    def _on_frame(self, frame: Frame, now: float) -> list[LinkEvent]:
        self.stats["frames_in"] += 1
        self._last_rx = now
        self._silence_reported = False
        if frame.version != PROTOCOL_MAJOR:
            self._nak(frame.seq, NakReason.UNSUPPORTED_VERSION)
            return self._violation(f"frame of protocol version {frame.version}, we speak {PROTOCOL_MAJOR}")
        if frame.flags & ~KNOWN_FLAGS:
            return self._violation(f"{type_name(frame.msg_type)} frame with unknown flag bits 0x{frame.flags:02x}")
        if frame.msg_type == Msg.HELLO:
            return self._on_hello(frame, now)
        if frame.ack_valid and not self.awaiting_reply:
            self.tx.acked(frame.ack, now)
        if not frame.reliable:
            return self._on_unreliable(frame, now)
        if self.rx_expected is None:
            if not self.awaiting_reply:
                self._nak(frame.seq, NakReason.NOT_CONNECTED)
            return []
        return self._on_sequenced(frame, now)

    def _on_sequenced(self, frame: Frame, now: float) -> list[LinkEvent]:
        distance = (frame.seq - self.rx_expected) % SEQ_MOD
        if distance >= SEQ_MOD // 2:  # already delivered: a retransmission
            self.stats["duplicates"] += 1
            self._ack_owed = True
            return []
        if distance > 0:  # one or more frames before this one were lost
            self.stats["out_of_order"] += 1
            if self._nak_sent_for != self.rx_expected:
                self._nak_sent_for = self.rx_expected
                self._nak(self.rx_expected, NakReason.OUT_OF_ORDER)
            return []
        self.rx_expected = (self.rx_expected + 1) % SEQ_MOD
        self._ack_owed = True
        self._nak_sent_for = None
        try:
            msg = unpack(frame.msg_type, frame.payload)
        except UnknownMessageType as error:
            self._nak(frame.seq, NakReason.UNKNOWN_TYPE)
            return self._violation(f"seq {frame.seq}: {error}")
        except MalformedPayload as error:
            self._nak(frame.seq, NakReason.MALFORMED)
            return self._violation(f"seq {frame.seq}: {error}")
        if not msg.RELIABLE or isinstance(msg, Hello):
            return self._violation(f"seq {frame.seq}: {type_name(frame.msg_type)} sent as a sequenced frame")
        self.stats["delivered"] += 1
        return [Delivered(msg)]

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
        what = self.tx.recent_types.get(nak.seq, "a frame")
        return self._violation(f"peer rejected seq {nak.seq} ({what}): {nak.reason.name}")

    def _on_hello(self, frame: Frame, now: float) -> list[LinkEvent]:
        try:
            hello = unpack(frame.msg_type, frame.payload)
        except MalformedPayload as error:
            self._nak(frame.seq, NakReason.MALFORMED)
            return self._violation(str(error))
        if hello.protocol[0] != PROTOCOL_MAJOR:
            return self._violation(f"peer speaks protocol {hello.protocol[0]}.{hello.protocol[1]}, "
                                   f"we speak {PROTOCOL_MAJOR}.x: no session")
        if not frame.reliable:
            return self._violation("HELLO sent unsequenced")
        if hello.reply_requested:
            return self._on_hello_request(frame, hello, now)
        if self.awaiting_reply and frame.ack_valid and frame.ack == self._request_seq:
            # the answer to our start(): its ACK names our request, so a late reply to an
            # earlier request (a previous session) is not mistaken for it
            self.rx_expected = (frame.seq + 1) % SEQ_MOD
            self._ack_owed = True
            self.awaiting_reply = False
            self.connected = True
            self.tx.acked(frame.ack, now)
            return self._identify(hello)
        # a reply to a request of ours that crossed the peer's own request: an ordinary frame
        if self.rx_expected is not None and frame.seq == self.rx_expected:
            self.rx_expected = (self.rx_expected + 1) % SEQ_MOD
            if frame.ack_valid:
                self.tx.acked(frame.ack, now)
        self._ack_owed = True
        return []

    def _on_hello_request(self, frame: Frame, hello: Hello, now: float) -> list[LinkEvent]:
        key = (hello.boot_id, frame.seq)
        if key == self._last_request and not self.awaiting_reply:
            # our reply was lost: send it (and whatever followed) again, same numbers
            for pending in self.tx.retransmit(now):
                self._transmit(pending, now)
            self._ack_owed = True
            return []
        self._last_request = key
        if frame.ack_valid and not self.awaiting_reply:
            self.tx.acked(frame.ack, now)  # a peer that kept its receive state says what it has
        self.rx_expected = (frame.seq + 1) % SEQ_MOD
        self._nak_sent_for = None
        self.awaiting_reply = False
        self.tx.renumber()
        self._transmit(self.tx.take(self.local, now), now)
        self.connected = True
        return self._identify(hello)

    def _identify(self, hello: Hello) -> list[LinkEvent]:
        hello = replace(hello, reply_requested=False)  # a session flag, not identity
        previous, self.peer = self.peer, hello
        if previous is not None and previous.boot_id != hello.boot_id:
            return [PeerRebooted(hello, previous.boot_id)]
        return [Connected(hello)]

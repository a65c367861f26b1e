"""The sending half of the link: sequence numbers, the window, acks and retransmission.

Sans-IO like the rest of the link: it never touches an fd and takes `now` from its
caller. Messages wait in `unsent` until the session allows sending, go out with the
next sequence number while the window has room, and stay `inflight` until a
cumulative ack covers them. `renumber()` puts unacknowledged messages back in line
when the peer has lost its receive state (a new session).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from firmware_bridge.messages import Hello, Message, pack

SEQ_MOD = 256
HALF = SEQ_MOD // 2


def seq_covers(ack: int, seq: int) -> bool:
    """Does cumulative ack ``ack`` acknowledge ``seq``? (modulo 256, within half the space)"""
    return (ack - seq) % SEQ_MOD < HALF


@dataclass
class Pending:
    seq: int
    msg: Message
    msg_type: int
    payload: bytes


class Sender:
    def __init__(self, ack_timeout: float, retries: int, window: int):
        if not 1 <= window < HALF:
            raise ValueError(f"window={window} must be 1..{HALF - 1}")
        if retries < 0 or ack_timeout <= 0:
            raise ValueError(f"need retries >= 0 and ack_timeout > 0, got {retries}, {ack_timeout}")
        self.ack_timeout = ack_timeout
        self.retries = retries
        self.window = window
        self.next_seq = 0
        self.unsent: deque[Message] = deque()
        self.inflight: deque[Pending] = deque()
        self.deadline: float | None = None
        self.attempts = 0  # retransmissions of the oldest frame without progress
        self.retransmissions = 0
        self.recent_types: dict[int, str] = {}  # seq -> message name, for NAK reports

    def clear(self) -> list[Message]:
        """Forget everything queued; returns the messages that were dropped, in order."""
        dropped = [p.msg for p in self.inflight] + list(self.unsent)
        self.unsent.clear()
        self.inflight.clear()
        self.deadline = None
        self.attempts = 0
        return dropped

    def take(self, msg: Message, now: float) -> Pending:
        """Give ``msg`` the next sequence number and keep it until acknowledged."""
        msg_type, payload = pack(msg)
        pending = Pending(self.next_seq, msg, msg_type, payload)
        self.recent_types[pending.seq] = type(msg).__name__
        self.next_seq = (self.next_seq + 1) % SEQ_MOD
        self.inflight.append(pending)
        if self.deadline is None:
            self.deadline = now + self.ack_timeout
        return pending

    def ready(self) -> bool:
        return bool(self.unsent) and len(self.inflight) < self.window

    def acked(self, ack: int, now: float) -> bool:
        """Drop what ``ack`` covers; True if that was progress."""
        progressed = False
        while self.inflight and seq_covers(ack, self.inflight[0].seq):
            self.inflight.popleft()
            progressed = True
        if progressed:
            self.attempts = 0
            self.deadline = now + self.ack_timeout if self.inflight else None
        return progressed

    def due(self, now: float) -> bool:
        return self.deadline is not None and now >= self.deadline

    def exhausted(self) -> bool:
        return self.attempts >= self.retries

    def retransmit(self, now: float) -> list[Pending]:
        """Everything unacknowledged, oldest first (go-back-N); counts one attempt."""
        if not self.inflight:
            return []
        self.attempts += 1
        self.retransmissions += len(self.inflight)
        self.deadline = now + self.ack_timeout if self.inflight else None
        return list(self.inflight)

    def renumber(self) -> None:
        """The peer lost its receive state: unacknowledged messages go back in line (HELLOs drop)."""
        again = [p.msg for p in self.inflight if not isinstance(p.msg, Hello)]
        self.inflight.clear()
        self.unsent.extendleft(reversed(again))
        self.deadline = None
        self.attempts = 0

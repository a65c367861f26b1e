"""What the link reports to whoever drives it (a host driver or a virtual firmware): the peer's
messages themselves, and these events about the session."""
from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.messages import Hello, Message


@dataclass(frozen=True)
class Connected:
    """A session is up with this peer: its first HELLO, or a new session with the same boot_id."""
    hello: Hello


@dataclass(frozen=True)
class PeerRebooted:
    """The peer sent a HELLO with a new boot_id: its counters and state were reset."""
    hello: Hello
    previous_boot_id: int


@dataclass(frozen=True)
class SendFailed:
    """The retry limit was exceeded: this message was not acknowledged and the link is down."""
    msg: Message


@dataclass(frozen=True)
class SessionFailed:
    """Protocol 1.2: the retry limit ended the session, and nothing was dropped: `kept`
    messages wait to go again, in order, in the next session."""
    kept: int


@dataclass(frozen=True)
class ProtocolViolation:
    """Something the peer sent could not be used (unknown type, bad version...); we keep running."""
    detail: str


@dataclass(frozen=True)
class PeerSilent:
    """Nothing at all has been heard from a connected peer for ``silent_for`` seconds."""
    silent_for: float


@dataclass(frozen=True)
class DisputedSeq:
    """Two frames of the peer's one SEQ with different contents (PROTOCOL.md §2, §8.1): the
    first was taken (delivered, or consumed as unusable), the repeat was dropped. One of the
    two was not the peer's, and the link cannot tell which."""
    seq: int
    taken_type: int
    taken_payload: bytes
    repeat_type: int
    repeat_payload: bytes


@dataclass(frozen=True)
class Tampered:
    """Frames that failed authentication (protocol 1.1): a bad or missing MAC, a replayed
    counter, an unauthenticated HELLO where a key is configured; or, with or without a key, a
    frame repeating a SEQ already taken with other contents (`disputed`). None was delivered or
    acted on. Bursts are reported at most once a second: `count` frames, the last one's
    `detail`; a disputed SEQ is reported at once, once per SEQ, never folded into a burst."""
    detail: str
    count: int = 1
    disputed: DisputedSeq | None = None


@dataclass(frozen=True)
class SessionRefused:
    """A session attempt ended without a session: the peer could not authenticate (no key,
    another key) or answered without authentication while we have a key. What was queued is
    dropped, as after a failure; the owner decides when to try again."""
    reason: str


# A message from the peer is delivered as itself (a Message), exactly once per sender sequence
# number. With the link's `hold_acks` it is not acknowledged before `Link.release(msg)` says it
# is durable; otherwise it is acknowledged at once.
LinkEvent = (Message | Connected | PeerRebooted | SendFailed | SessionFailed | ProtocolViolation | PeerSilent
             | Tampered | SessionRefused)

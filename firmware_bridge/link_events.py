"""What the link reports to whoever drives it (a host driver or a virtual firmware)."""
from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.messages import Hello, Message


@dataclass(frozen=True)
class Delivered:
    """A message from the peer, exactly once per sender sequence number."""
    msg: Message


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
class ProtocolViolation:
    """Something the peer sent could not be used (unknown type, bad version...); we keep running."""
    detail: str


@dataclass(frozen=True)
class PeerSilent:
    """Nothing at all has been heard from a connected peer for ``silent_for`` seconds."""
    silent_for: float


LinkEvent = Delivered | Connected | PeerRebooted | SendFailed | ProtocolViolation | PeerSilent

"""Typed, frozen events the device drivers post into the controller's loop.

Every event carries `device` (the driver's name, e.g. "shoe") and `at` (time.monotonic()
when the driver saw it). Fields are the message's own: drivers decide nothing about rules,
so a card is its raw uint16 wire code (a foreign card is the controller's business), and
they report raw facts about the link: each session that comes up, each loss, each refusal,
each status whole. What those mean for the device's session (connected, restored, rebooted,
lost; which status fields changed; the proof a shoe owes) is judged in one place,
controller/daemon/sessions.py.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.messages import Hello


@dataclass(frozen=True, kw_only=True)
class DeviceEvent:
    device: str
    at: float


# --- every device: the link, as it happens (what it means for the session is the daemon's) --
@dataclass(frozen=True, kw_only=True)
class SessionUp(DeviceEvent):
    """A session is up: the device's HELLO answered ours. Every one is posted (the first, one
    after a loss, a reboot's, one the device started again itself); whether it is a first
    connect, a return or a reboot is the session owner's to say from the boot id
    (controller/daemon/sessions.py)."""
    hello: Hello


@dataclass(frozen=True, kw_only=True)
class LinkDown(DeviceEvent):
    """No usable link, each time it happens: a hang-up or unplug, a failed open (once per
    attempt), no ack after all retries, a silent device. The driver keeps trying with
    backoff: it reopens the same path, or starts a new session on the open port."""
    reason: str


@dataclass(frozen=True, kw_only=True)
class SessionRefused(DeviceEvent):
    """The device answered, but no session came up, each attempt: it cannot authenticate
    (protocol 1.1: no key, another key, a downgrade), or it is another kind of device (`hello`:
    its HELLO). Tried again with backoff."""
    reason: str
    hello: Hello | None = None


@dataclass(frozen=True, kw_only=True)
class DeviceError(DeviceEvent):
    """The device reported an ERROR (firmware_bridge.enums.ErrorCode) or the link saw a
    protocol violation (code None: unknown type, malformed payload ...)."""
    code: int | None
    detail: str


@dataclass(frozen=True, kw_only=True)
class FrameTampered(DeviceEvent):
    """Frames on the device's line failed authentication (protocol 1.1, PROTOCOL.md §8): forged,
    altered, replayed, or unauthenticated where a key is configured; or, with or without a key,
    a frame repeated a SEQ already taken with other contents (`disputed`: both frames, as
    {"seq", "taken", "repeat"}, each {"type", "payload" (hex), "fields"}; the taken one was
    delivered). A burst is one event a second: `count` frames, the last one's `detail`."""
    detail: str
    count: int = 1
    disputed: Mapping[str, Any] | None = None


# --- shoe -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CardDrawn(DeviceEvent):
    """A card left the shoe, as the shoe said it. It is also the table's card input as it is
    (controller/table/inputs.py `Card`): the daemon journals it and hands it on, no copy made.
    `code` is the uint16 wire code (games.cards; 0 with `misread`: no read). `draw_counter`:
    the shoe's own count, 1 for the first card after loading (None: a card from elsewhere, a
    test's or a replay's, that has none). `double_draw`: the shoe saw this card leave together
    with another one (each card of the pair carries the flag). `misread`: it saw a card leave
    but could not read it. `device_time`: the shoe's clock, ms since its boot."""
    code: int
    draw_counter: int | None = None
    double_draw: bool = False
    misread: bool = False
    device_time: int = 0
    device: str = field(default="shoe", kw_only=True)  # a table's own caller (tests, the demo) names no device
    at: float = field(default=0.0, kw_only=True)


@dataclass(frozen=True, kw_only=True)
class DrawRepeated(DeviceEvent):
    """A CARD that repeats one already delivered in this boot of the shoe, byte for byte
    (resent across a reconnect): dropped."""
    draw_counter: int
    code: int


@dataclass(frozen=True, kw_only=True)
class ShoeStatusHeard(DeviceEvent):
    """The shoe's whole status, each time it sends one (answering a status query at every
    session, or unprompted when something changed). Which fields changed since the last status,
    and whether it carries a session's proof, is the session owner's to say."""
    present: bool
    door_open: bool
    cut_card: bool
    empty: bool
    draw_counter: int


# --- panel ----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class ButtonPressed(DeviceEvent):
    button: int


@dataclass(frozen=True, kw_only=True)
class ButtonReleased(DeviceEvent):
    button: int


@dataclass(frozen=True, kw_only=True)
class KeyTurned(DeviceEvent):
    on: bool


@dataclass(frozen=True, kw_only=True)
class PanelState(DeviceEvent):
    """The panel's whole state (answer to a status request, e.g. after a reconnect)."""
    key_on: bool
    pressed: tuple[int, ...]


# --- lights ---------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class LampReport(DeviceEvent):
    """Every lamp the board has: lamps[i] is lamp i's pattern (firmware_bridge LampPattern)."""
    lamps: tuple[int, ...]


@dataclass(frozen=True)
class AckWhenDurable:
    """`event`, whose message the device gets acknowledged only once its owner calls `release`:
    after the commit that holds the event's record is fsynced (a driver with `durable_acks`,
    PROTOCOL.md §9). Until then the device keeps the message and sends it again if need be."""
    event: DeviceEvent
    release: Callable[[], None]

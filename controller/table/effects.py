"""What the table asks the daemon to do: journal, light lamps, publish, reply, time.

`Table.handle` returns them in this order, which is part of the contract:
    Journal records (a result's or a void's durable record among them)
    Lamps (the whole lamp picture by name, after every input: the lights driver diffs it)
    StartTimer / CancelTimer
    Publish events
    Reply (exactly one for a Command input, none otherwise)
    FollowUp (an input to hand back once all the above is carried out)
so a result is durable before its lamps light, and lamps change in the same event-loop turn
as the card that decided them. What need not hold the lamps back (a result's settlement) is
a FollowUp: the daemon hands its input back to `handle` after the lamps, and any input
handled sooner does that work first, so nothing ever sees the table without it.
"""
from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field


class Pattern(str, enum.Enum):
    OFF = "off"
    ON = "on"
    SLOW = "slow"  # slow blink
    FAST = "fast"  # fast blink


@dataclass(frozen=True)
class Journal:
    kind: str  # a controller.journal.kinds.RecordKind: round_opened, card, result, void, shoe, ...
    payload: Mapping
    durable: bool = False  # fsync before the next effect (results, voids, settlements, shoes)


@dataclass(frozen=True)
class Lamps:
    states: Mapping[str, str]  # lamp name -> Pattern value, for every lamp of the game


@dataclass(frozen=True)
class Publish:
    event: Mapping  # for the event stream: {"event": "card", ...}


@dataclass(frozen=True)
class Reply:
    ok: bool
    message: str
    fields: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class StartTimer:
    name: str
    seconds: float  # (re)start: a running timer of the same name is replaced


@dataclass(frozen=True)
class CancelTimer:
    name: str


@dataclass(frozen=True)
class FollowUp:
    input: object  # a table input (controller.table.inputs) for `handle`, after every effect before it


Effect = Journal | Lamps | Publish | Reply | StartTimer | CancelTimer | FollowUp

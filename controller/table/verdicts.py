"""What becomes of a card out of the shoe: one verdict.

The card flow (controller.table.cards) decides it, one rule per function, from the round's
state and the card alone, changing nothing; the round in play applies it in one place
(`RoundInPlay.apply`, one function per verdict type). docs/table.md, "What becomes of a card",
lists every outcome.

  Deal          deal it to the hand the game names
  Wait          the round is held: it waits in the hold, judged at its turn once resolved
  Irregularity  journal an irregularity under `rule` (with the card's own record first, if
                `status`): the round takes the rule's consequence (void, hold, refuse),
                noted with no round in progress
  JoinHold      cards the draw counter shows left the shoe unseen join the hold in force
  Burn          a burn card
  Ignore        a card of a round already void: journaled as its evidence, nothing more
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.table.arrival import Arrival
from games.round import Deal as Dealt
from games.round import IrregularityRule, RoundState


@dataclass(frozen=True)
class Deal:
    card: Arrival
    to: Dealt  # the hand and position it goes to
    state: RoundState  # the round once it is dealt (the game already took it)


@dataclass(frozen=True)
class Wait:
    card: Arrival


@dataclass(frozen=True)
class Irregularity:
    rule: IrregularityRule
    detail: str
    evidence: dict | None = None  # None: what the table knew (RoundInPlay.table_evidence)
    card: Arrival | None = None
    status: str | None = None  # the card's own record before the irregularity's (None: no record)
    pending: tuple[Arrival, ...] = ()  # the cards a hold under `rule` keeps waiting
    keyed: int = 0  # how many of them, at the front, the supervisor keys in
    shoe_state: Mapping | None = None  # where cards left the shoe unheard


@dataclass(frozen=True)
class JoinHold:
    rule: IrregularityRule
    detail: str
    evidence: dict
    cards: tuple[Arrival, ...]
    shoe_state: Mapping


@dataclass(frozen=True)
class Burn:
    card: Arrival
    foreign: Irregularity | None = None  # a burn card that is not of this shoe: noted


@dataclass(frozen=True)
class Ignore:
    card: Arrival


Verdict = Deal | Wait | Irregularity | JoinHold | Burn | Ignore

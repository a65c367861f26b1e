"""After a crash: what the journal knows, and how the table takes up from it.

The daemon reads the tail of its journal (controller.journal.read_tail: the records the
table's Journal effects wrote, in order), builds `TableRecovery.from_tail(tail)` from the
tail's one fold (controller.journal.recovery.TailFold, the one place that knows which record
kinds matter to a restart) and calls `table.restore(recovery)` on a fresh Table before the
first input. The round that was in progress is resumed only where that is
provably consistent, else voided citing local ruling L4:

  no round in progress           nothing to do; the shoe and round number carry on
  result journaled, not settled  the result stands (it was durable before its lamps lit):
                                 back to `result`, the dealer confirms
  cards complete, no result yet  the result follows from the journaled cards: decided now
  bets open (no card yet)        back to `betting`
  bets closed / dealing /        held (local ruling L4) until the shoe's draw counter equals
  drawing / decisions            the last one journaled: then resumed, else void. A shoe that
                                 keeps no counter cannot prove it: void at once
  held for the supervisor        held again: the same hold (holds.hold_from_journal, from the
                                 `hold` its irregularity record journaled and the `held` cards
                                 since), its cards waiting in order; the supervisor resolves it as
                                 before. The shoe's counter is still owed: cards it shows left
                                 meanwhile join the hold, judged at their turn as if heard (ruling
                                 24); one that cannot prove the order voids (L4). Void (L4, order
                                 altered, the detail says why) where the journal cannot prove the
                                 hold: no `hold` field (an older journal), a hold for the shoe's
                                 counter, a hold that does not fit the cards, or a shoe without a
                                 draw counter
  cards that do not replay       void (L4, order altered)

It also keeps, for the shoe (or deck) in play, the integrity checks whose alarm is journaled and
the alarms no `accept_shoe` or new shoe answered since: they still block (local ruling L7).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from controller.journal.recovery import TailFold


class Tail(Protocol):
    """controller.journal.JournalTail, as far as the table reads it: its one fold."""

    @property
    def fold(self) -> TailFold: ...


@dataclass(frozen=True)
class RecoveredShoe:
    number: int
    state: str  # the shoe machine's state
    codes_out: tuple[int, ...] = ()  # wire codes of every known card out of this shoe (or deck)
    drawn: int = 0
    unknown: int = 0
    burned: int = 0
    burn_card: int | None = None
    burn_remaining: int | None = None
    cut_card_seen: bool = False
    rounds_left: int | None = None
    draw_counter: int | None = None


@dataclass(frozen=True)
class RecoveredRound:
    number: int
    spots: tuple[int, ...] = ()
    bets_closed: bool = False
    steps: tuple[tuple, ...] = ()  # ("card", code) and ("decision", spot, decision) in journal order
    held: bool = False  # held for the supervisor when the daemon stopped
    result_recorded: bool = False
    # the hold as its irregularity record journaled it (holds.Hold.to_journal), its `pending`
    # extended by the `held` cards journaled since; None where the journal does not say it
    hold: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class TableRecovery:
    last_round: int = 0
    shoe: RecoveredShoe | None = None
    round: RecoveredRound | None = None  # opened, neither settled nor void
    spots: tuple[int, ...] | None = None  # the live spots last set
    player_dealer: tuple[int | None, int, int] | None = None  # (seat, hands_left, offer_from)
    checks_fired: tuple[str, ...] = ()  # integrity checks whose alarm is journaled for the shoe in play
    shoe_alarms: tuple[Mapping[str, Any], ...] = ()  # their irregularity records not answered since (L7)
    shift: Mapping[str, Any] | None = None  # the last `shift` record (controller/table/shifts.py)

    @classmethod
    def from_tail(cls, tail: Tail) -> TableRecovery:
        """From the journal's tail as the daemon reads it at start-up (controller.journal.read_tail),
        through its one fold (controller.journal.recovery.TailFold)."""
        return cls.from_fold(tail.fold)

    @classmethod
    def from_journal(cls, records: Iterable[tuple[str, Mapping]]) -> TableRecovery:
        """From the table's own journal records (kind, payload), oldest first (the same fold).
        Records of other kinds (the daemon's device and command records) are skipped."""
        return cls.from_fold(TailFold.of_pairs(records))

    @classmethod
    def from_fold(cls, fold: TailFold) -> TableRecovery:
        """The table's part of the fold: its shoe as the last `shoe_state` left it, the round in
        progress, the sticky settings, the integrity alarms still standing."""
        brief, shoe = fold.brief, None
        if brief is not None and brief.get("number"):
            shoe = RecoveredShoe(
                number=int(brief["number"]), state=str(brief["state"]), codes_out=tuple(fold.codes_out),
                drawn=int(brief.get("drawn", 0)), unknown=int(brief.get("unknown", 0)),
                burned=int(brief.get("burned", 0)), burn_card=brief.get("burn_card"),
                burn_remaining=brief.get("burn_remaining"), cut_card_seen=bool(brief.get("cut_card_seen")),
                rounds_left=brief.get("rounds_left"), draw_counter=brief.get("draw_counter"))
        rnd, current = None, fold.round
        if current is not None:
            rnd = RecoveredRound(current["number"], current["spots"], current["bets_closed"],
                                 tuple(current["steps"]), current["held"], current["result_recorded"],
                                 current["hold"] if current["held"] else None)
        return cls(fold.last_round, shoe, rnd, fold.spots, fold.player_dealer, tuple(fold.checks_fired),
                   tuple(fold.shoe_alarms), fold.shift)

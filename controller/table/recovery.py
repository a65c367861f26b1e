"""After a crash: what the journal knows, and how the table takes up from it.

The daemon reads the tail of its journal (controller.journal.read_tail: the records the
table's Journal effects wrote, in order), builds `TableRecovery.from_tail(tail)` and calls
`table.restore(recovery)` on a fresh Table before the first input. The round that was in progress is resumed only where that is
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

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from controller.journal.kinds import SHOE_STARTS, ShoeEvent
from controller.journal.kinds import RecordKind as R
from games.integrity import IRREGULARITY_KIND


class Tail(Protocol):
    """controller.journal.JournalTail, as far as the table reads it."""

    def pairs(self) -> Iterator[tuple[str, Mapping[str, Any]]]: ...


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
        """From the journal's tail as the daemon reads it at start-up (controller.journal.read_tail)."""
        return cls.from_journal(tail.pairs())

    @classmethod
    def from_journal(cls, records: Iterable[tuple[str, Mapping]]) -> TableRecovery:
        """Fold the table's own journal records (kind, payload), oldest first. Records of other
        kinds (the daemon's device and command records) are skipped."""
        last_round, spots, bank, brief = 0, None, None, None
        codes: list[int] = []  # cards out of the current shoe
        current: dict | None = None
        fired: list[str] = []
        alarms: list[Mapping[str, Any]] = []
        shift: Mapping[str, Any] | None = None
        for kind, p in records:
            if isinstance(p.get("shoe_state"), Mapping):
                brief = p["shoe_state"]
            if kind == R.SHOE and p.get("event") in SHOE_STARTS:
                codes, fired, alarms = [], [], []
            elif kind == R.SHOE and p.get("event") == ShoeEvent.ACCEPTED:
                alarms = []
            elif kind == R.IRREGULARITY and p.get("kind") == IRREGULARITY_KIND:
                fired.append(str(p.get("check")))
                alarms.append(p)
            elif kind == R.ROUND_OPENED:
                last_round = max(last_round, int(p["round"]))
                current = {"number": int(p["round"]), "spots": tuple(p.get("spots") or ()), "bets_closed": False,
                           "steps": [], "held": False, "result_recorded": False, "hold": None}
            elif kind == R.SPOTS:
                spots = tuple(p["spots"])
                if current is not None and p.get("round") == current["number"]:
                    current["spots"] = spots
            elif kind == R.CARD:
                if (not p.get("reconstructed") or p.get("keyed_in")) and p.get("card") is not None:
                    codes.append(int(p["code"]))
                if current is not None and p.get("round") == current["number"]:
                    if p.get("status") == "dealt":
                        current["steps"].append(("card", int(p["code"])))
                    elif p.get("status") == "held" and current["hold"] is not None:
                        current["hold"]["pending"].append(dict(p))
            elif current is not None and p.get("round") == current["number"]:
                if kind == R.BETS_CLOSED:
                    current["bets_closed"] = True
                elif kind == R.DECISION:
                    current["steps"].append(("decision", int(p["spot"]), str(p["decision"])))
                elif kind == R.IRREGULARITY and p.get("consequence") == "hold":
                    current["held"] = True
                    hold = p.get("hold")
                    current["hold"] = ({**hold, "pending": list(hold.get("pending") or ())}
                                       if isinstance(hold, Mapping) else None)
                elif kind == R.ROUND_RESUMED:
                    current["held"], current["hold"] = False, None
                elif kind == R.RESULT:
                    current["result_recorded"] = True
                elif kind in (R.VOID, R.SETTLED):
                    current = None
            if kind == R.SHIFT:
                shift = p
            if kind == R.PLAYER_DEALER:
                bank = (p.get("seat"), int(p.get("hands_left", 0)), int(p.get("offer_from", 1)))
        shoe = None
        if brief is not None and brief.get("number"):
            shoe = RecoveredShoe(
                number=int(brief["number"]), state=str(brief["state"]), codes_out=tuple(codes),
                drawn=int(brief.get("drawn", 0)), unknown=int(brief.get("unknown", 0)),
                burned=int(brief.get("burned", 0)), burn_card=brief.get("burn_card"),
                burn_remaining=brief.get("burn_remaining"), cut_card_seen=bool(brief.get("cut_card_seen")),
                rounds_left=brief.get("rounds_left"), draw_counter=brief.get("draw_counter"))
        rnd = None
        if current is not None:
            rnd = RecoveredRound(current["number"], current["spots"], current["bets_closed"],
                                 tuple(current["steps"]), current["held"], current["result_recorded"],
                                 current["hold"] if current["held"] else None)
        return cls(last_round, shoe, rnd, spots, bank, tuple(fired), tuple(alarms), shift)

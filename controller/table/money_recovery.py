"""After a restart: the money of the round a stop interrupted, from the journal's tail.

    money = RecoveredMoney.from_journal(tail.pairs())       # beside TableRecovery
    table.restore(recovery, shoes, money=money, chips=chip_records)

The tail reaches back to the last `round_opened` (controller.journal.recovery), so it holds that
round's `wagers` record (the wagers of record), its `settlement` (the payouts owed) and any
`payouts_accepted`; the `wagers` commands given while its bets were open are replayed from
their `command` records (the daemon journals every command before the table answers it; one the
table refused is refused again, as it was). The mispays found at a refused confirm and not
accepted since stand again (their lamps blink, status lists them, the same reading is not
journaled twice); each clears when the sensor's session reads its space right, and the next
confirm checks every space again against the payouts owed, so a restart between the result and
the confirm loses neither the payouts nor the check.

The chip registry is not in the tail: the daemon reads every `chips` record of the journal at
start-up (ChipRegistry.from_records).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from controller.journal.kinds import RecordKind as R
from games.money import RoundMoney, Settled, parse_amount
from games.round import IrregularityKind as K


def signed_amount(text: object) -> Fraction:
    """A journaled amount, which may be negative (a bettor's net on a loss)."""
    value = str(text)
    return -parse_amount(value[1:]) if value.startswith("-") else parse_amount(value)


def money_from_json(payload: Mapping[str, Any]) -> RoundMoney:
    """A `settlement` record's wagers as RoundMoney (the order kept)."""
    rows = []
    for w in payload.get("wagers") or ():
        rows.append(Settled(int(w["seat"]), str(w["bet"]), signed_amount(w["stake"]), signed_amount(w["net"]),
                            signed_amount(w["back"]), signed_amount(w.get("commission", "0"))))
    return RoundMoney(tuple(rows))


REPORTED = (K.FOREIGN_CHIP.value, K.LATE_WAGER.value, K.WAGER_REMOVED.value)


@dataclass(frozen=True)
class RecoveredMoney:
    round: int | None = None  # the last round opened
    wagers: Mapping[str, Any] | None = None  # its `wagers` record
    settlement: Mapping[str, Any] | None = None  # its `settlement` record
    accepted: bool = False  # a `payouts_accepted` for it
    commanded: tuple[Mapping[str, Any], ...] = ()  # the args of its `wagers` commands, in order, before "No more bets"
    # its foreign_chip, late_wager and wager_removed records: not reported again when the sensor re-reads the spaces
    reported: tuple[Mapping[str, Any], ...] = ()
    mispays: tuple[Mapping[str, Any], ...] = ()  # its mispay records since the last accept: the latest per space

    @classmethod
    def from_journal(cls, records: Iterable[tuple[str, Mapping[str, Any]]]) -> RecoveredMoney:
        number: int | None = None
        wagers = settlement = None
        accepted, closed = False, False
        commanded: list[Mapping[str, Any]] = []
        reported: list[Mapping[str, Any]] = []
        mispays: dict[tuple[object, object], Mapping[str, Any]] = {}
        for kind, p in records:
            if kind == R.ROUND_OPENED:
                number, wagers, settlement, accepted, commanded, closed = int(p["round"]), None, None, False, [], False
                reported, mispays = [], {}
            elif number is None:
                continue
            elif kind == R.BETS_CLOSED and p.get("round") == number:
                closed = True
            elif kind == R.COMMAND and p.get("name") == "wagers" and not closed and isinstance(p.get("args"), Mapping):
                commanded.append(p["args"])
            elif kind == R.WAGERS and p.get("round") == number:
                wagers = p
            elif kind == R.SETTLEMENT and p.get("round") == number:
                settlement = p
            elif kind == R.PAYOUTS_ACCEPTED and p.get("round") == number:
                accepted, mispays = True, {}
            elif kind == R.IRREGULARITY and p.get("round") == number and p.get("kind") in REPORTED:
                reported.append(p)
            elif kind == R.IRREGULARITY and p.get("round") == number and p.get("kind") == K.MISPAY.value:
                mispays[(p.get("seat"), p.get("bet"))] = p
        return cls(number, wagers, settlement, accepted, tuple(commanded), tuple(reported), tuple(mispays.values()))

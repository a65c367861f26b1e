"""A round's money as the journal tells it: the wagers of record, the settlement, the
supervisor's acceptances, and the money irregularities (docs/journal.md describes the records).

`RoundView` (rounds.py) keeps one `MoneySeen` a round; recall, `shoe report` and the dealer
page read it. Amounts stay the records' decimal strings; `drop` and `house_net` are summed
exactly (Fraction), never as floats.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from controller.journal.kinds import RecordKind as R
from games.money import BadAmount, format_amount, parse_amount
from games.round import IrregularityKind as I

MONEY_KINDS = (R.WAGERS, R.SETTLEMENT, R.PAYOUTS_ACCEPTED)
# The irregularities about money (the `kind` of an irregularity record).
MONEY_IRREGULARITIES = (I.FOREIGN_CHIP, I.LATE_WAGER, I.WAGER_REMOVED, I.MISPAY)


def signed_amount(text: object) -> Fraction:
    """A record's amount string ("25", "-12.5") exactly; BadAmount naming it otherwise."""
    if not isinstance(text, str):
        raise BadAmount(f"amount {text!r} is not a decimal string")
    negative = text.startswith("-")
    value = parse_amount(text[1:] if negative else text)
    return -value if negative else value


def total(amounts: Iterable[object]) -> str:
    """The exact sum of record amounts, as a decimal string."""
    return format_amount(sum((signed_amount(a) for a in amounts), Fraction(0)))


@dataclass
class MoneySeen:
    wagers: dict[str, Any] | None = None  # the `wagers` record (frozen at no more bets), round left out
    settlement: dict[str, Any] | None = None  # the last `settlement` record, round left out
    accepted: list[dict[str, Any]] = field(default_factory=list)  # `payouts_accepted` records, round left out

    @property
    def any(self) -> bool:
        return self.wagers is not None or self.settlement is not None or bool(self.accepted)

    def drop(self) -> str | None:
        """What was wagered on the round: the stakes of the wagers of record (refused ones did not
        play); "0" on a void round (every stake went back); None without a `wagers` record."""
        if self.wagers is None:
            return None
        if self.settlement is not None and self.settlement.get("void") is True:
            return "0"
        return total(w.get("stake") for w in _entries(self.wagers.get("wagers")))

    def house_net(self) -> str | None:
        """What the house netted, as the settlement says ("0" on a void); None before it."""
        if self.settlement is None:
            return None
        net = self.settlement.get("house_net")
        return format_amount(signed_amount(net))

    def banked(self) -> dict[str, Any] | None:
        """A round banked by a player-dealer (Fortune 7, rulings 25-26): its seat and stake, and
        after the result its net, fee and what must stand on the bank's space; the fees taken
        before the deal (their total) and whether a void returned them; where the bank ended and
        the wager (its index in the settlement) that exhausted it. None for a house-banked round."""
        wagers, settlement = self.wagers or {}, self.settlement or {}
        frozen, settled = wagers.get("player_dealer"), settlement.get("player_dealer")
        if not isinstance(frozen, Mapping) and not isinstance(settled, Mapping):
            return None
        pd = {**(frozen if isinstance(frozen, Mapping) else {}), **(settled if isinstance(settled, Mapping) else {})}
        fees, bank = wagers.get("fees"), settlement.get("bank")
        return {"seat": pd.get("seat"), "stake": pd.get("stake"), "net": pd.get("net"), "fee": pd.get("fee"),
                "back": pd.get("back"), "fees": fees.get("total") if isinstance(fees, Mapping) else None,
                "fees_returned": "fees_returned" in settlement,
                "bank_end": bank.get("end") if isinstance(bank, Mapping) else None,
                "exhausted_at": bank.get("exhausted_at") if isinstance(bank, Mapping) else None}

    def to_json(self) -> dict[str, Any]:
        return {"wagers": self.wagers, "settlement": self.settlement, "payouts_accepted": self.accepted,
                "drop": self._safely(self.drop), "house_net": self._safely(self.house_net),
                "player_dealer": self.banked()}

    @staticmethod
    def _safely(amount: Any) -> str | None:
        try:
            value: str | None = amount()
        except (BadAmount, ValueError):  # an unreadable amount is shown as the record has it, not summed
            return None
        return value


def _entries(value: object) -> list[Mapping[str, Any]]:
    return [entry for entry in value if isinstance(entry, Mapping)] if isinstance(value, list) else []


def is_money_irregularity(payload: Mapping[str, Any]) -> bool:
    return payload.get("kind") in MONEY_IRREGULARITIES


def money_over(rounds: Iterable[MoneySeen]) -> dict[str, Any] | None:
    """Over several rounds (a shoe): how many were wagered, their drop and the house's net,
    summed exactly; a round whose amounts cannot be read is counted in `unreadable`, not
    summed. None when no round had money."""
    seen = [money for money in rounds if money.any]
    if not seen:
        return None
    drops, nets, unreadable = [], [], 0
    for money in seen:
        summary = money.to_json()
        if (money.wagers is not None and summary["drop"] is None) or (money.settlement is not None and summary["house_net"] is None):
            unreadable += 1
            continue
        drops += [summary["drop"]] if summary["drop"] is not None else []
        nets += [summary["house_net"]] if summary["house_net"] is not None else []
    return {"rounds": sum(1 for money in seen if money.wagers is not None), "drop": total(drops),
            "house_net": total(nets), "unreadable": unreadable}

"""Fortune 7's California money at the running table: the player-dealer's bank, the collection
fees before the deal (RULINGS.md 25) and the bank's walk at settlement (RULINGS.md 26), from the
pure games.baccarat.california.round_money.PlayerDealerTable.

    desk = California(option=3, rules=settings.money)
    desk.refusal(stake, holder)                 # why a wager may not play at this table, or None
    fees = desk.fees(bank, stakes)              # at "No more bets": what is taken before the deal
    payload = desk.settled(bank, stakes, bets)  # with the result: the `settlement` record's money
    payload = desk.returned(bank, stakes)       # on a void: wagers, fees and the bank's stake back

The player-dealer's stake S lies on its own betting space, named `bank` (BANK) in the bet
sensor's layout, or is given by command (`wagers seat=N bank=AMOUNT`). A betting space of the
table is a (seat, bet) with one bettor, the seated player: back-line bettors are not told apart
by the sensor or the `wagers` command.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.baccarat.california.fees import RULING as FEES_RULING
from games.baccarat.california.fees import Fees, schedule
from games.baccarat.california.round_money import PlayerDealerMoney, PlayerDealerTable
from games.baccarat.california.settlement import RULING as BANK_RULING
from games.baccarat.california.settlement import check_bank
from games.baccarat.california.stakes import BANK  # its space in the layout, and its key in `wagers`
from games.baccarat.california.stakes import Stake as SpaceStake
from games.money import MoneyRules, Stake, format_amount
from games.round import BetResult

TYPE_OF_GAME = "fortune7 Type of Game"
LIMITS = "fortune7 Wagering Limits and Collection Fees"
__all__ = ["BANK", "BANK_RULING", "FEES_RULING", "LIMITS", "TYPE_OF_GAME", "BankStake", "California"]


@dataclass(frozen=True)
class BankStake:
    """The player-dealer of the round and the stake S it banks with (with a sensor, its chips)."""

    seat: int
    stake: Fraction
    chips: tuple[tuple[str, int], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "stake": format_amount(self.stake)}
        if self.chips is not None:
            out["chips"] = [list(chip) for chip in self.chips]
        return out


class California:
    def __init__(self, option: int, rules: MoneyRules):
        self.option, self.rules = option, rules
        self.schedule = schedule(option)

    def bank_refusal(self, seat: int, stake: Fraction) -> str | None:
        """Why `stake` cannot be the player-dealer's bank (not more than 0, not whole minor units)."""
        try:
            check_bank(stake, seat, self.rules)
        except ValueError as bad:
            return str(bad)
        return None

    def refusal(self, stake: Stake, holder: int) -> tuple[str, str] | None:
        """Why a wager may not play with `holder` banking: the player-dealer's own seat, or outside
        the schedule's minimum and its limit per spot (one bettor per space at the table)."""
        if stake.seat == holder:
            return f"seat {holder} holds the player-dealer position: it banks, it does not wager", TYPE_OF_GAME
        table = self.schedule
        if stake.amount < table.minimum:
            return (f"below the minimum {format_amount(table.minimum)} of collection schedule option "
                    f"{self.option}"), LIMITS
        if stake.amount > table.maximum:
            return (f"over the limit per spot {format_amount(table.maximum)} of collection schedule option "
                    f"{self.option}"), LIMITS
        return None

    def _table(self, bank: BankStake) -> PlayerDealerTable:
        return PlayerDealerTable(bank.seat, bank.stake, self.option, self.rules)

    def fees(self, bank: BankStake, stakes: Sequence[Stake]) -> Fees:
        """The fees taken before the deal (ruling 25) from the wagers of record."""
        return self._table(bank).take_fees(_spaces(stakes))

    def settled(self, bank: BankStake, stakes: Sequence[Stake], bets: Mapping[str, BetResult]) -> dict[str, Any]:
        """The `settlement` record's money: the bank walked over the wagers (ruling 26), the fees kept."""
        money = self._table(bank).settle(_spaces(stakes), bets)
        return {**_money_json(money, bank), "bank": _walk(money)}

    def returned(self, bank: BankStake, stakes: Sequence[Stake]) -> dict[str, Any]:
        """A void's money: every wager, every fee and the bank's stake returned (ruling 25)."""
        money = self._table(bank).void(_spaces(stakes))
        return {**_money_json(money, bank), "fees_returned": money.fees.to_json(bank.seat)}


def _spaces(stakes: Sequence[Stake]) -> list[SpaceStake]:
    return [SpaceStake(s.seat, s.bet, s.amount) for s in stakes]


def _money_json(money: PlayerDealerMoney, bank: BankStake) -> dict[str, Any]:
    out = money.to_json()
    # what stands on the bank's space after settlement: S plus the bank's net from the game
    out["player_dealer"]["back"] = format_amount(bank.stake + money.bank_net)
    return out


def _walk(money: PlayerDealerMoney) -> dict[str, Any]:
    """The bank as it goes: its balance after each wager, in the order settled, and the wager
    (its index) that exhausted it, if one did."""
    settlement = money.settlement
    assert settlement is not None
    balance, after = settlement.bank_stake, []
    for entry in settlement.entries:
        balance += entry.collected - entry.paid
        after.append(format_amount(balance))
    return {"start": format_amount(settlement.bank_stake), "after": after,
            "end": format_amount(settlement.bank_after), "exhausted_at": settlement.exhausted_at}


def bank_back(payload: Mapping[str, Any]) -> tuple[int, Fraction] | None:
    """From a `settlement` record: the player-dealer's seat and what its bank space must hold."""
    pd = payload.get("player_dealer")
    if not isinstance(pd, Mapping) or "back" not in pd:
        return None
    return int(pd["seat"]), Fraction(str(pd["back"]))

"""A Fortune 7 round's money with a player-dealer: the fees taken before the deal (ruling 25)
and the player-dealer's bank settling the wagers after it (ruling 26).

    table = PlayerDealerTable(seat=4, stake=Fraction(500), option=3, rules=MoneyRules())
    fees = table.take_fees(stakes)              # before the deal; raises WagerError naming a wager
    money = table.settle(stakes, result.bets)   # after it: fees kept, wagers settled by the bank
    money = table.void(stakes)                  # a void: every wager and every fee returned

The house has no interest in the outcome (fortune7 Type of Game, ruling 9): what it nets is
the fees alone. Players, the player-dealer and the house together net 0.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.baccarat.california.fees import Fees, check_limits, collection_fees, schedule
from games.baccarat.california.settlement import Settlement, check_bank, settlement_order, walk_bank
from games.baccarat.california.stakes import Stake, WagerError, check_stakes
from games.money.amounts import MoneyRules, format_amount
from games.money.settle import Settled
from games.round import BetResult


@dataclass(frozen=True)
class WagerMoney:
    """One wager's money: `net` what the game won or lost it (fees apart), `back` what stands
    on the space after settlement, `covered` the part of the stake that played, `returned` the
    part given back uncovered, `fee` the collection fee taken for its space."""

    stake: Stake
    net: Fraction
    back: Fraction
    covered: Fraction
    returned: Fraction
    fee: Fraction

    def to_json(self) -> dict[str, Any]:
        """A wager of `money.wagers` (games.money's shape: no commission at Fortune 7) with its
        bettor, what of it was covered and returned, and its fee."""
        s = self.stake
        shape = Settled(s.seat, s.space, s.amount, self.net, self.back).to_json()
        return {"seat": s.seat, "bettor": s.bettor, **shape, "covered": format_amount(self.covered),
                "returned": format_amount(self.returned), "fee": format_amount(self.fee)}


@dataclass(frozen=True)
class PlayerDealerMoney:
    """The round's money. `fees` as taken before the deal; `void` True when they were returned."""

    seat: int
    stake: Fraction
    wagers: tuple[WagerMoney, ...]  # in the order the bank settled them (ruling 26)
    bank_net: Fraction  # the player-dealer's net from the game, within ±stake
    fees: Fees
    void: bool
    settlement: Settlement | None  # None on a void

    @property
    def player_dealer_fee(self) -> Fraction:
        return Fraction(0) if self.void else self.fees.player_dealer

    @property
    def house_net(self) -> Fraction:
        """The fees kept: the house's only money in the round (ruling 9, ruling 25)."""
        return Fraction(0) if self.void else self.fees.total

    @property
    def players_net(self) -> Fraction:
        """Every bettor's net, their fees taken off."""
        return sum((w.net - w.fee for w in self.wagers), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        return {"wagers": [w.to_json() for w in self.wagers],
                "player_dealer": {"seat": self.seat, "stake": format_amount(self.stake),
                                  "net": format_amount(self.bank_net), "fee": format_amount(self.player_dealer_fee)},
                "house_net": format_amount(self.house_net)}


@dataclass(frozen=True)
class PlayerDealerTable:
    """Who banks this hand with what stake, the table's fee schedule option (1-26) and money rules."""

    seat: int
    stake: Fraction
    option: int
    rules: MoneyRules = MoneyRules()

    def __post_init__(self) -> None:
        schedule(self.option)  # ValueError naming a bad option
        object.__setattr__(self, "stake", check_bank(self.stake, self.seat, self.rules))

    def check(self, stakes: Iterable[Stake]) -> tuple[Stake, ...]:
        """Refuse a wager the rules or the schedule's limits do not allow (WagerError names it)."""
        placed = check_stakes(stakes, self.seat, self.rules)
        check_limits(self.option, placed)
        return placed

    def take_fees(self, stakes: Iterable[Stake]) -> Fees:
        """The fees taken before the deal (ruling 25)."""
        return collection_fees(self.option, self.check(stakes))

    def settle(self, stakes: Sequence[Stake], bets: Mapping[str, BetResult]) -> PlayerDealerMoney:
        """The fees kept and the wagers settled by the bank (rulings 25, 26)."""
        placed = self.check(stakes)
        fees = collection_fees(self.option, placed)
        settlement = walk_bank(self.stake, self.seat, placed, bets, self.rules)
        wagers = tuple(WagerMoney(e.stake, e.net, e.back, e.covered, e.returned, fees.of(e.stake))
                       for e in settlement.entries)
        return PlayerDealerMoney(self.seat, self.stake, wagers, settlement.bank_net, fees, False, settlement)

    def void(self, stakes: Sequence[Stake]) -> PlayerDealerMoney:
        """A void round: every wager returned untouched, and the fees with them (ruling 25):
        each wager's `fee` 0, its `returned` its stake."""
        fees = self.take_fees(stakes)
        wagers = tuple(WagerMoney(s, Fraction(0), s.amount, Fraction(0), s.amount, Fraction(0))
                       for s in settlement_order(stakes, self.seat))
        return PlayerDealerMoney(self.seat, self.stake, wagers, Fraction(0), fees, True, None)


__all__ = ["PlayerDealerMoney", "PlayerDealerTable", "WagerError", "WagerMoney"]

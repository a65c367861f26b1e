"""The player-dealer's bank settles the wagers in the rules' order (RULINGS.md 26).

fortune7 How Winners are Determined and Paid: "The action on payouts will always begin with
the player to the left of the player-dealer position and continue clockwise. Wagers will be
settled in the following order from player to player: all Player line wagers, then all
Banker line wagers, then all Tie Bet wagers, then all One Up Bonus Bet wagers, and finally
all Fortune 7 Bonus Bet wagers." Ruling 26: space by space, and within a space clockwise
from the player-dealer's left; at one seat the seated player first, then the back-line
bettors in the order their wagers were placed (the order the stakes are given in).

Ruling 26's walk of the bank, which starts at the player-dealer's stake S:
- a losing wager is collected into the bank only up to 2S (the player-dealer may not win more
  than S): the part beyond is returned;
- a winning wager is paid from the bank, the last one partly if the bank runs short, and its
  stake is returned (a win is rounded once to the table's minor unit, local ruling L9; what
  no chip can pay stays in the bank);
- a push is returned;
- when the bank reaches zero it is exhausted: every wager after that point, winning or
  losing, is returned untouched.
So the bank never leaves [0, 2S], the player-dealer nets the bank's end minus S, within ±S,
and the money on the table is conserved.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from games.baccarat.california.seats import SEATS, clockwise_from, left_of
from games.baccarat.california.stakes import SEATED, SPACES, Stake, check_stakes
from games.money.amounts import MoneyRules, format_amount
from games.round import BetResult, Result

RULING = "RULINGS.md 26"


@dataclass(frozen=True)
class Settled:
    """One wager after the bank's walk. `returned` is the part given back uncovered (beyond the
    2S cap, or after the bank was exhausted); the rest of the stake is `covered`: it played."""

    stake: Stake
    bet: BetResult  # what the rules decided for the space
    owed: Fraction  # the bettor's net by the pay table, had the bank covered everything
    collected: Fraction  # taken into the bank
    paid: Fraction  # won from the bank
    returned: Fraction  # given back uncovered

    @property
    def net(self) -> Fraction:
        """The bettor's money won (+) or lost (-)."""
        return self.paid - self.collected

    @property
    def covered(self) -> Fraction:
        """The part of the stake that played (a winner paid partly played whole)."""
        return self.stake.amount - self.returned

    @property
    def back(self) -> Fraction:
        """What stands on the space after settlement for the bettor to take."""
        return self.stake.amount - self.collected + self.paid

    @property
    def in_full(self) -> bool:
        """Settled as the pay table says."""
        return self.net == self.owed


@dataclass(frozen=True)
class Settlement:
    player_dealer: int
    bank_stake: Fraction
    bank_after: Fraction
    entries: tuple[Settled, ...]  # in the order they were settled
    exhausted_at: int | None  # index in `entries` of the payment that emptied the bank, if one did

    @property
    def bank_net(self) -> Fraction:
        """What the player-dealer nets, before its collection fee: within ±S."""
        return self.bank_after - self.bank_stake


def settlement_order(stakes: Iterable[Stake], player_dealer: int) -> list[Stake]:
    """Space by space, then clockwise from the player-dealer's left, the seated player before
    the back-line bettors, who keep the order they were given in (the sort is stable)."""
    seat_rank = {seat: i for i, seat in enumerate(clockwise_from(left_of(player_dealer)))}
    return sorted(stakes, key=lambda s: (SPACES.index(s.space), seat_rank[s.seat], s.bettor != SEATED))


def check_bank(bank: Fraction | int, player_dealer: int, rules: MoneyRules) -> Fraction:
    """The player-dealer's stake S, checked: more than 0 and a whole number of minor units."""
    stake = Fraction(bank)
    if player_dealer not in SEATS:
        raise ValueError(f"player-dealer seat {player_dealer!r}: seats are numbered 1-7")
    if stake <= 0:
        raise ValueError(f"the player-dealer's stake must be more than 0, not {format_amount(stake)}")
    if (stake / rules.minor_unit).denominator != 1:
        raise ValueError(f"the player-dealer's stake {format_amount(stake)} is not a whole number of the "
                         f"table's minor unit {format_amount(rules.minor_unit)}")
    return stake


def settle(bank: Fraction | int, player_dealer: int, stakes: Iterable[Stake],
           bets: Mapping[str, BetResult], rules: MoneyRules | None = None) -> Settlement:
    """Settle every stake against the player-dealer's `bank` (ruling 26); `bets` is the round's
    result per betting space (RoundResult.bets of fortune7); `rules` the table's minor unit and
    rounding (default: whole units, rounded down)."""
    rules = rules or MoneyRules()
    bank_stake = check_bank(bank, player_dealer, rules)
    return walk_bank(bank_stake, player_dealer, check_stakes(stakes, player_dealer, rules), bets, rules)


def walk_bank(bank_stake: Fraction, player_dealer: int, placed: Iterable[Stake], bets: Mapping[str, BetResult],
              rules: MoneyRules) -> Settlement:
    """`settle` for a bank and stakes already checked (check_bank, check_stakes)."""
    ceiling, balance = 2 * bank_stake, bank_stake
    entries: list[Settled] = []
    exhausted_at: int | None = None
    for stake in settlement_order(placed, player_dealer):
        bet = bets[stake.space]
        owed = -stake.amount if bet.result is Result.LOSE else (
            rules.pay(bet.net(stake.amount)) if bet.result is Result.WIN else Fraction(0))
        collected = paid = returned = Fraction(0)
        if exhausted_at is not None:
            returned = stake.amount  # the bank is exhausted: returned untouched
        elif bet.result is Result.LOSE:
            collected = min(stake.amount, ceiling - balance)  # the player-dealer wins at most S
            returned = stake.amount - collected
        elif bet.result is Result.WIN:
            paid = min(owed, balance)
        balance += collected - paid
        entries.append(Settled(stake, bet, owed, collected, paid, returned))
        if balance == 0 and exhausted_at is None:
            exhausted_at = len(entries) - 1
    return Settlement(player_dealer, bank_stake, balance, tuple(entries), exhausted_at)

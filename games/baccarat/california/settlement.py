"""The player-dealer pays and collects, in the rules' order, while its stake covers.

fortune7 How Winners are Determined and Paid: "The action on payouts will always begin with
the player to the left of the player-dealer position and continue clockwise. Wagers will be
settled in the following order from player to player: all Player line wagers, then all
Banker line wagers, then all Tie Bet wagers, then all One Up Bonus Bet wagers, and finally
all Fortune 7 Bonus Bet wagers."

Reading: space by space ("all Player line wagers, then all Banker line wagers..."), and
within a space player to player, clockwise from the player-dealer's left; at one seat the
seated player first, then back-line bettors in the order given.

Coverage ("may not win or lose more than the original amount wagered"): the bank starts at
the player-dealer's stake S and is walked in that order. A losing wager is collected into
the bank, but only while the bank holds at most 2S (the player-dealer's win capped at S):
the part beyond is returned. A winning wager is paid from the bank while it lasts (the last
one covered is paid partially); its stake is always returned. A push is returned. So the
bank never leaves [0, 2S], and the money on the table is conserved.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from games.baccarat.california.seats import SEATS, clockwise_from, left_of
from games.baccarat.california.stakes import SEATED, SPACES, Stake, check_stakes
from games.round import BetResult, Result


@dataclass(frozen=True)
class Settled:
    stake: Stake
    bet: BetResult  # what the rules decided for the space
    collected: Fraction  # taken by the player-dealer
    paid: Fraction  # won from the player-dealer
    returned: Fraction  # handed back to the bettor (stake of a win or push, uncovered part)

    @property
    def net(self) -> Fraction:
        """The bettor's money won (+) or lost (-)."""
        return self.paid - self.collected

    @property
    def owed(self) -> Fraction:
        """What the pay table says, had the player-dealer covered everything."""
        return self.bet.net(self.stake.amount)

    @property
    def covered(self) -> bool:
        return self.net == self.owed


@dataclass(frozen=True)
class Settlement:
    player_dealer: int
    bank_stake: Fraction
    bank_after: Fraction
    entries: tuple[Settled, ...]  # in the order they were settled

    @property
    def bank_net(self) -> Fraction:
        return self.bank_after - self.bank_stake


def settlement_order(stakes: Iterable[Stake], player_dealer: int) -> list[Stake]:
    seat_rank = {seat: i for i, seat in enumerate(clockwise_from(left_of(player_dealer)))}
    return sorted(stakes, key=lambda s: (SPACES.index(s.space), seat_rank[s.seat], s.bettor != SEATED))


def settle(bank: Fraction | int, player_dealer: int, stakes: Iterable[Stake],
           bets: Mapping[str, BetResult]) -> Settlement:
    """Settle every stake against the player-dealer's `bank`; `bets` is the round's result
    per betting space (RoundResult.bets of fortune7)."""
    bank_stake = Fraction(bank)
    if bank_stake <= 0:
        raise ValueError(f"the player-dealer's stake must be more than $0, not ${bank_stake}")
    if player_dealer not in SEATS:
        raise ValueError(f"player-dealer seat {player_dealer!r}: seats are numbered 1-7")
    ceiling, balance, entries = 2 * bank_stake, bank_stake, []
    for stake in settlement_order(check_stakes(stakes, player_dealer), player_dealer):
        bet = bets[stake.space]
        collected = paid = Fraction(0)
        returned = stake.amount
        if bet.result is Result.LOSE:
            collected = min(stake.amount, ceiling - balance)
            returned -= collected
        elif bet.result is Result.WIN:
            paid = min(bet.net(stake.amount), balance)
        balance += collected - paid
        entries.append(Settled(stake, bet, collected, paid, returned))
    return Settlement(player_dealer, bank_stake, balance, tuple(entries))

"""A round's wagers settled in money: what each bettor nets and what stands on each space after.

    stakes = (Stake(1, "banker", Fraction(25)),)
    money = settle(game, result, stakes, MoneyRules())       # raises BadWager naming the wager
    money.should_hold(1, "banker")                            # 50: what the space must hold now

`check_stakes` refuses what no result could settle (an unknown bet or seat, a bonus without its
line wager, a bad amount) and can run before the deal; `settle` also checks the stakes against
the decided round (a Fu Bacc Play follows from the Ante when the spot plays) and settles them;
`returned` gives every stake back, as on a void round.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.money.amounts import BadAmount, MoneyRules, format_amount
from games.round import BetResult, Game, Result, RoundResult

# A baccarat layout has a betting area at each seat, 1-7 from the dealer's left (local ruling L9);
# a spot game takes wagers at its live spots. What else a wager needs (a line wager beside a
# bonus, a commission, a stake fixed by another, a fixed bonus) is in each game's Wager data.
BACCARAT_SEATS = tuple(range(1, 8))
SEATS_CLAUSE = "local ruling L9"
ZERO = Fraction(0)  # shared: a Fraction is immutable, and a lost or pushed wager needs one


class BadWager(ValueError):
    """A wager the rules or the round cannot take; the message names it and why."""


@dataclass(frozen=True)
class Stake:
    """A wager as placed: `seat` (a baccarat seat, or the spot of a spot game), `bet` (a key of
    the game's wagers), `amount` in currency."""

    seat: int
    bet: str
    amount: Fraction

    def __str__(self) -> str:
        return f"{self.seat}:{self.bet}={format_amount(self.amount)}"


@dataclass(frozen=True)
class Settled:
    """One wager after the result: `net` the bettor's gain (negative on a loss), `back` what
    stands on the space after settlement (stake plus win, the stake on a push, 0 on a loss),
    `commission` what the house kept of a win (0 where none is due)."""

    seat: int
    bet: str
    stake: Fraction
    net: Fraction
    back: Fraction
    commission: Fraction = ZERO

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bet": self.bet, "stake": format_amount(self.stake), "net": format_amount(self.net),
                "back": format_amount(self.back), "commission": format_amount(self.commission)}


@dataclass(frozen=True)
class RoundMoney:
    wagers: tuple[Settled, ...]

    @property
    def house_net(self) -> Fraction:
        """What the house nets over the round: every bettor's net, with the sign turned."""
        return -sum((w.net for w in self.wagers), Fraction(0))

    def space(self, seat: int, bet: str) -> Settled:
        """The settled wager on one space (what a bet sensor there should read is its `back`)."""
        for wager in self.wagers:
            if (wager.seat, wager.bet) == (seat, bet):
                return wager
        raise KeyError(f"no wager on seat {seat} {bet}")

    def should_hold(self, seat: int, bet: str) -> Fraction:
        """What a betting space must hold after settlement: its wager's `back`, 0 where none stood."""
        return next((w.back for w in self.wagers if (w.seat, w.bet) == (seat, bet)), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        return {"wagers": [w.to_json() for w in self.wagers], "house_net": format_amount(self.house_net)}


def seats_of(game: Game, spots: Sequence[int]) -> tuple[int, ...]:
    return tuple(spots) if game.uses_spots else BACCARAT_SEATS


def check_stakes(game: Game, stakes: Sequence[Stake], spots: Sequence[int], rules: MoneyRules) -> None:
    """Refuse what no result could settle: a bad amount, an unknown bet or seat, a wager named
    twice, a bonus without the line wager it needs."""
    seats, seen = seats_of(game, spots), set()
    for stake in stakes:
        try:
            rules.check_stake(stake.amount)
        except BadAmount as bad:
            raise BadWager(f"wager {stake}: {bad}") from None
        if stake.bet not in game.wagers:
            raise BadWager(f"wager {stake}: {game.key} has no bet {stake.bet!r} (one of {', '.join(game.wagers)})")
        if stake.seat not in seats:
            where = (f"spot {stake.seat} is not live (spots {','.join(map(str, seats))})" if game.uses_spots
                     else f"{game.key} has seats {seats[0]}-{seats[-1]} ({SEATS_CLAUSE})")
            raise BadWager(f"wager {stake}: unknown seat: {where}")
        if (stake.seat, stake.bet) in seen:
            raise BadWager(f"wager {stake}: seat {stake.seat} {stake.bet} is wagered twice")
        seen.add((stake.seat, stake.bet))
    for stake in stakes:
        needs = game.wagers[stake.bet].needs
        if needs and not any((stake.seat, line) in seen for line in needs.any_of):
            raise BadWager(f"wager {stake}: {stake.bet} needs a {' or '.join(needs.any_of)} wager at seat "
                           f"{stake.seat} ({needs.clause})")


def returned(game: Game, stakes: Sequence[Stake], spots: Sequence[int], rules: MoneyRules) -> RoundMoney:
    """Every stake back on its space, nothing won or lost: the money of a void round."""
    check_stakes(game, stakes, spots, rules)
    ordered = _ordered(game, stakes, seats_of(game, spots))
    return RoundMoney(tuple(Settled(s.seat, s.bet, s.amount, Fraction(0), s.amount) for s in ordered))


def settle(game: Game, result: RoundResult, stakes: Sequence[Stake], rules: MoneyRules) -> RoundMoney:
    """Settle `stakes` on the decided round `result` of `game` (spots: `result.spots`)."""
    spots = tuple(result.spots) if game.uses_spots else ()
    check_stakes(game, stakes, spots, rules)
    placed = _with_derived(game, result, stakes)
    settled = [_settle_one(stake, _bets_at(game, result, stake.seat), rules) for stake in placed]
    settled.extend(_fixed_bonuses(game, result, placed, rules))
    # In the order the dealer settles: seat by seat as the result lists its spots (Fu Bacc from
    # the dealer's right, procedure 10), each seat's spaces in layout order, a fixed bonus last.
    seat_at = {seat: n for n, seat in enumerate(seats_of(game, spots))}
    bet_at = {bet: n for n, bet in enumerate(game.wagers)}
    settled.sort(key=lambda w: (seat_at[w.seat], bet_at.get(w.bet, len(bet_at))))
    return RoundMoney(tuple(settled))


def _bets_at(game: Game, result: RoundResult, seat: int) -> Mapping[str, BetResult]:
    if not game.uses_spots:
        return result.bets
    bets = result.spots[seat].get("bets", {})
    assert isinstance(bets, Mapping)
    return bets


def _with_derived(game: Game, result: RoundResult, stakes: Sequence[Stake]) -> list[Stake]:
    """The stakes with each derived stake (Fu Bacc's Play) placed or checked, each presupposed
    wager checked to stand, and each stake checked to be in action in this round."""
    given = {(s.seat, s.bet): s for s in stakes}
    placed = list(stakes)
    seats = sorted({s.seat for s in stakes} | (set(result.spots) if game.uses_spots else set()))
    for seat in seats:
        bets = _bets_at(game, result, seat)
        for bet, wager in game.wagers.items():
            if wager.presupposed_by and bet in bets and (seat, bet) not in given:
                raise BadWager(f"seat {seat} has no {bet} wager, yet the round settles one there "
                               f"({wager.presupposed_by})")
            derived = wager.stake_of
            base = None if derived is None else given.get((seat, derived.wager))
            if derived is None or base is None or bet not in bets:
                continue
            due = base.amount * derived.multiple
            own = given.get((seat, bet))
            if own is None:
                placed.append(Stake(seat, bet, due))
            elif own.amount != due:
                raise BadWager(f"wager {own}: the {bet} wager is {derived.multiple}x the {derived.wager}, "
                               f"{format_amount(due)} ({derived.clause})")
    for stake in placed:
        if stake.bet not in _bets_at(game, result, stake.seat):
            raise BadWager(f"wager {stake}: seat {stake.seat} has no {stake.bet} in action this round "
                           f"(the spot's decisions leave it out)")
    return placed


def _ordered(game: Game, stakes: Iterable[Stake], seat_order: Sequence[int]) -> list[Stake]:
    layout = list(game.wagers)
    return sorted(stakes, key=lambda s: (seat_order.index(s.seat), layout.index(s.bet)))


def _settle_one(stake: Stake, bets: Mapping[str, BetResult], rules: MoneyRules) -> Settled:
    bet = bets[stake.bet]
    if bet.result is Result.LOSE:
        return Settled(stake.seat, stake.bet, stake.amount, -stake.amount, ZERO)
    if bet.result is Result.PUSH or bet.line is None or bet.line.pays is None:
        return Settled(stake.seat, stake.bet, stake.amount, ZERO, stake.amount)
    paid = rules.pay(bet.net(stake.amount))  # the exact win, rounded once (local ruling L9)
    pays, kept = bet.line.pays, ZERO
    if pays.commission:  # the gross win less what is paid (Pai Gow §4.1.1: rounded up under "down")
        kept = rules.pay(stake.amount * (pays.ratio + pays.commission)) - paid
    return Settled(stake.seat, stake.bet, stake.amount, paid, stake.amount + paid, kept)


def _fixed_bonuses(game: Game, result: RoundResult, placed: Sequence[Stake], rules: MoneyRules) -> list[Settled]:
    out = []
    for stake in placed:
        bonus = game.wagers[stake.bet].fixed_bonus
        amount = None if bonus is None else result.spots.get(stake.seat, {}).get(bonus.field)
        if bonus is None or not amount:
            continue
        if not isinstance(amount, (int, Fraction)):
            raise TypeError(f"{game.key} spot {stake.seat} {bonus.field}: {amount!r} is not an amount")
        paid = rules.pay(Fraction(amount))
        out.append(Settled(stake.seat, bonus.field, Fraction(0), paid, paid))
    return out

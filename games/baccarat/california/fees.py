"""Fortune 7 collection fees: schedule options 1-26 as data, and the fees of one hand.

Fees are the house's, separate from the game and its house edges (ruling 9). One schedule
is configured per table.

Options 1-20 (RULINGS.md 25): the player-dealer pays its fee once per hand, and each bettor
(seated or back-line) pays the player fee once for each betting space holding a wager of
theirs ("for each betting circle that he or she places a game wager on").

Options 21-26: no player fee; the player-dealer's fee per hand depends on the total table
action (every wager placed before the cards are dealt). The printed brackets skip $5
(e.g. "$1 - $100", "$105 - $300") because action moves in $5 steps; tablectl reads each
bracket as running from its printed bottom up to the next bracket's bottom, so $101-$104 is
in the $1-$100 bracket. Action below the first printed bottom (option 26 starts at $300 but
allows $50 wagers) pays the first bracket's fee. Option 22's last row is printed "$1,505"
without "+": it is read as "$1,505+" (ruling 25). A hand with no wagers is not dealt and pays
nothing.

Fees are taken before the deal, are the house's alone, and are returned with the wagers when
the round is voided (ruling 25): `Fees.lines()` are what is taken (and, on a void, given back),
one line per bettor and space, and one for the player-dealer.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.baccarat.california.stakes import Stake, WagerError
from games.money.amounts import format_amount

RULING = "RULINGS.md 25"


def _usd(text: str) -> Fraction:
    return Fraction(text.replace("$", "").replace(",", ""))


@dataclass(frozen=True)
class SpotSchedule:
    """Options 1-20: the limit per player spot and the two flat fees."""

    option: int
    minimum: Fraction
    maximum: Fraction
    player_fee: Fraction  # per betting spot with a wager
    player_dealer_fee: Fraction  # per hand


@dataclass(frozen=True)
class ActionBracket:
    lowest: Fraction  # printed bottom of the table-action bracket
    highest: Fraction | None  # printed top; None for "+"
    player_dealer_fee: Fraction


@dataclass(frozen=True)
class ActionSchedule:
    """Options 21-26: the limit per spot and the player-dealer's fee by total table action."""

    option: int
    minimum: Fraction
    maximum: Fraction
    brackets: tuple[ActionBracket, ...]
    player_fee: Fraction = Fraction(0)

    def bracket(self, action: Fraction) -> ActionBracket:
        chosen = self.brackets[0]
        for bracket in self.brackets:
            if action >= bracket.lowest:
                chosen = bracket
        return chosen


# option: (limit per player spot, player fee per spot, player-dealer fee per hand), as printed
_SPOT_ROWS = {
    1: ("$5", "$10", "$0.50", "$1.00"), 2: ("$5", "$50", "$0.50", "$2.00"),
    3: ("$5", "$100", "$1.00", "$2.00"), 4: ("$10", "$100", "$1.00", "$2.00"),
    5: ("$25", "$100", "$1.00", "$2.00"), 6: ("$50", "$100", "$1.00", "$3.00"),
    7: ("$100", "$100", "$1.00", "$3.00"), 8: ("$25", "$200", "$2.00", "$3.00"),
    9: ("$25", "$200", "$2.00", "$4.00"), 10: ("$50", "$300", "$2.00", "$4.00"),
    11: ("$100", "$300", "$2.00", "$4.00"), 12: ("$100", "$300", "$3.00", "$5.00"),
    13: ("$100", "$500", "$3.00", "$5.00"), 14: ("$200", "$500", "$3.00", "$5.00"),
    15: ("$300", "$500", "$3.00", "$5.00"), 16: ("$300", "$1,000", "$5.00", "$8.00"),
    17: ("$300", "$1,000", "$5.00", "$10.00"), 18: ("$500", "$1,000", "$5.00", "$10.00"),
    19: ("$500", "$2,000", "$5.00", "$10.00"), 20: ("$1,000", "$5,000", "$10.00", "$15.00"),
}

# option: (limit, [(action from, action to or None for "+", player-dealer fee)]), as printed
_ACTION_ROWS = {
    21: (("$1", "$100"), [("$1", "$100", "$1.00"), ("$105", "$300", "$2.00"), ("$305", "$500", "$4.00"),
                          ("$505", "$1,500", "$7.00"), ("$1,505", None, "$11.00")]),
    22: (("$5", "$100"), [("$5", "$100", "$1.00"), ("$105", "$300", "$2.00"), ("$305", "$500", "$4.00"),
                          ("$505", "$1,500", "$7.00"), ("$1,505", None, "$11.00")]),  # printed "$1,505"
    23: (("$10", "$100"), [("$10", "$300", "$2.00"), ("$305", "$500", "$4.00"),
                           ("$505", "$1,500", "$7.00"), ("$1,505", None, "$11.00")]),
    24: (("$25", "$100"), [("$25", "$300", "$2.00"), ("$305", "$800", "$6.00"), ("$805", "$1,500", "$10.00"),
                           ("$1,505", "$3,000", "$12.00"), ("$3,005", None, "$30.00")]),
    25: (("$50", "$300"), [("$50", "$300", "$4.00"), ("$305", "$1,000", "$8.00"), ("$1,005", "$2,000", "$15.00"),
                           ("$2,005", "$5,000", "$20.00"), ("$5,005", None, "$50.00")]),
    26: (("$50", "$300"), [("$300", "$1,200", "$4.00"), ("$1,205", "$3,600", "$15.00"),
                           ("$3,605", "$7,200", "$25.00"), ("$7,205", "$15,000", "$45.00"),
                           ("$15,005", None, "$65.00")]),
}

SCHEDULES: Mapping[int, SpotSchedule | ActionSchedule] = {
    **{option: SpotSchedule(option, *map(_usd, row)) for option, row in _SPOT_ROWS.items()},
    **{option: ActionSchedule(option, _usd(low), _usd(high), tuple(
        ActionBracket(_usd(a), None if b is None else _usd(b), _usd(fee)) for a, b, fee in rows))
       for option, ((low, high), rows) in _ACTION_ROWS.items()},
}


@dataclass(frozen=True)
class FeeLine:
    """One fee taken before the deal: from a bettor for one betting space, or (space None)
    from the player-dealer for the hand."""

    seat: int
    bettor: str  # "seat", a back-line bettor's name, or "player_dealer"
    space: str | None
    fee: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bettor": self.bettor, "space": self.space, "fee": format_amount(self.fee)}


PLAYER_DEALER = "player_dealer"


@dataclass(frozen=True)
class Fees:
    option: int
    players: Mapping[tuple[int, str, str], Fraction]  # (seat, bettor, space) -> fee, in placement order
    player_dealer: Fraction
    table_action: Fraction

    @property
    def total(self) -> Fraction:
        return self.player_dealer + sum(self.players.values(), Fraction(0))

    def of(self, stake: Stake) -> Fraction:
        """The fee paid for the space `stake` stands on (0 under options 21-26)."""
        return self.players.get((stake.seat, stake.bettor, stake.space), Fraction(0))

    def by_bettor(self) -> dict[tuple[int, str], Fraction]:
        """Each bettor's fees for the hand, (seat, bettor) -> total."""
        totals: dict[tuple[int, str], Fraction] = defaultdict(Fraction)
        for (seat, bettor, _), fee in self.players.items():
            totals[seat, bettor] += fee
        return dict(totals)

    def lines(self, player_dealer: int) -> tuple[FeeLine, ...]:
        """The fees as journaled: one line per bettor and space that pays, then the player-dealer's."""
        bettors = [FeeLine(seat, bettor, space, fee) for (seat, bettor, space), fee in self.players.items() if fee]
        own = [FeeLine(player_dealer, PLAYER_DEALER, None, self.player_dealer)] if self.player_dealer else []
        return (*bettors, *own)

    def to_json(self, player_dealer: int) -> dict[str, Any]:
        """The fees of one hand as a journal record or the dealer's display would carry them."""
        return {"option": self.option, "table_action": format_amount(self.table_action),
                "lines": [line.to_json() for line in self.lines(player_dealer)], "total": format_amount(self.total)}


def schedule(option: int) -> SpotSchedule | ActionSchedule:
    if option not in SCHEDULES:
        raise ValueError(f"collection schedule option {option!r}: options are 1-26")
    return SCHEDULES[option]


def check_limits(option: int, stakes: Iterable[Stake]) -> None:
    """Each wager at least the table minimum; the seated player and back-line bettors together
    at most the limit per spot on each betting space (fortune7 Wagering Limits)."""
    table = schedule(option)
    per_space: dict[tuple[int, str], Fraction] = defaultdict(Fraction)
    for stake in stakes:
        if stake.amount < table.minimum:
            raise WagerError(f"{stake}: below the ${table.minimum} minimum of option {option}")
        per_space[stake.seat, stake.space] += stake.amount
        if per_space[stake.seat, stake.space] > table.maximum:
            raise WagerError(f"{stake}: seat {stake.seat} {stake.space} would total "
                             f"${per_space[stake.seat, stake.space]}, over the ${table.maximum} limit")


def collection_fees(option: int, stakes: Iterable[Stake]) -> Fees:
    """The fees of one hand under schedule `option`."""
    table, stakes = schedule(option), tuple(stakes)
    action = sum((s.amount for s in stakes), Fraction(0))
    if not stakes:
        return Fees(option, {}, Fraction(0), action)
    if isinstance(table, ActionSchedule):  # no player fee; the player-dealer's by table action
        return Fees(option, {}, table.bracket(action).player_dealer_fee, action)
    # once per bettor per betting space holding a wager of theirs (a space counted once)
    players = {(s.seat, s.bettor, s.space): table.player_fee for s in stakes}
    return Fees(option, players, table.player_dealer_fee, action)

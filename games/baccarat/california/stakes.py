"""A wager on one of the five betting spaces of a seat, and the checks at placement.

Each seat's betting area has five spaces (fortune7 Description of Table): Player line,
Banker line, Tie Bet, One Up Bonus Bet, Fortune 7 Bonus Bet. Back-line bettors wager on the
same spaces; a Stake names its bettor ("seat" for the seated player). Amounts are exact, in
the table's currency, whole numbers of its minor unit (local ruling L9).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from games.baccarat.california.seats import SEATS
from games.money.amounts import BadAmount, MoneyRules, format_amount

SEATED = "seat"
LINES = ("player", "banker")
# the rules' settlement order, which is also the order of the spaces (fortune7 How Winners...)
SPACES = ("player", "banker", "tie", "one_up", "fortune7")
BANK = "bank"  # the player-dealer's own space, where its stake S lies (a bet sensor's layout names it)
NEEDS_A_LINE = ("one_up", "fortune7")  # ruling 8: bonus bets need a Player or Banker line wager
MAX_BETTOR_CHARS = 32
BETTOR_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]*\Z")  # a back-line bettor as the dealer names them


class WagerError(ValueError):
    """A wager the table must refuse; the message names the seat, bettor and space."""


@dataclass(frozen=True)
class Stake:
    seat: int
    space: str  # one of SPACES
    amount: Fraction  # dollars
    bettor: str = SEATED  # "seat", or a back-line bettor's name

    def __post_init__(self) -> None:
        object.__setattr__(self, "amount", Fraction(self.amount))

    def __str__(self) -> str:
        who = "" if self.bettor == SEATED else f" ({self.bettor})"
        return f"seat {self.seat}{who} {self.space} ${_amount(self.amount)}"


def _amount(amount: Fraction) -> str:
    try:
        return format_amount(amount)
    except ValueError:
        return str(amount)


def check_bettor(name: str) -> str:
    """A back-line bettor's name: short, plain, and not the seated player's own name."""
    if name == SEATED:
        return name
    if len(name) > MAX_BETTOR_CHARS:
        raise WagerError(f"back-line bettor {name[:MAX_BETTOR_CHARS]!r}...: longer than {MAX_BETTOR_CHARS} characters")
    if not BETTOR_NAME.match(name):
        raise WagerError(f"back-line bettor {name!r}: a name is letters, digits, space, '_', '.' or '-', "
                         f"starting with a letter or digit")
    return name


def check_stakes(stakes: Iterable[Stake], player_dealer: int, rules: MoneyRules | None = None) -> tuple[Stake, ...]:
    """Refuse what the rules do not allow; returns the stakes as a tuple (in placement order)."""
    stakes, seen = tuple(stakes), set()
    for stake in stakes:
        try:
            check_bettor(stake.bettor)
        except WagerError as bad:
            raise WagerError(f"seat {stake.seat} {stake.space}: {bad}") from None
        if stake.seat not in SEATS:
            raise WagerError(f"{stake}: Fortune 7 seats are numbered 1-7")
        if stake.space not in SPACES:
            raise WagerError(f"{stake}: unknown betting space {stake.space!r} (one of {', '.join(SPACES)})")
        if stake.amount <= 0:
            raise WagerError(f"{stake}: a wager must be more than $0")
        if rules is not None:
            try:
                rules.check_stake(stake.amount)
            except BadAmount as bad:
                raise WagerError(f"{stake}: {bad}") from None
        if (stake.seat, stake.bettor, stake.space) in seen:
            raise WagerError(f"{stake}: wagered twice on the same space by the same bettor")
        seen.add((stake.seat, stake.bettor, stake.space))
        if stake.seat == player_dealer:
            raise WagerError(f"{stake}: seat {player_dealer} holds the player-dealer position")
    lines = {(s.seat, s.bettor) for s in stakes if s.space in LINES}
    for stake in stakes:
        if stake.space in NEEDS_A_LINE and (stake.seat, stake.bettor) not in lines:
            raise WagerError(f"{stake}: needs a Player or Banker line wager by the same bettor (ruling 8)")
    return stakes

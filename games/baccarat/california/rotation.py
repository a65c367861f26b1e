"""Who holds the player-dealer position (fortune7 Type of Game).

"The position shall be offered systematically and continuously in a clockwise manner around
the table after every two hands." Readings (docs/baccarat.md):
- A turn is two dealt hands. After the turn the position is offered first to the seat to the
  left of the holder, then clockwise; a seat may decline and the offer passes on. Empty seats
  are skipped. The holder may accept again only when the offer comes round to them.
- If every seated player declines, there is no player-dealer and no hand is dealt ("Once a
  player-dealer position has been established for that game, the house dealer shall wait
  for each player to make their wager"; the house never banks). Before the next hand the
  offer starts again at the same seat, so nobody's turn is lost to a refusal round.
- A void round is not one of the two hands: the turn counts dealt, settled hands.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from games.baccarat.california.seats import check_seat, clockwise_from, left_of

HANDS_PER_TURN = 2


@dataclass(frozen=True)
class BankTurn:
    """The position for the next hand. `holder` None: nobody accepted, no hand is dealt."""

    holder: int | None
    hands_left: int  # hands of the turn still to deal (HANDS_PER_TURN .. 1; 0 when no holder)
    offer_from: int  # the seat the offer that made this turn began at

    @property
    def dealable(self) -> bool:
        return self.holder is not None


def offer_order(offer_from: int, seated: Collection[int]) -> tuple[int, ...]:
    """The seated players in the order the position is offered to them."""
    return tuple(seat for seat in clockwise_from(offer_from) if seat in seated)


def offer_bank(offer_from: int, seated: Collection[int], accepting: Collection[int]) -> BankTurn:
    """The first seated player clockwise from `offer_from` who accepts holds the position for
    the next two hands. `accepting`: the seats whose players say yes when asked."""
    for seat in offer_order(offer_from, seated):
        if seat in accepting:
            return BankTurn(holder=seat, hands_left=HANDS_PER_TURN, offer_from=offer_from)
    return BankTurn(holder=None, hands_left=0, offer_from=offer_from)


def after_hand(turn: BankTurn, seated: Collection[int], accepting: Collection[int]) -> BankTurn:
    """The position for the hand after a dealt hand (or after a round of refusals)."""
    if turn.holder is None:  # nobody accepted: offer again from the same seat
        return offer_bank(turn.offer_from, seated, accepting)
    if turn.hands_left > 1:
        return replace(turn, hands_left=turn.hands_left - 1)
    return offer_bank(left_of(turn.holder), seated, accepting)


def first_turn(seated: Collection[int], accepting: Collection[int], offer_from: int = 1) -> BankTurn:
    """At the start of a game the position is offered from `offer_from` (seat 1 by default)."""
    return offer_bank(check_seat(offer_from), seated, accepting)

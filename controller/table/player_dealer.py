"""The player-dealer rotation, at a table whose profile has one (Fortune 7): who banks the
next hand, offered and rotated as games.baccarat.california.rotation says."""
from __future__ import annotations

from controller.journal.kinds import RecordKind
from controller.table.output import Out
from controller.table.settings import TableSettings
from games.baccarat.california.rotation import BankTurn, after_hand, first_turn, offer_bank
from games.baccarat.california.seats import left_of
from games.table_profile import PlayerDealer as Seats


class PlayerDealer:
    def __init__(self, seats: Seats, settings: TableSettings):
        self.seats = seats  # every seat of the table
        self.takers = settings.player_dealer_seats  # the seated players who take it when offered
        self.turn = first_turn(self.takers, self.takers, offer_from=settings.player_dealer_seat or 1)

    @property
    def holder(self) -> int | None:
        return self.turn.holder

    def why_no_hand(self) -> str | None:
        """Why no hand can be dealt now, or None."""
        if self.turn.holder is None:
            return "nobody holds the player-dealer position: no hand is dealt (player_dealer seat=N)"
        return None

    def hand_settled(self, out: Out) -> None:
        """A hand was dealt and settled: the turn counts it, and the position may move on."""
        before = self.turn.holder
        self.turn = after_hand(self.turn, self.takers, self.takers)
        self.event(out, "rotated" if self.turn.holder != before else "hand_played")

    def offer(self, out: Out, accepting: tuple[int, ...]) -> None:
        """The position is offered again from where the last offer began; `accepting`: the
        seats that say yes (none: nobody holds it)."""
        self.turn = offer_bank(self.turn.offer_from, self.seats.seats, accepting)
        self.event(out, "offered")

    def passing(self, accepting: list[int]) -> BankTurn | None:
        """If the holder declines the hand (no stake on its bank space): the turn of the first seat
        clockwise from its left that accepts (`accepting`: those with a stake), or None."""
        if self.turn.holder is None:
            return None
        turn = offer_bank(left_of(self.turn.holder), self.takers, accepting)
        return turn if turn.holder is not None else None

    def pass_to(self, out: Out, turn: BankTurn) -> None:
        """The holder declined: `turn` (from `passing`) holds the position now."""
        passed = self.turn.holder
        self.turn = turn
        self.event(out, "passed", **({"passed": passed} if passed is not None else {}))

    def restore(self, seat: int | None, hands_left: int, offer_from: int) -> None:
        self.turn = BankTurn(seat, hands_left, offer_from)

    def fields(self) -> dict:
        return {"seat": self.turn.holder, "hands_left": self.turn.hands_left, "offer_from": self.turn.offer_from}

    def event(self, out: Out, event: str, **more: int) -> None:
        fields = {**self.fields(), **more}
        out.journal(RecordKind.PLAYER_DEALER, {"event": event, **fields})
        out.publish("player_dealer", what=event, **fields)

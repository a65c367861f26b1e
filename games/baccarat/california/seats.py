"""Seats 1-7 at a Fortune 7 table, numbered clockwise.

"A standard baccarat table that accommodates up to seven players and a player-dealer
position for a total of eight seated positions" (fortune7 Description of Table). Seat 1 is
at the house dealer's left and numbers rise clockwise (the deal and every "clockwise" in
the rules run 1, 2, ..., 7, 1, ...). The player-dealer is the seated player who accepted
the position; they keep their seat number while they hold it.
"""
from __future__ import annotations

SEATS = tuple(range(1, 8))


def check_seat(seat: int) -> int:
    if seat not in SEATS:
        raise ValueError(f"seat {seat!r}: Fortune 7 seats are numbered 1-7")
    return seat


def left_of(seat: int) -> int:
    """The next seat clockwise: "the player to the left of" `seat`."""
    return check_seat(seat) % len(SEATS) + 1


def clockwise_from(seat: int) -> tuple[int, ...]:
    """All seven seats in clockwise order, starting at `seat`."""
    i = SEATS.index(check_seat(seat))
    return SEATS[i:] + SEATS[:i]

"""Fu Bacc's four betting areas as data, and the settlement of one spot.

Clauses: "fubacc way N" is item N of "Three Ways to Play"; "fubacc procedure N" is item N of
the Dealing Procedures. Play is a 2x-Ante raise; the tables below are per unit of each wager.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from games.cards import Card
from games.fubacc.hands import bonus_line, cards_total, compare, lucky_monkey_line, two_monkeys
from games.round import LOSE, BetResult, Pay, PayLine, StakeOf, Wager, win

PLAY_MULTIPLE = 2  # fubacc way 1: "a Play wager of 2x the original Ante"

ANTE = Wager(
    key="ante",
    title="Ante",
    clause="fubacc way 1; procedures 10-15; ruling 15",
    lines=(
        PayLine("win", Pay(1)),
        PayLine("natural 9", Pay(2, 1)),
        PayLine("natural 8", Pay(3, 2)),
        PayLine("monkey rescue", Pay(1, 1)),
    ),
    presupposed_by="fubacc way 1, procedures 1 and 6",  # fold, play and bonus are an Ante's choices
)
PLAY = Wager(
    key="play",
    title="Play (2x the Ante)",
    clause="fubacc way 1; procedures 8, 11; ruling 15",
    lines=(PayLine("win", Pay(1)), PayLine("tie", None)),
    stake_of=StakeOf("ante", PLAY_MULTIPLE, "fubacc way 1, procedure 8"),
)
LUCKY_MONKEY = Wager(
    key="lucky_monkey",
    title="Lucky Monkey",
    clause="fubacc way 2; rulings 12-13",
    lines=(
        PayLine("monkey monkey vs 9", Pay(30)),
        PayLine("monkey monkey vs 8", Pay(20)),
        PayLine("monkey monkey vs 7", Pay(15)),
        PayLine("monkey monkey vs 6", Pay(10)),
        PayLine("monkey monkey vs 0-5", Pay(5)),
    ),
)
TIE = Wager(
    key="tie",
    title="Tie",
    clause="fubacc way 3; procedure 11; ruling 14",
    lines=(PayLine("tie", Pay(7)),),
)
WAGERS: Mapping[str, Wager] = {w.key: w for w in (ANTE, PLAY, LUCKY_MONKEY, TIE)}

# Decisions, as the dealer's panel and `tablectl play --decide` name them.
FOLD, PLAY_ON, HIT, STAY, BONUS, NO_ANTE = "fold", "play", "hit", "stay", "bonus", "no_ante"


def showdown(player_total: int, dealer_total: int) -> tuple[BetResult, BetResult]:
    """Ante and Play against the dealer; on a tie the Ante loses and the Play pushes (ruling 15)."""
    outcome = compare(player_total, dealer_total)
    if outcome == "win":
        return win(ANTE, "win"), win(PLAY, "win")
    if outcome == "lose":
        return LOSE, LOSE
    return LOSE, win(PLAY, "tie")


def showdown_net(player_total: int, dealer_total: int) -> Fraction:
    """Money won or lost per unit Ante when the hand is played (the Play is 2x)."""
    ante, play = showdown(player_total, dealer_total)
    return ante.net(1) + play.net(PLAY_MULTIPLE)


def bonus_net(line: str) -> Fraction:
    return win(ANTE, line).net(1)


@dataclass(frozen=True)
class SpotSettlement:
    """One spot's round: its final hand (what the Tie is settled on), whether the hit card was
    used, and each wager in action. Wagers not in action (Play after a fold; Ante and Play on a
    spot without an Ante) are absent."""

    decision: str  # "fold", "play,hit", "play,stay", "bonus", "no_ante"
    hand: tuple[Card, ...]
    total: int
    hit_card_used: bool
    bets: Mapping[str, BetResult]


def settle_spot(
    packet: tuple[Card, Card, Card], decisions: tuple[str, ...], up: Card, dealer_total: int,
) -> SpotSettlement:
    """Settle a spot from its packet (two-card hand, then the hit card) and its decisions."""
    two, hit_card = packet[:2], packet[2]
    monkeys = two_monkeys(two)
    bets: dict[str, BetResult] = {}
    hand: tuple[Card, ...] = two
    if decisions[0] == PLAY_ON:
        if decisions[1] == HIT:
            hand = two + (hit_card,)
        bets["ante"], bets["play"] = showdown(cards_total(hand), dealer_total)
    elif decisions[0] == FOLD:
        bets["ante"] = LOSE  # fubacc procedure 7
    elif decisions[0] == BONUS:
        bonus = bonus_line(cards_total(two), monkeys, up.point)
        if bonus is None:  # the game refuses such a decision (procedures 12-15)
            raise ValueError(f"bonus decided on {' '.join(map(str, two))} against {up}: the hand has no bonus")
        bets["ante"] = win(ANTE, bonus)
    lucky = lucky_monkey_line(monkeys, up.point)
    bets["lucky_monkey"] = win(LUCKY_MONKEY, lucky) if lucky else LOSE
    total = cards_total(hand)
    bets["tie"] = win(TIE, "tie") if total == dealer_total else LOSE  # ruling 14
    return SpotSettlement(",".join(decisions), hand, total, len(hand) == 3, bets)

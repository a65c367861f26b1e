"""Resolve one round from cards in the order they left the shoe (what `tablectl play` does)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.cards import Card
from games.round import (
    AwaitDecision,
    Complete,
    Consequence,
    Deal,
    Game,
    Irregular,
    IrregularityKind,
    RoundResult,
    RoundState,
    void_json,
)


class DecisionMissing(ValueError):
    """The round waits on a spot's decision and none was given (an input error, not a void)."""

    def __init__(self, spot: int, options: Sequence[str]):
        self.spot, self.options = spot, tuple(options)
        super().__init__(f"spot {spot} must decide: one of {', '.join(options)}")


def run_round(
    game: Game,
    cards: Sequence[Card],
    decks: int | None = None,
    spots: Sequence[int] = (),
    decisions: Mapping[int, Sequence[str]] | None = None,
) -> tuple[RoundState, RoundResult]:
    """Play the round through; raises Irregular (a void or refusal) or DecisionMissing."""
    state = game.start(decks, tuple(spots))
    pending = {spot: list(choices) for spot, choices in (decisions or {}).items()}
    unknown = sorted(set(pending) - set(state.spots))
    if unknown:
        raise Irregular(game.rule(IrregularityKind.BAD_DECISION), f"decision for spot {unknown[0]}, which is not live")
    used = 0
    while not isinstance(step := game.next_step(state), Complete):
        if isinstance(step, Deal):
            if used == len(cards):
                raise Irregular(
                    game.rule(IrregularityKind.MISSING_CARD),
                    f"{len(cards)} cards given; card {used + 1} is due to {step.hand}",
                )
            state = game.with_card(state, cards[used])
            used += 1
        elif isinstance(step, AwaitDecision):
            queue = pending.get(step.spot)
            choice = queue.pop(0) if queue else game.default_decision(state, step.spot)
            if choice is None:
                raise DecisionMissing(step.spot, step.options)
            state = game.with_decision(state, step.spot, choice)
    if used < len(cards):
        raise Irregular(
            game.rule(IrregularityKind.EXTRA_CARD),
            f"the round was complete after {used} cards; {cards[used]} is card {used + 1} of {len(cards)}",
        )
    leftover = {spot: q for spot, q in pending.items() if q}
    if leftover:
        spot, queue = next(iter(leftover.items()))
        raise Irregular(game.rule(IrregularityKind.BAD_DECISION), f"spot {spot}: decision {queue[0]!r} was not asked for")
    return state, game.result(state)


def play_json(game: Game, cards: Sequence[Card], decks: int | None = None, spots: Sequence[int] = (),
              decisions: Mapping[int, Sequence[str]] | None = None) -> dict[str, Any]:
    """The `tablectl play` answer: the result, or a void naming its clause. Refusals raise."""
    try:
        _, result = run_round(game, cards, decks, spots, decisions)
    except Irregular as irregular:
        if irregular.rule.consequence is Consequence.REFUSE:
            raise
        return void_json(irregular.rule, irregular.detail, cards)
    out = result.to_json()
    out["cards"] = [str(c) for c in cards]
    return out

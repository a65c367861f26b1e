"""One round as the table plays it: the game's RoundState plus what the journal needs."""
from __future__ import annotations

from games.cards import Card
from games.round import AwaitDecision, Deal, Game, RoundResult, RoundState, Step


class RoundPlay:
    def __init__(self, game: Game, number: int, decks: int, spots: tuple[int, ...], shoe: int):
        self.game, self.number, self.shoe = game, number, shoe
        self.state: RoundState = game.start(decks, spots)
        self.bets_closed = False
        self.result: RoundResult | None = None
        self.irregularities: list[dict] = []
        self._step: Step | None = None  # the game's next step, until the state changes

    @property
    def spots(self) -> tuple[int, ...]:
        return self.state.spots

    def set_spots(self, spots: tuple[int, ...]) -> None:
        self.state, self._step = self.game.start(self.state.decks, spots), None

    def step(self) -> Step:
        if self._step is None:
            self._step = self.game.next_step(self.state)
        return self._step

    def add_card(self, card: Card) -> Deal:
        """Deal `card` where the game says; raises Irregular. Returns where it went."""
        state, deal = self.try_card(card)
        self.take(state)
        return deal

    def try_card(self, card: Card) -> tuple[RoundState, Deal]:
        """The round once `card` is dealt, and where it goes, leaving the round as it is;
        raises Irregular."""
        step = self.step()
        state = self.game.with_card(self.state, card)
        return state, step if isinstance(step, Deal) else state.dealt_to[-1]

    def take(self, state: RoundState) -> None:
        """The round is now `state` (from `try_card`)."""
        self.state, self._step = state, None

    def add_decision(self, spot: int, decision: str) -> None:
        self.state, self._step = self.game.with_decision(self.state, spot, decision), None

    def awaited(self) -> AwaitDecision | None:
        step = self.step()
        return step if isinstance(step, AwaitDecision) else None

    def hands(self) -> dict[str, list[str]]:
        hands: dict[str, list[str]] = {}
        for card, deal in zip(self.state.cards, self.state.dealt_to):
            hands.setdefault(deal.hand, []).append(str(card))
        return hands

    def cards_json(self) -> list[str]:
        return [str(c) for c in self.state.cards]

    def snapshot(self) -> dict:
        return {
            "number": self.number, "shoe": self.shoe, "spots": list(self.spots),
            "bets_closed": self.bets_closed, "cards": self.cards_json(), "hands": self.hands(),
            "decisions": [[spot, d] for spot, d in self.state.decisions],
            "irregularities": list(self.irregularities),
        }

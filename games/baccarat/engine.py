"""`BaccaratGame`: the Punto Banco round every one of the three games deals.

Deal order (fafa §3.7, fortune6 §3.7, fortune7 "one card to the right and one to the left"):
cards 1 and 3 to the player, 2 and 4 to the banker (the initial deal), then the player's
third card and then the banker's, each only if the Table of Play calls for it. A game is
this engine plus its deck, pay tables (`Wager`s) and a function settling a `Coup`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from games.baccarat.coup import BANKER, PLAYER, Coup, coup_of
from games.baccarat.irregularities import late_double_draw_rule
from games.baccarat.table_of_play import banker_draws, cards_total, player_draws
from games.cards import Card, DeckKind
from games.round import (
    LOSE,
    BetResult,
    Complete,
    Deal,
    Game,
    HandView,
    Irregular,
    IrregularityRule,
    RoundResult,
    RoundState,
    Wager,
    win,
)
from games.round import (
    IrregularityKind as K,
)

INITIAL_ORDER = (PLAYER, BANKER, PLAYER, BANKER)
MAX_CARDS = 6  # two hands of at most three cards

# a bet key -> the pay-line outcome that applies, or None when the wager loses
Outcomes = Mapping[str, str | None]
CoupSettler = Callable[[Coup], Outcomes]
PairJudge = Callable[[Card, Card], str | None]


class BaccaratGame(Game):
    """One Punto Banco game. `settle_coup` decides the wagers settled on the finished hands;
    `pair_wagers` maps a wager key to (hand, judge) for wagers on a hand's first two cards."""

    max_spots = 0

    def __init__(
        self, *, key: str, title: str, deck_kind: DeckKind, deck_counts: tuple[int, ...],
        default_decks: int, wagers: tuple[Wager, ...],
        irregularities: Mapping[K, IrregularityRule], settle_coup: CoupSettler,
        pair_wagers: Mapping[str, tuple[str, PairJudge]] | None = None, limits_clause: str | None = None,
    ):
        self.key, self.title = key, title
        self.deck_kind, self.deck_counts, self.default_decks = deck_kind, deck_counts, default_decks
        self.wagers = {w.key: w for w in wagers}
        self.irregularities = dict(irregularities)
        missing = set(K) - set(self.irregularities)
        if missing:
            raise ValueError(f"{key}: no irregularity rule for {sorted(k.value for k in missing)}")
        self.settle_coup = settle_coup
        self.pair_wagers = dict(pair_wagers or {})
        if limits_clause is not None:
            self.limits_clause = limits_clause
        self._late_double_draw = late_double_draw_rule()
        # every wager's result for each of its pay lines, built once (a result is immutable)
        self._wins = {(w.key, line.outcome): win(w, line.outcome) for w in wagers for line in w.lines}
        self._deck = frozenset(deck_kind.cards)  # what _check_belongs asks of every card
        # the last state asked about and its step: a card's state is asked about again by
        # with_card and result after the table asked (states are immutable: identity suffices)
        self._last_step: tuple[RoundState | None, Deal | Complete] = (None, Complete())

    def __repr__(self) -> str:
        return f"BaccaratGame({self.key})"

    # ------------------------------------------------------------ the deal

    def max_cards(self, spots: tuple[int, ...] = ()) -> int:
        return MAX_CARDS

    def double_draw_rule(self, initial: bool) -> IrregularityRule:
        """§5.3 voids a double draw during the initial deal only; later, local ruling L6."""
        return self.rule(K.DOUBLE_DRAW) if initial else self._late_double_draw

    def next_step(self, state: RoundState) -> Deal | Complete:  # baccarat asks no decisions
        asked, step = self._last_step  # one read: a game is shared by every table
        if asked is not state:
            step = self._step_after(state)
            self._last_step = (state, step)
        return step

    def _step_after(self, state: RoundState) -> Deal | Complete:
        dealt = len(state.cards)
        if dealt < len(INITIAL_ORDER):
            return Deal(INITIAL_ORDER[dealt], dealt // 2, initial=True)
        player, banker = state.hand(PLAYER), state.hand(BANKER)
        p_total, b_total = cards_total(player[:2]), cards_total(banker[:2])
        if len(player) == 2 and player_draws(p_total, b_total):
            return Deal(PLAYER, 2, initial=False)
        third = player[2].point if len(player) == 3 else None
        if len(banker) == 2 and banker_draws(p_total, b_total, third):
            return Deal(BANKER, 2, initial=False)
        return Complete()

    def with_card(self, state: RoundState, card: Card) -> RoundState:
        self._check_belongs(state, card)
        step = self.next_step(state)
        if isinstance(step, Complete):
            raise Irregular(
                self.rule(K.EXTRA_CARD),
                f"{card} is card {len(state.cards) + 1}; the Table of Play completed the round "
                f"after {len(state.cards)}",
            )
        return state.evolve(cards=state.cards + (card,), dealt_to=state.dealt_to + (step,))

    def _check_belongs(self, state: RoundState, card: Card) -> None:
        if card not in self._deck:
            raise Irregular(self.rule(K.FOREIGN_CARD), f"{card} is not a card of the {self.deck_kind.value} deck")
        if len(state.cards) < state.decks:  # too few cards in the round to hold a copy too many
            return
        copies = state.cards.count(card) + 1
        if copies > state.decks:
            raise Irregular(
                self.rule(K.FOREIGN_CARD),
                f"impossible duplicate: copy {copies} of {card} in a shoe of {state.decks} decks",
            )

    # ------------------------------------------------------------ the result

    def result(self, state: RoundState) -> RoundResult:
        step = self.next_step(state)
        if not isinstance(step, Complete):
            raise Irregular(
                self.rule(K.MISSING_CARD),
                f"the round is not complete: card {len(state.cards) + 1} is due to the {step.hand}",
            )
        player, banker = state.hand(PLAYER), state.hand(BANKER)
        coup = coup_of(player, banker)
        bets = self.settle(coup, player, banker)
        hands = {PLAYER: HandView(player, coup.player), BANKER: HandView(banker, coup.banker)}
        return RoundResult(game=self.key, winner=coup.winner, hands=hands, bets=bets)

    def settle(self, coup: Coup, player: tuple[Card, ...], banker: tuple[Card, ...]) -> dict[str, BetResult]:
        """Every betting area's result, in the order of the layout (`self.wagers`)."""
        outcomes = dict(self.settle_coup(coup))
        hands = {PLAYER: tuple(player), BANKER: tuple(banker)}
        for key, (hand, judge) in self.pair_wagers.items():
            outcomes[key] = judge(*hands[hand][:2])
        # each pay line's result is built once (_wins); win() names an outcome no line has
        return {key: LOSE if (outcome := outcomes[key]) is None else self._wins.get((key, outcome)) or win(wager, outcome)
                for key, wager in self.wagers.items()}

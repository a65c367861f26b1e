"""Fu Bacc as a Game: the packet deal (ruling 17), the spots' decisions, the settlement.

The round, as the shoe and the dealer's panel see it:
  1. Deal: one 3-card packet to each live spot in seat order from seat 1 (the dealer's left),
     then the dealer's packet (ruling 17). A spot's packet is Deal("spotN", 0..2): positions 0
     and 1 are the hand, 2 the hit card. The dealer's is Deal("dealer", 0..2): up card, hole
     card, hit card. Every card comes out before any decision, so all are the initial deal.
  2. Decisions, spot by spot in seat order 1..n (the rules' "complete the first hand before
     playing the second"; the hit cards are already dealt, so the order changes nothing):
       fold | play then hit or stay | bonus (only when eligible, ends the hand: ruling 15)
       | no_ante (the spot has only Lucky Monkey and/or Tie: no decision, no third card,
       procedure 1). The dealer declares no_ante on the panel when the spot comes up, because
       the controller cannot see chips; it is the one honest place the spot's wagers show.
  3. Result: the dealer stands on 6-9 and draws the hit card on 0-5 (ruling 16); unused hit
     cards are burned; spots are settled from the dealer's right (procedure 10), i.e. from the
     highest live seat down, and RoundResult.spots lists them in that order.
"""
from __future__ import annotations

from collections.abc import Mapping

from games.analysis import BetOdds
from games.cards import Card, DeckKind
from games.fubacc.demo import OptimalFuBacc
from games.fubacc.hands import bonus_line, cards_total, dealer_draws, two_monkeys
from games.fubacc.irregularities import IRREGULARITIES
from games.fubacc.odds import odds, odds_for
from games.fubacc.strategy import point_counts_of
from games.fubacc.wagers import BONUS, FOLD, HIT, NO_ANTE, PLAY_ON, STAY, WAGERS, settle_spot
from games.round import (
    AwaitDecision,
    Complete,
    Deal,
    Game,
    HandView,
    Irregular,
    RoundResult,
    RoundState,
    Step,
)
from games.round import (
    IrregularityKind as K,
)
from games.table_profile import TableProfile, decision_buttons, spot_buttons

PACKET = 3  # fubacc procedure 3: three cards to each live spot and to the dealer

__all__ = ["GAME", "FuBacc", "edge_bets", "odds"]


class FuBacc(Game):
    key = "fubacc"
    title = "Fu Bacc"
    deck_kind = DeckKind.STANDARD52
    deck_counts = (1,)  # "a standard 52-card deck", shuffler or hand dealt (procedure 3)
    default_decks = 1
    uses_spots = True
    max_spots = 7  # the layout shows a normal 7-seat table
    wagers = WAGERS
    irregularities = IRREGULARITIES
    limits_clause = "fubacc procedure 1"  # "according to posted table limits"

    def start(self, decks: int | None = None, spots: tuple[int, ...] = ()) -> RoundState:
        spots = tuple(spots)
        if not spots:
            raise ValueError("fubacc deals only to live spots: name at least one (seats 1-7)")
        bad = [s for s in spots if not 1 <= s <= self.max_spots]
        if bad:
            raise ValueError(f"fubacc has seats 1-{self.max_spots}, not {bad[0]}")
        if len(set(spots)) != len(spots):
            raise ValueError(f"fubacc spots {spots}: a seat is named twice")
        return super().start(decks, spots)

    def max_cards(self, spots: tuple[int, ...] = ()) -> int:
        return PACKET * (len(spots) + 1)

    # ------------------------------------------------------------ the deal

    def next_step(self, state: RoundState) -> Step:
        dealt = len(state.cards)
        if dealt < self.max_cards(state.spots):
            return deal_slot(state.spots, dealt)
        for spot in state.spots:
            options = self._options(state, spot)
            if options:
                return AwaitDecision(spot, options)
        return Complete()

    def with_card(self, state: RoundState, card: Card) -> RoundState:
        number = len(state.cards) + 1
        if not self.deck_kind.contains(card):
            raise Irregular(self.rule(K.FOREIGN_CARD), f"{card} (card {number}) is not a card of the 52-card deck")
        step = self.next_step(state)
        if not isinstance(step, Deal):
            raise Irregular(
                self.rule(K.EXTRA_CARD),
                f"all {len(state.cards)} packet cards are dealt; {card} (card {number}) is extra",
            )
        if state.cards.count(card) >= state.decks:
            first = state.cards.index(card) + 1
            raise Irregular(
                self.rule(K.FOREIGN_CARD),
                f"{card} (card {number}) is a second {card} in a single deck (first was card {first})",
            )
        return state.evolve(cards=state.cards + (card,), dealt_to=state.dealt_to + (step,))

    # ------------------------------------------------------------ decisions

    def _options(self, state: RoundState, spot: int) -> tuple[str, ...]:
        made = state.decision_of(spot)
        if not made:
            two = state.hand(f"spot{spot}")[:2]
            up = state.hand("dealer")[0]
            bonus = (BONUS,) if bonus_line(cards_total(two), two_monkeys(two), up.point) else ()
            return (FOLD, PLAY_ON) + bonus + (NO_ANTE,)
        if made == (PLAY_ON,):
            return (HIT, STAY)
        return ()

    def with_decision(self, state: RoundState, spot: int, decision: str) -> RoundState:
        """One decision; "play,hit" / "play,stay" (as the panel and the docs write them) are
        taken as their two steps, each checked."""
        if isinstance(decision, str) and "," in decision:
            for part in decision.split(","):
                state = self.with_decision(state, spot, part)
            return state
        choice = decision.strip().lower() if isinstance(decision, str) else decision
        step = self.next_step(state)
        refuse = self.rule(K.BAD_DECISION)
        if isinstance(step, Deal):
            raise Irregular(refuse, f"spot {spot}: {choice!r} before the packets are dealt "
                                    f"({len(state.cards)} of {self.max_cards(state.spots)} cards)")
        if spot not in state.spots:
            raise Irregular(refuse, f"spot {spot} is not live (live: {', '.join(map(str, state.spots))})")
        if isinstance(step, Complete) or (step.spot != spot and self._options(state, spot) == ()):
            made = ",".join(state.decision_of(spot))
            raise Irregular(refuse, f"spot {spot} has already decided ({made}); {choice!r} is not asked for")
        if step.spot != spot:
            raise Irregular(refuse, f"spot {spot}: {choice!r} out of turn; spot {step.spot} decides first (seat order)")
        if choice not in step.options:
            raise Irregular(refuse, f"spot {spot}: {choice!r} is not allowed now{_why(choice)}; "
                                    f"one of {', '.join(step.options)}")
        return state.evolve(decisions=state.decisions + ((spot, choice),))

    # ------------------------------------------------------------ the result

    def result(self, state: RoundState) -> RoundResult:
        step = self.next_step(state)
        if isinstance(step, Deal):
            raise Irregular(
                self.rule(K.MISSING_CARD),
                f"{len(state.cards)} of {self.max_cards(state.spots)} packet cards dealt; "
                f"card {len(state.cards) + 1} is due to {step.hand}",
            )
        if isinstance(step, AwaitDecision):
            raise Irregular(self.rule(K.BAD_DECISION),
                            f"spot {step.spot} has not decided (one of {', '.join(step.options)})")
        up, hole, dealer_hit = state.hand("dealer")
        dealer_cards = (up, hole, dealer_hit) if dealer_draws(cards_total((up, hole))) else (up, hole)
        dealer_total = cards_total(dealer_cards)
        order = tuple(sorted(state.spots, reverse=True))  # procedure 10: from the dealer's right
        spots, burned = {}, []
        for number, spot in enumerate(order, 1):
            first, second, hit_card = packet = state.hand(f"spot{spot}")  # complete: PACKET cards
            done = settle_spot((first, second, hit_card), state.decision_of(spot), up, dealer_total)
            spots[spot] = {
                "settled": number,
                "decision": done.decision,
                "hand": HandView(done.hand, done.total),
                "hit_card": packet[2],
                "hit_card_used": done.hit_card_used,
                "bets": done.bets,
            }
            if not done.hit_card_used:
                burned.append(f"{packet[2]} (spot {spot} hit card)")
        if len(dealer_cards) == 2:
            burned.append(f"{dealer_hit} (dealer hit card)")
        notes = (
            "settled from the dealer's right (fubacc procedure 10): "
            + ", ".join(f"spot {s}" for s in order),
            "burned: " + (", ".join(burned) if burned else "none"),
        )
        return RoundResult(
            game=self.key,
            winner=None,
            hands={"dealer": HandView(dealer_cards, dealer_total)},
            bets={},
            spots=spots,
            notes=notes,
        )


def deal_slot(spots: tuple[int, ...], dealt: int) -> Deal:
    """Where card number `dealt` (0-based) of the packet deal goes (ruling 17)."""
    packet, position = divmod(dealt, PACKET)
    hand = f"spot{spots[packet]}" if packet < len(spots) else "dealer"
    return Deal(hand, position)


def _why(choice: str) -> str:
    if choice == BONUS:
        return " (no natural 8 or 9, and not two monkeys against a dealer 9: procedures 12-15)"
    if choice in (HIT, STAY):
        return " (hit or stay comes only after play: procedure 8)"
    return ""


GAME = FuBacc()

# The table: seven spots, each with its lamp and result lamps; spot buttons and a button per
# decision; a fresh single deck every round from a shuffler, no burn. The demo's players play
# the optimal strategy.
TABLE = TableProfile(
    result_lamps={"ante": 80, "play": 81, "lucky_monkey": 82, "tie": 83},
    spots=GAME.max_spots,
    buttons=(*spot_buttons(GAME.max_spots, "spot {n}: toggle live while betting; select for the next decision"),
             *decision_buttons(21, (FOLD, PLAY_ON, HIT, STAY, BONUS, NO_ANTE))),
    burn=False, deck_per_round=True, default_spots=(1,),
    demo_player=OptimalFuBacc,
)


def edge_bets(left: Mapping[Card, int], decks: int) -> tuple[dict[str, BetOdds], tuple[str, ...]]:
    """One spot's wagers for a round dealt from `left`, played with the optimal strategy for
    that deck (games.live_edge)."""
    return dict(odds_for(point_counts_of(left), decks).bets), ("one spot, played with the optimal strategy for the cards left",)

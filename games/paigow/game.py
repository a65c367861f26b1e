"""Fortune Pai Gow Poker (fortune-paigow-poker.txt): the round as the shoe and the table see it.

Deal (§3.6, ruling 17a): a 7-card packet to each spot with a wager in seat order from seat 1,
then the dealer's packet, from one deck of 53 (52 + joker). Six spots at most: with the
dealer's packet that is 49 cards; a seventh spot would need 56 (docs/paigow.md).
Then each spot sets its hand in seat order: "house" (the House Way, Appendix A) or the low
hand as "Ks+Qs" (the other five are the high hand). A fouled setting is re-set by the House
Way (§3.7.2).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from itertools import combinations

from games.analysis import BetOdds, OddsReport, bet_odds
from games.cards import Card, CardError, DeckKind, parse_card
from games.paigow.bonus import FORTUNE_TABLE, fortune_outcome_of
from games.paigow.bonus_count import count_flags, count_flags_of, tally
from games.paigow.rules import DUPLICATE_CARD, IRREGULARITIES, WAGERS
from games.paigow.settle import HOUSE, decide
from games.round import (
    AwaitDecision,
    Complete,
    Deal,
    Game,
    Irregular,
    IrregularityKind,
    RoundResult,
    RoundState,
    Step,
)
from games.table_profile import Button, TableProfile, spot_buttons

PACKET = 7
K = IrregularityKind


class PaiGowGame(Game):
    key = "paigow"
    title = "Fortune Pai Gow Poker"
    deck_kind = DeckKind.PAIGOW53
    deck_counts = (1,)
    default_decks = 1
    uses_spots = True
    max_spots = 6
    wagers = WAGERS
    irregularities = IRREGULARITIES

    def start(self, decks: int | None = None, spots: tuple[int, ...] = ()) -> RoundState:
        if not spots:
            raise ValueError("paigow deals only to spots with a wager (§3.6): name at least one spot")
        if len(set(spots)) != len(spots):
            raise ValueError(f"spots {tuple(spots)}: a seat is named twice")
        bad = [s for s in spots if not 1 <= s <= self.max_spots]
        if bad:
            raise ValueError(f"spot {bad[0]}: paigow has seats 1-{self.max_spots}")
        return super().start(decks, spots)

    def max_cards(self, spots: tuple[int, ...] = ()) -> int:
        return PACKET * (len(spots) + 1)

    @staticmethod
    def packets(state: RoundState) -> tuple[str, ...]:
        """The hands in the order their packets leave the shoe."""
        return tuple(f"spot{s}" for s in state.spots) + ("dealer",)

    def next_step(self, state: RoundState) -> Step:
        dealt = len(state.cards)
        packets = self.packets(state)
        if dealt < PACKET * len(packets):
            return Deal(packets[dealt // PACKET], dealt % PACKET)
        decided = {spot for spot, _ in state.decisions}
        for spot in state.spots:
            if spot not in decided:
                return AwaitDecision(spot, self.options(state, spot))
        return Complete()

    @staticmethod
    def options(state: RoundState, spot: int) -> tuple[str, ...]:
        """"house", or any two of the spot's cards as the low hand."""
        cards = state.hand(f"spot{spot}")
        return (HOUSE,) + tuple(f"{a}+{b}" for a, b in combinations(cards, 2))

    def with_card(self, state: RoundState, card: Card) -> RoundState:
        if not self.deck_kind.contains(card):
            raise Irregular(self.rule(K.FOREIGN_CARD), f"{card} is not a card of the pai gow deck (52 + joker)")
        if card in state.cards:
            position = state.cards.index(card) + 1
            raise Irregular(DUPLICATE_CARD, f"{card} was already dealt as card {position} of this round")
        step = self.next_step(state)
        if not isinstance(step, Deal):
            raise Irregular(
                self.rule(K.EXTRA_CARD),
                f"{card} is card {len(state.cards) + 1}; the deal ended with the dealer's seven",
            )
        return state.evolve(cards=state.cards + (card,), dealt_to=state.dealt_to + (step,))

    def with_decision(self, state: RoundState, spot: int, decision: str) -> RoundState:
        refuse = self.rule(K.BAD_DECISION)
        step = self.next_step(state)
        if not isinstance(step, AwaitDecision):
            raise Irregular(refuse, f"spot {spot}: no setting is due now")
        if step.spot != spot:
            raise Irregular(refuse, f"spot {spot}: spot {step.spot} sets its hand first (seat order)")
        return state.evolve(decisions=state.decisions + ((spot, self._setting(state, spot, decision)),))

    def _setting(self, state: RoundState, spot: int, decision: str) -> str:
        """The decision in canonical form ("house" or "Ks+Qs"); refused with a clear reason."""
        refuse = self.rule(K.BAD_DECISION)
        text = str(decision).strip()
        if text.lower() == HOUSE:
            return HOUSE
        tokens = text.split("+")
        if len(tokens) != 2:
            raise Irregular(refuse, f"spot {spot}: setting {decision!r}: give \"house\" or the low hand as two cards, e.g. Ks+Qs")
        cards = state.hand(f"spot{spot}")
        low = []
        for token in tokens:
            try:
                card = parse_card(token)
            except CardError as error:
                raise Irregular(refuse, f"spot {spot}: setting {decision!r}: bad card {token.strip()!r}: {error.reason}") from None
            if card not in cards:
                held = " ".join(map(str, cards))
                raise Irregular(refuse, f"spot {spot}: setting {decision!r}: {card} is not one of the spot's cards ({held})")
            low.append(card)
        if low[0] == low[1]:
            raise Irregular(refuse, f"spot {spot}: setting {decision!r}: {low[0]} named twice")
        return f"{low[0]}+{low[1]}"

    def default_decision(self, state: RoundState, spot: int) -> str:
        return HOUSE  # a spot that gives no setting is set by the House Way

    def result(self, state: RoundState) -> RoundResult:
        step = self.next_step(state)
        if isinstance(step, Deal):
            raise Irregular(self.rule(K.MISSING_CARD),
                            f"{len(state.cards)} cards dealt; card {len(state.cards) + 1} is due to {step.hand}")
        if isinstance(step, AwaitDecision):
            raise Irregular(self.rule(K.BAD_DECISION), f"spot {step.spot} has not set its hand")
        return decide(state)


GAME = PaiGowGame()

# The table: six spots, each with its lamp and result lamps; spot buttons and one to set the
# selected spot's hand by the House Way; one deck of 53 a round from a shuffler (ruling 17a), no burn.
TABLE = TableProfile(
    result_lamps={"standard": 80, "fortune_bonus": 81},
    spots=GAME.max_spots,
    buttons=(*spot_buttons(GAME.max_spots, "spot {n}: toggle live while betting; select for the next setting"),
             Button(26, "decide", {"decision": HOUSE}, meaning="the selected spot is set by the House Way")),
    burn=False, deck_per_round=True, default_spots=(1,),
)


def odds(decks: int = 1) -> OddsReport:
    """The Fortune Bonus, exactly over all C(53,7) = 154,143,080 hands (games/paigow/bonus_count.py)."""
    if decks not in GAME.deck_counts:
        raise ValueError(f"paigow is played with one deck of 53, not {decks}")
    return OddsReport(
        game=GAME.key,
        decks=decks,
        bets={"fortune_bonus": fortune_odds()},
        notes=(
            "Envy Bonus: fixed money ($250 for a seven-card straight flush without joker, $50 for a Royal Match, "
            "paid to the other spots' Fortune Bonus wagers, ruling 21); not a multiple of a stake, so not part "
            "of the Fortune Bonus house edge",
            "Standard wager: not analysed here; its edge depends on how the player sets the hand against the "
            "dealer's House Way",
        ),
    )


def fortune_odds(cards_left: Iterable[Card] | None = None) -> BetOdds:
    """The Fortune Bonus over every seven-card hand of the full deck, or of `cards_left` (a deck
    with some cards out: each card once)."""
    flags = count_flags() if cards_left is None else count_flags_of(cards_left)
    counts = tally(flags, fortune_outcome_of)
    total = sum(counts.values())
    rows = [(outcome, f"{pays}:1", counts.get(outcome, 0), Fraction(pays)) for outcome, _, pays, _ in FORTUNE_TABLE]
    rows.append(("lose", "lose", counts.get(None, 0), Fraction(-1)))
    return bet_odds("fortune_bonus", rows, total, notes=(
        "judged on the best use of all seven cards, whatever the setting (ruling 19); the highest-paying line wins",
        "counted over every hand of " + ("one 53-card deck" if cards_left is None else "the cards left")
        + " by rank patterns x suit assignments, not sampled",
    ))


def edge_bets(left: Mapping[Card, int], decks: int) -> tuple[dict[str, BetOdds], tuple[str, ...]]:
    """The Fortune Bonus for a round dealt from `left` (games.live_edge); a full deck is the
    cached count of `odds`."""
    full = sum(left.values()) == len(GAME.deck_kind.cards) * decks
    return {"fortune_bonus": fortune_odds(None if full else [card for card, n in left.items() if n])}, (
        "Fortune Bonus over every seven-card hand of the cards left; the Standard wager is not analysed",)

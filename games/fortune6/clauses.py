"""Fortune Six Baccarat Tournament: the clauses tablectl cites, one sentence each for what the rules text says and
what tablectl does (games.clauses gathers every game's BOOK; docs/clauses.md prints it)."""
from __future__ import annotations

from games.clause_book import HOLD, VOID_AND_STAND, ClauseBook, clause

BOOK = ClauseBook(
    cited_as="fortune6",
    clauses={
        "fortune6 §1.1.4": clause("a natural is a two-card 8 or 9 in the initial deal", "no third card to either hand"),
        "fortune6 §2.1": clause("played with 4 to 10 decks of 52 cards", "accepts decks = 4-10 (default 8)"),
        "fortune6 §3.2": clause("bets close when the dealer announces \"No more bets\"", "the no_more_bets button or command closes them"),
        "fortune6 §3.4": clause("a hand's point total is the right digit of its card values' sum", "counts totals so"),
        "fortune6 §3.7": clause("four cards: 1st and 3rd to the Player, 2nd and 4th to the Banker", "assigns cards in that order"),
        "fortune6 §3.8": clause("Player/Banker Pair: the hand's first two cards are a pair", "judges pairs by rank (ruling 11)"),
        "fortune6 §3.9": clause("the Table of Play: when each hand draws a third card", "calls for a third card exactly as the table says"),
        "fortune6 §3.11": clause("Fortune Six wins when the Banker wins with 6, on two or three cards", "settles it 12:1 or 20:1"),
        "fortune6 §4.1": clause("the pay table: Banker and Player 1:1 (no commission), Tie 8:1, Pairs 11:1, "
                                "Fortune Six 12:1 two-card / 20:1 three-card", "pays exactly this table"),
        "fortune6 §5": clause("Irregularities: what voids a round, what may be reconstructed, no late or withdrawn bets",
                              "applies each clause; Fortune 7 borrows them (local ruling L1)"),
        "fortune6 §5.1": clause("a foreign card found: the round is void, earlier results stand", VOID_AND_STAND),
        "fortune6 §5.2": clause("a hand dealt the wrong number of cards (an extra card, or one the shoe dealt unread: "
                                "ruling 23): void unless the cards can be reconstructed", HOLD),
        "fortune6 §5.3": clause("two cards drawn at once in the initial deal, order unknown: void", VOID_AND_STAND),
        "fortune6 §5.4": clause("the order of cards in the shoe altered and not reconstructable: void", VOID_AND_STAND),
        "fortune6 §5.5": clause("not enough cards in the shoe to finish the round: void", VOID_AND_STAND),
        "fortune6 §5.6": clause("after \"No more bets\" no wager may be placed or increased", "refuses the betting commands"),
        "fortune6 §5.7": clause("after \"No more bets\" a withdrawn wager is still won or lost", "settles every wager of the round"),
    },
    bare_sections="fortune6",
)

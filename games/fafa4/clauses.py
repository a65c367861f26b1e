"""Fa Fa Fabulous 4 Baccarat: the clauses tablectl cites, one sentence each for what the rules text says and
what tablectl does (games.clauses gathers every game's BOOK; docs/clauses.md prints it)."""
from __future__ import annotations

from games.clause_book import HOLD, VOID_AND_STAND, ClauseBook, clause

BOOK = ClauseBook(
    cited_as="fafa",
    clauses={
        "fafa §1.1.5": clause("a natural is a two-card 8 or 9 in the initial deal", "no third card to either hand"),
        "fafa §1.1.7": clause("Precious Pair: the first two cards of a hand form a Gold 4s, 4s, Gold or other pair",
                              "judges the pair by rank (ruling 2)"),
        "fafa §2.1": clause("played with 4 to 10 decks of 65 cards", "accepts decks = 4-10 (default 8)"),
        "fafa §3.2": clause("bets close when the dealer announces \"No more bets\"", "the no_more_bets button or command closes them"),
        "fafa §3.4": clause("a hand's point total is the right digit of its card values' sum", "counts totals so"),
        "fafa §3.7": clause("four cards: 1st and 3rd to the Player, 2nd and 4th to the Banker", "assigns cards in that order"),
        "fafa §3.8": clause("the Table of Play: when each hand draws a third card", "calls for a third card exactly as the table says"),
        "fafa §3.11": clause("Banker wins with 4: Banker Fabulous 4 wins, Banker wagers push, Player wagers lose",
                             "settles so (lamp bet_banker slow-blinks for the push)"),
        "fafa §3.12": clause("Player wins with 4: Player Fabulous 4 wins, Player paid per §4.1 (1:2), Banker loses",
                             "settles so"),
        "fafa §4.1": clause("the pay table: Player/Banker 1:1 (2:1 on 1; on 4 Player 1:2, Banker push), Tie 8:1 "
                            "(800:1 on Element Eights), Fabulous 4 50:1 / 25:1", "pays exactly this table"),
        "fafa §4.2": clause("Precious Pair pays 30/15/12/9 to 1, once, the highest line", "pays the highest line only"),
        "fafa §5": clause("Irregularities: what voids a round, what may be reconstructed, no late or withdrawn bets",
                          "applies each clause; Fu Bacc borrows them (local ruling L2)"),
        "fafa §5.1": clause("extra or missing cards in the decks' composition, or foreign cards: the round is void, "
                            "earlier results stand (ruling 23)", VOID_AND_STAND),
        "fafa §5.2": clause("a hand dealt the wrong number of cards (an extra card, or one the shoe dealt unread: "
                            "ruling 23): void unless the cards can be reconstructed", HOLD),
        "fafa §5.3": clause("two cards drawn at once in the initial deal, order unknown: void", VOID_AND_STAND),
        "fafa §5.4": clause("the order of cards in the shoe altered and not reconstructable: void", VOID_AND_STAND),
        "fafa §5.5": clause("not enough cards in the shoe to finish the round: void", VOID_AND_STAND),
        "fafa §5.6": clause("after \"No more bets\" no wager may be placed or increased", "refuses the betting commands"),
        "fafa §5.7": clause("after \"No more bets\" a withdrawn wager is still won or lost", "settles every wager of the round"),
    },
    bare_sections="fafa4",
)

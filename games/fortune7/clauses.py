"""Fortune 7 Baccarat (California): the clauses tablectl cites, one sentence each for what the rules text says and
what tablectl does (games.clauses gathers every game's BOOK; docs/clauses.md prints it)."""
from __future__ import annotations

from games.clause_book import ClauseBook, clause

BOOK = ClauseBook(
    cited_as="fortune7",
    clauses={
        "fortune7 Type of Game": clause(
            "a player-dealer banks, winning or losing at most its stake; the position moves clockwise every two hands",
            "the player-dealer's stake on its bank space; a holder without one passes the position; its own seat "
            "does not wager; the bank settles the wagers and the house nets the fees alone"),
        "fortune7 Dealing Procedures and Round of Play": clause(
            "the deal, the Table of Play and the player-dealer position rotating every two hands",
            "deals and draws by the baccarat Table of Play; rotates the player-dealer seat"),
        "fortune7 How Winners are Determined and Paid": clause(
            "settlement from the player-dealer's left, line bets first, up to the player-dealer's stake",
            "settlement order and coverage are computed in games/baccarat/california"),
        "fortune7 Tie Bet": clause("a tie of the two hands pays 8:1; the Tie may be bet alone", "pays 8:1"),
        "fortune7 One Up Bonus Bet": clause("the Player wins by exactly one point", "pays 30:1 on 1-0, 9:1 otherwise (ruling 7)"),
        "fortune7 Fortune 7 Bonus Bet": clause("the Banker wins with a three-card 7", "pays 40:1 (ruling 6)"),
        "fortune7 Wagering Limits and Collection Fees": clause(
            "each betting space has a minimum and a maximum; players bet at least the table minimum",
            "refuses a wager of record outside the table's [limits] or the collection schedule's at \"No more bets\"; "
            "takes the schedule's fees before the deal (ruling 25)"),
    },
    named=("Type of Game", "Dealing Procedures and Round of Play", "How Winners are Determined and Paid", "Tie Bet",
           "One Up Bonus Bet", "Fortune 7 Bonus Bet", "Wagering Limits and Collection Fees"),
)

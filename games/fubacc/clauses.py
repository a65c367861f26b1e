"""Fu Bacc: the clauses tablectl cites, one sentence each for what the rules text says and
what tablectl does (games.clauses gathers every game's BOOK; docs/clauses.md prints it)."""
from __future__ import annotations

from games.clause_book import ClauseBook, clause

BOOK = ClauseBook(
    cited_as="fubacc",
    clauses={
        "fubacc way 1": clause("against the dealer: Ante, then fold or Play (2x Ante) with one optional hit card",
                               "takes fold / play,hit / play,stay / bonus / no_ante per spot"),
        "fubacc way 2": clause("Lucky Monkey: two monkeys (10-K) against the dealer's up card pay 30/20/15/10/5 to 1",
                               "settles it on the first two cards and the up card (ruling 13)"),
        "fubacc way 3": clause("the Tie: player and dealer tie, pays 7:1", "settles it on the final hand (ruling 14)"),
        "fubacc procedure 1": clause("each player bets Ante, Lucky Monkey and/or Tie; a Tie-only hand plays its two cards",
                                     "a spot without an Ante is declared no_ante and gets no hit card"),
        "fubacc procedure 2": clause("\"No more bets\" before any card is dispensed",
                                     "refuses bets after it; a card before it voids (local ruling L3)"),
        "fubacc procedure 3": clause("three cards to each live spot and three to the dealer, one deck", "deals 3-card packets (ruling 17)"),
        "fubacc procedure 6": clause("after looking at two cards the player plays or folds", "waits for each spot's decision"),
        "fubacc procedure 7": clause("a fold loses the Ante; a Tie wager stays on the original two cards", "settles so"),
        "fubacc procedure 8": clause("a Play of 2x Ante, then stay on two cards or take the hit card", "takes play,stay or play,hit"),
        "fubacc procedure 9": clause("the dealer draws the hit card on 0-5, stands on 6-9", "draws for the dealer so (ruling 16)"),
        "fubacc procedure 10": clause("settlement starts with the player on the dealer's right",
                                      "settles spots from the highest seat down"),
        "fubacc procedure 11": clause("on a tie the Ante loses, the Play pushes, the Tie pays 7:1", "settles so (ruling 15)"),
        "fubacc procedure 12": clause("a two-card 8 or 9 is a natural, eligible for an Ante bonus", "offers bonus on a natural"),
        "fubacc procedure 13": clause("natural 9: take 2:1 on the Ante and end the hand, or play on", "offers bonus (2:1) or play"),
        "fubacc procedure 14": clause("natural 8: take 3:2 on the Ante and end the hand, or play on", "offers bonus (3:2) or play"),
        "fubacc procedure 15": clause("two monkeys against a dealer 9: take 1:1 on the Ante and end the hand, or play on",
                                      "offers bonus (1:1) or play"),
    },
    numbered=("procedure", "way"),
    bare_sections="fafa4",  # its code cites Fa Fa's §5 (local ruling L2): Fu Bacc numbers no sections
)

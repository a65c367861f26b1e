"""What voids, holds or refuses a baccarat round, and which clause says so.

Fa Fa Fabulous 4 and Fortune Six have the same §5 (fafa §5.1 also names extra or missing
cards, which ruling 23 reads as the decks' composition; a hand dealt too many or too few
cards, or a card that left the shoe unread, is §5.2 in both). Fortune 7's
California rules name no irregularities: local ruling L1 applies Fortune Six's §5 clause for
clause. Events the rules do not foresee follow local rulings L3-L6 (docs/local-rulings.md).
"""
from __future__ import annotations

from games.round import Consequence as C
from games.round import IrregularityKind as K
from games.round import IrregularityRule

# kind -> (§5 clause number, consequence, one line for the supervisor)
_SECTION5 = {
    K.FOREIGN_CARD: (1, C.VOID, "a card not of the decks in use, or more copies of a card than the shoe holds"),
    K.EXTRA_CARD: (2, C.HOLD, "a hand dealt more cards than the Table of Play calls for (ruling 23)"),
    K.MISSING_CARD: (2, C.HOLD, "a hand dealt fewer cards than the Table of Play calls for, or a card "
                     "that left the shoe unread (ruling 23)"),
    K.WRONG_HAND_SIZE: (2, C.HOLD, "a hand dealt an incorrect number of cards"),
    K.DOUBLE_DRAW: (3, C.VOID, "two or more cards drawn at once during the initial deal, order unknown"),
    K.ORDER_ALTERED: (4, C.VOID, "the order of the cards in the shoe altered and not reconstructable"),
    K.INSUFFICIENT_CARDS: (5, C.VOID, "not enough cards in the shoe to complete the round"),
    K.LATE_WAGER: (6, C.REFUSE, "a wager placed or increased after 'No more bets' is refused; "
                   "one withdrawn then stands and is settled (§5.7)"),
    K.WAGER_REMOVED: (7, C.REFUSE, "a wager withdrawn after 'No more bets' is still won or lost: "
                      "the wager of record stands"),
}
_SECTION5_EXTRA = {
    K.FOREIGN_CARD: "extra or missing cards in the decks' composition (ruling 23): more copies of a card "
                    "than the decks hold, or a card not of the decks in use",
}

# events no rule text foresees (docs/local-rulings.md)
_LOCAL = {
    K.CARD_BEFORE_NO_MORE_BETS: ("local ruling L3", C.VOID, "a card drawn before 'No more bets'"),
    K.DEVICE_LOST: ("local ruling L4", C.HOLD, "the shoe's link dropped or it rebooted mid-round; "
                    "resume if its draw counter proves no card left unheard; cards that did are "
                    "judged as if heard (ruling 24)"),
    K.MISREAD: ("local ruling L5", C.HOLD, "the shoe could not read a card; key it in or void (§5.4)"),
    K.CARD_DISPUTED: ("local ruling L8", C.HOLD, "two different frames for one card on the shoe's line: "
                      "one was forged; the supervisor confirms the hands against the cards on the table, "
                      "else void (§5.4)"),
    K.FOREIGN_CHIP: ("local ruling L10", C.REFUSE, "a chip not the house's (unknown, retired, or its tag value "
                     "differs): the wager holding it is not accepted; surveillance is alerted"),
    K.MISPAY: ("local ruling L10", C.REFUSE, "a space holds other than its payout at confirm: confirm is refused "
               "until it is right or the supervisor accepts it"),
}


def _rule(kind: K, clause: str, consequence: C, summary: str) -> IrregularityRule:
    return IrregularityRule(kind, clause, consequence, summary)


def section5_rules(tag: str, table_of_play: str, foreign_names_deck: bool = False) -> dict[K, IrregularityRule]:
    """The irregularities of a game with its own §5 (`tag` is "fafa" or "fortune6")."""
    rules = {}
    for kind, (number, consequence, summary) in _SECTION5.items():
        if foreign_names_deck:
            summary = _SECTION5_EXTRA.get(kind, summary)
        rules[kind] = _rule(kind, f"{tag} §5.{number}", consequence, summary)
    for kind, (clause, consequence, summary) in _LOCAL.items():
        rules[kind] = _rule(kind, clause, consequence, summary)
    rules[K.BAD_DECISION] = _rule(K.BAD_DECISION, table_of_play, C.REFUSE,
                                  "baccarat takes no decisions: the Table of Play decides every draw")
    return rules


def borrowed_rules(lender: str, ruling: str, table_of_play: str) -> dict[K, IrregularityRule]:
    """A game whose rules name no irregularities borrows another's §5 clause for clause (`lender`
    is its citation name), cited as `ruling` (lender §5.N): Fortune 7 takes Fortune Six's
    through local ruling L1."""
    rules = section5_rules(lender, table_of_play)
    for kind, (number, consequence, summary) in _SECTION5.items():
        rules[kind] = _rule(kind, f"{ruling} ({lender} §5.{number})", consequence, summary)
    return rules


def late_double_draw_rule() -> IrregularityRule:
    """Two cards at once after the initial deal: §5.3 voids only during the initial deal, so
    the round is held for the supervisor to confirm the order, else void under §5.4 (L6)."""
    return _rule(K.DOUBLE_DRAW, "local ruling L6", C.HOLD,
                 "two cards drawn at once after the initial deal; confirm their order or void (§5.4)")

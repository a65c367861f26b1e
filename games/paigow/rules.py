"""Fortune Pai Gow Poker as data: the wagers' pay tables and the irregularity rules with clauses."""
from __future__ import annotations

from fractions import Fraction

from games.paigow.bonus import FORTUNE_TABLE
from games.round import Consequence, FixedBonus, IrregularityKind, IrregularityRule, Needs, Pay, PayLine, Wager

K = IrregularityKind

STANDARD = Wager(
    key="standard",
    title="Standard wager",
    clause="paigow §4.1.1",
    lines=(
        PayLine("win", Pay(19, 20, label="1:1 less 5%", commission=Fraction(1, 20))),  # §3.12, §4.1.1
        PayLine("tie", None),  # §3.14: wins one hand, loses the other: a standoff
    ),
    presupposed_by="paigow §3.4, §3.6",  # cards go only to a spot with a Standard wager
)

FORTUNE_BONUS = Wager(
    key="fortune_bonus",
    title="Fortune Bonus",
    clause="paigow §4.1.2",
    lines=tuple(PayLine(outcome, Pay(pays)) for outcome, _, pays, _ in FORTUNE_TABLE),
    needs=Needs(("standard",), "paigow §3.5"),
    fixed_bonus=FixedBonus("envy", "paigow §3.18, ruling 21"),
)

WAGERS = {w.key: w for w in (STANDARD, FORTUNE_BONUS)}


def _rule(kind: IrregularityKind, clause: str, consequence: Consequence, summary: str) -> IrregularityRule:
    return IrregularityRule(kind, clause, consequence, summary)


IRREGULARITIES = {
    K.FOREIGN_CARD: _rule(K.FOREIGN_CARD, "paigow §5.1", Consequence.VOID,
                          "a foreign card: the round is void; previous results stand"),
    K.WRONG_HAND_SIZE: _rule(K.WRONG_HAND_SIZE, "paigow §5.2", Consequence.HOLD,
                             "cards dealt incorrectly: void unless complete hands can be moved to reconstruct"),
    K.EXTRA_CARD: _rule(K.EXTRA_CARD, "paigow §5.3", Consequence.HOLD,
                        "a card beyond the dealer's seven: the dealer's hand has the wrong number "
                        "(void unless reconstructed before the next game)"),
    K.MISSING_CARD: _rule(K.MISSING_CARD, "paigow §5.3", Consequence.HOLD,
                          "the deal stopped short: the dealer's packet (dealt last) has the wrong number "
                          "(void unless reconstructed before the next game)"),
    K.DOUBLE_DRAW: _rule(K.DOUBLE_DRAW, "paigow §5.4", Consequence.VOID,
                         "two or more cards exposed during the initial deal: the round is void"),
    K.INSUFFICIENT_CARDS: _rule(K.INSUFFICIENT_CARDS, "paigow §5.5", Consequence.VOID,
                                "a shortage of cards in the deck (one deck of 53 a round, ruling 17a): void"),
    K.ORDER_ALTERED: _rule(K.ORDER_ALTERED, "paigow §5.2", Consequence.HOLD,
                           "the deal order may be altered: void unless complete hands can be moved to reconstruct"),
    K.MISREAD: _rule(K.MISREAD, "local ruling L5", Consequence.HOLD,
                     "a misread: the supervisor keys in the exposed card, else void (paigow §5.2)"),
    K.CARD_BEFORE_NO_MORE_BETS: _rule(K.CARD_BEFORE_NO_MORE_BETS, "local ruling L3", Consequence.VOID,
                                      "a card drawn before \"No more bets\" (paigow §3.2): void"),
    K.LATE_WAGER: _rule(K.LATE_WAGER, "paigow §5.6", Consequence.REFUSE,
                        "a wager placed or increased after \"No more bets\" is refused"),
    K.WAGER_REMOVED: _rule(K.WAGER_REMOVED, "paigow §5.7", Consequence.REFUSE,
                           "a wager withdrawn after \"No more bets\" is still won or lost: the wager of record stands"),
    K.FOREIGN_CHIP: _rule(K.FOREIGN_CHIP, "local ruling L10", Consequence.REFUSE,
                          "a chip not the house's (unknown, retired, or its tag value differs): the wager holding "
                          "it is not accepted; surveillance is alerted"),
    K.MISPAY: _rule(K.MISPAY, "local ruling L10", Consequence.REFUSE,
                    "a space holds other than its payout at confirm: confirm is refused until it is right or the "
                    "supervisor accepts it"),
    K.DEVICE_LOST: _rule(K.DEVICE_LOST, "local ruling L4", Consequence.HOLD,
                         "the shoe was unheard mid-round: resume if no card left it; cards that did are "
                         "judged as if heard (ruling 24); a counter that cannot prove the order voids"),
    K.CARD_DISPUTED: _rule(K.CARD_DISPUTED, "local ruling L8", Consequence.HOLD,
                           "two different frames for one card on the shoe's line: one was forged; the "
                           "supervisor confirms the hands against the cards on the table, else void (paigow §5.2)"),
    K.BAD_DECISION: _rule(K.BAD_DECISION, "paigow §3.7.1", Consequence.REFUSE,
                          "a setting the rules do not allow (it must split the spot's own seven cards 5 + 2)"),
}

# a card twice in one round: the deck has an excess (or a foreign copy), ruling 17a
DUPLICATE_CARD = _rule(K.FOREIGN_CARD, "paigow §5.5 (ruling 17a)", Consequence.VOID,
                       "a card seen twice in one round: the deck has an excess or a foreign copy: void")

"""What Fu Bacc does with each irregularity, and the clause or ruling it rests on.

The Fu Bacc rules name no irregularities beyond procedure 2, so local ruling L2 applies
Fa Fa Fabulous 4's §5 by analogy, read as ruling 23 reads it: §5.1 is the deck's composition
(a card of another deck, a second copy of a card of the single deck); a card beyond the
packets, or one that left the shoe unread, is a packet dealt the wrong number of cards, §5.2:
held for reconstruction, void only if it cannot be reconstructed. Every card of a Fu Bacc round is part of the initial deal
(all packets come out before any decision), so a double draw is always the §5.3 case and
local ruling L6 (a double draw after the initial deal) cannot arise.
"""
from __future__ import annotations

from games.round import Consequence, IrregularityRule
from games.round import IrregularityKind as K

_RULES = (
    (K.EXTRA_CARD, "local ruling L2 (fafa §5.2)", Consequence.HOLD,
     "a card beyond the packets the round calls for (ruling 23): reconstruct if possible, else void"),
    (K.MISSING_CARD, "local ruling L2 (fafa §5.2)", Consequence.HOLD,
     "a packet card missing or unheard (ruling 23): key it in or reconstruct if possible, else void"),
    (K.FOREIGN_CARD, "local ruling L2 (fafa §5.1)", Consequence.VOID,
     "a card not of the single 52-card deck, or a second copy of one (the deck's composition, "
     "ruling 23): the round is void"),
    (K.MISREAD, "local ruling L5", Consequence.HOLD,
     "the shoe could not read a card: hold for the supervisor to key it in, else void (§5.4)"),
    (K.DOUBLE_DRAW, "local ruling L2 (fafa §5.3)", Consequence.VOID,
     "two cards drawn at once while dealing the packets (the initial deal): the round is void"),
    (K.WRONG_HAND_SIZE, "local ruling L2 (fafa §5.2)", Consequence.HOLD,
     "a packet with the wrong number of cards: reconstruct if possible, else void"),
    (K.INSUFFICIENT_CARDS, "local ruling L2 (fafa §5.5)", Consequence.VOID,
     "not enough cards to complete every packet: the round is void"),
    (K.ORDER_ALTERED, "local ruling L2 (fafa §5.4)", Consequence.VOID,
     "the order of the cards was altered and cannot be reconstructed: the round is void"),
    (K.CARD_BEFORE_NO_MORE_BETS, "local ruling L3 (fubacc procedure 2)", Consequence.VOID,
     "a card was dispensed before \"No more bets\": the round is void"),
    (K.LATE_WAGER, "fubacc procedure 2", Consequence.REFUSE,
     "no wager may be placed or changed after \"No more bets\": refused"),
    (K.DEVICE_LOST, "local ruling L4", Consequence.HOLD,
     "the shoe dropped its link or rebooted: resume if its draw counter proves no card was "
     "missed; cards that left it unheard are judged as if heard (ruling 24); a counter that "
     "cannot prove the order voids (fafa §5.4)"),
    (K.CARD_DISPUTED, "local ruling L8", Consequence.HOLD,
     "two different frames for one card on the shoe's line: one was forged; the supervisor confirms "
     "the packets against the cards on the table, else void (fafa §5.4)"),
    (K.WAGER_REMOVED, "local ruling L2 (fafa §5.7)", Consequence.REFUSE,
     "a wager withdrawn after \"No more bets\" is still won or lost: the wager of record stands"),
    (K.FOREIGN_CHIP, "local ruling L10", Consequence.REFUSE,
     "a chip not the house's (unknown, retired, or its tag value differs): the wager holding it is not "
     "accepted; surveillance is alerted"),
    (K.MISPAY, "local ruling L10", Consequence.REFUSE,
     "a space holds other than its payout at confirm: confirm is refused until it is right or the "
     "supervisor accepts it"),
    (K.BAD_DECISION, "fubacc procedures 6-8, 12-15", Consequence.REFUSE,
     "a decision the rules do not allow for this spot now: refused, the round goes on"),
)

IRREGULARITIES = {kind: IrregularityRule(kind, clause, consequence, summary)
                  for kind, clause, consequence, summary in _RULES}

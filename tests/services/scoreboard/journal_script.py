"""Write a table's story into a real journal the way the daemon does (the record kinds and
payloads of docs/journal.md), for the board's tests to fold: rounds dealt card by card, results,
voids, holds, new shoes. Each call returns the records it appended."""
from __future__ import annotations

from games.baccarat.table_of_play import cards_total
from games.cards import parse_card

WINNERS = {"B": "banker", "P": "player", "T": "tie"}


class TableScript:
    def __init__(self, journal, game: str = "fortune6", shoe: int = 1, publish=None) -> None:
        self.journal, self.game, self.shoe = journal, game, shoe
        self.round = 0
        self.publish = publish or (lambda event: None)

    def append(self, kind: str, payload: dict, round: int | None = None, durable: bool = False):
        record = self.journal.append(kind, payload, round=round, durable=durable)
        self.publish({"event": kind, "seq": record.seq})
        return record

    def new_shoe(self, number: int | None = None):
        self.shoe = number if number is not None else self.shoe + 1
        return [self.append("shoe", {"event": "new", "shoe": self.shoe}),
                self.append("shoe", {"event": "burn_done", "shoe": self.shoe})]

    def open(self, spots: list[int] | None = None):
        self.round += 1
        return [self.append("round_opened", {"round": self.round, "game": self.game, "decks": 8, "shoe": self.shoe,
                                             "spots": spots or []}),
                self.append("bets_closed", {"round": self.round})]

    def card(self, card: str | None, hand: str | None, position: int | None, status: str = "dealt", **extra):
        return self.append("card", {"round": self.round, "card": card, "hand": hand, "position": position,
                                    "status": status, **extra})

    def deal(self, player: str, banker: str) -> list:
        """The cards in deal order: P B P B, then the player's third, then the banker's."""
        p, b = player.split(), banker.split()
        order = [("player", p[0], 0), ("banker", b[0], 0), ("player", p[1], 1), ("banker", b[1], 1)]
        order += [("player", c, 2) for c in p[2:]] + [("banker", c, 2) for c in b[2:]]
        return [self.card(card, hand, position) for hand, card, position in order]

    def result(self, winner: str, player: str, banker: str):
        hands = {name: {"cards": cards.split(), "total": cards_total(parse_card(c) for c in cards.split())}
                 for name, cards in (("player", player), ("banker", banker))}
        return self.append("result", {"round": self.round, "game": self.game, "winner": WINNERS.get(winner, winner),
                                      "hands": hands, "bets": {}}, durable=True)

    def settle(self):
        return self.append("settled", {"round": self.round}, durable=True)

    def play(self, winner: str, player: str, banker: str) -> list:
        """A whole baccarat round: open, deal, result, settled."""
        return [*self.open(), *self.deal(player, banker), self.result(winner, player, banker), self.settle()]

    def irregularity(self, kind: str, clause: str, consequence: str, detail: str):
        return self.append("irregularity", {"round": self.round, "kind": kind, "clause": clause,
                                            "consequence": consequence, "detail": detail, "evidence": {}})

    def resumed(self, kind: str, clause: str):
        return self.append("round_resumed", {"round": self.round, "kind": kind, "clause": clause, "how": "resumed"})

    def void(self, kind: str, clause: str, reason: str, by: str = "table"):
        return self.append("void", {"round": self.round, "kind": kind, "clause": clause, "reason": reason,
                                    "by": by, "cards": [], "evidence": {}}, durable=True)


# Hands that give each outcome (player, banker): naturals and third cards as the Table of Play deals them.
HANDS = {
    "B": ("Ks 5h", "9c Qd"),            # banker natural 9 v player 5: B
    "P": ("9s Kh", "Qc 7d"),            # player natural 9 v 7: P
    "T": ("Ks 7h", "Qc 7d"),            # 7 v 7: T
    "B+bp": ("Ks 5h", "9c 9d"),         # banker natural 8 (a pair of 9s) v 5: B, banker pair
    "P+pp": ("4s 4h", "Qc 7d"),         # player 8 (a pair of 4s) v 7: P, player pair
    "B6": ("Ks 5h Kc", "3c 3d"),        # player 5 draws K; banker 6 stands: a two-card Fortune Six, a banker pair
}

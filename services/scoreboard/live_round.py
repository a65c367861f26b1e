"""The round in progress as the board shows it: its cards as they are dealt, hand by hand,
and where it stands (betting, dealing, held with the clause, decided, settled, void)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.baccarat.table_of_play import cards_total
from games.cards import CardError, parse_card

BACCARAT_HANDS = ("player", "banker")


@dataclass
class LiveRound:
    round: int
    game: str
    shoe: int | None
    spots: list[int]
    baccarat: bool
    state: str = "betting"
    cards: dict[tuple[str, int], str | None] = field(default_factory=dict)  # (hand, position) -> card
    hold: dict[str, Any] | None = None  # the irregularity holding the round, until it resumes
    state_before_hold: str = "dealing"
    irregularities: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None  # the board's view of the result (Board.result_view)
    void: dict[str, Any] | None = None

    def card(self, p: Mapping[str, Any]) -> bool:
        """A `card` record of this round: a card dealt to a hand (again, after a hold: the same
        place) is shown; burned, extra, misread cards and those after a void are not."""
        if p.get("status") not in (None, "dealt") or p.get("hand") is None:
            return False
        self.cards[(str(p["hand"]), int(p.get("position") or 0))] = p.get("card")
        if self.state == "betting":
            self.state = "dealing"
        return True

    def irregularity(self, p: Mapping[str, Any]) -> None:
        note = {k: p.get(k) for k in ("kind", "clause", "consequence", "detail")}
        self.irregularities.append(note)
        if p.get("consequence") == "hold":
            if self.state != "held":
                self.state_before_hold = self.state
            self.state, self.hold = "held", note

    def resumed(self) -> None:
        if self.state == "held":
            self.state = self.state_before_hold
        self.hold = None

    def hands(self) -> dict[str, list[str | None]]:
        """Each hand's cards in position order; baccarat always shows both hands."""
        names = list(BACCARAT_HANDS) if self.baccarat else sorted({hand for hand, _ in self.cards}, key=_hand_order)
        hands: dict[str, list[str | None]] = {name: [] for name in names}
        for (hand, _), card in sorted(self.cards.items(), key=lambda item: item[0][1]):
            hands.setdefault(hand, []).append(card)
        return hands

    def to_json(self) -> dict[str, Any]:
        hands = self.hands()
        out: dict[str, Any] = {
            "round": self.round, "game": self.game, "shoe": self.shoe, "spots": self.spots, "state": self.state,
            "hands": hands, "hold": self.hold, "irregularities": self.irregularities,
            "decisions": self.decisions, "result": self.result, "void": self.void,
        }
        if self.baccarat:
            out["totals"] = {name: running_total(cards) for name, cards in hands.items()}
        return out


def running_total(cards: list[str | None]) -> int | None:
    """The hand's point total so far (None while a card is unread or the hand is empty)."""
    try:
        return cards_total(parse_card(c) for c in cards if c is not None) if cards and None not in cards else None
    except CardError:
        return None


def _hand_order(name: str) -> tuple[int, int, str]:
    """Spots in seat order, then the dealer (Fu Bacc, Pai Gow); anything else after."""
    if name.startswith("spot") and name[4:].isdigit():
        return (0, int(name[4:]), name)
    return (1 if name == "dealer" else 2, 0, name)

"""A card as it left the shoe, decoded, with what the table knows of how it came out: the
unit the card flow judges (controller.table.verdicts) and a hold keeps waiting."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.cards import NO_READ_CODE, Card, card_from_code


@dataclass(frozen=True)
class Arrival:
    """A card as it left the shoe, decoded: `card` is None when it was not read."""

    code: int
    card: Card | None
    draw_counter: int | None
    double_draw: bool = False
    misread: bool = False
    foreign: str | None = None  # why the card cannot be in this shoe (not of the deck, one copy too many)
    replayed: bool = False  # already counted out of the shoe and journaled (it waited in a hold)
    keyed_in: bool = False  # named by the supervisor for a card the shoe did not read
    # a card the draw counter says left the shoe without a card event: "heard" (a gap while the
    # shoe was heard) or "unheard" (while it was not: ruling 24). Judged at its turn as if heard.
    missed: str | None = None

    @classmethod
    def missing(cls, how: str) -> Arrival:
        """A card the draw counter shows left the shoe unseen (`missed`)."""
        return cls(NO_READ_CODE, None, None, misread=True, missed=how)

    @classmethod
    def from_journal(cls, data: Mapping) -> Arrival:
        """A card as `to_journal` wrote it, or as its `held` card record has it."""
        code = int(data["code"])
        card = None if data.get("card") is None else card_from_code(code)
        if card is not None and str(card) != data["card"]:
            raise ValueError(f"code 0x{code:04x} is {card}, not {data['card']}")
        counter = data.get("draw_counter")
        return cls(code, card, None if counter is None else int(counter), bool(data.get("double_draw")),
                   bool(data.get("misread")), data.get("foreign"), bool(data.get("reconstructed")),
                   bool(data.get("keyed_in")), data.get("missed"))

    @property
    def text(self) -> str | None:
        return None if self.card is None else str(self.card)

    @property
    def how_missed(self) -> str:
        """How a missed card left the shoe unseen, for a message."""
        return "while the shoe was unheard" if self.missed == "unheard" else "in a gap of the draw counter"

    @property
    def label(self) -> str:
        """The card in a message: its name, or "an unread card"."""
        return self.text or "an unread card"

    def to_json(self) -> dict:
        return {"card": self.text, "code": self.code, "draw_counter": self.draw_counter,
                "double_draw": self.double_draw, "misread": self.misread}

    def to_journal(self) -> dict:
        """All a restart needs to deal it as it would have been dealt."""
        return {**self.to_json(), "foreign": self.foreign, "reconstructed": self.replayed,
                "keyed_in": self.keyed_in, "missed": self.missed}

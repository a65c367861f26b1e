"""The draw-counter proof (local ruling L4): the shoe's counter as the table last heard it,
whether the shoe is heard, and what a counter heard now says about the cards in between.

The shoe numbers every card it deals. A card whose counter is more than one past the last
one heard means cards left the shoe unheard; a counter that went back (or none at all) cannot
prove the order. This is the only place that holds and judges the counter: the shoe driver
only drops a card that repeats one it already delivered (drivers/shoe.py), and `tablectl
status` reads `last` from here. After the shoe was unheard (link lost, reboot, the daemon
down) its next word must prove that no card left meanwhile: `proof_needed` until it does.
While its link is down (`lost`: the reason) the proof is owed too, and the same proof ends
both: "the shoe is heard" and "no proof is owed" are one fact, kept here once. All of it comes
from the table's journaled inputs, so replaying them gives the same decisions. This component
only judges; the card flow (controller.table.cards) applies the verdict to the round.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Unheard:
    """`count` cards left the shoe unheard after the last one heard (`last`)."""

    count: int
    last: int


@dataclass(frozen=True)
class Unproven:
    """The counter went back from `last` to `now`, or one of them is unknown: nothing proves
    that no card was missed or reordered."""

    last: int | None
    now: int | None


Verdict = Unheard | Unproven | None  # None: nothing was missed


class DrawCounter:
    def __init__(self) -> None:
        self.last: int | None = None  # the counter of the last card heard (None: unknown)
        self.proof_needed = False  # the shoe was unheard: its next counter must prove nothing was missed
        self.lost: str | None = None  # why the shoe's link is down (ShoeLinkLost); None: heard, or never lost

    @property
    def heard(self) -> bool:
        """The shoe's link is up as the table's inputs tell it: not lost since its last proof."""
        return self.lost is None

    def check_card(self, counter: int | None) -> Verdict:
        """A card with `counter` arrived while the shoe was heard all along."""
        last = self.last
        if counter is None or last is None:
            return None
        if counter > last + 1:
            return Unheard(counter - last - 1, last)
        return Unproven(last, counter) if counter <= last else None

    def check_return(self, now: int | None) -> Verdict:
        """The shoe is heard again and its counter stands at `now` (the last card it dealt).
        The proof is given, whatever it proves: `proof_needed` and `lost` end here."""
        self.proof_needed, self.lost = False, None
        return self.check_status(now)

    def check_status(self, now: int | None) -> Verdict:
        """The shoe says its counter stands at `now` (the last card it dealt)."""
        last = self.last
        if now is not None and last is not None and now > last:
            return Unheard(now - last, last)
        return Unproven(last, now) if now is None or last is None or now < last else None

    def saw(self, counter: int | None) -> None:
        """A card's counter, once its verdict is applied (a card without one leaves `last`)."""
        if counter is not None:
            self.last = counter

    def stands_at(self, counter: int | None) -> None:
        """The shoe's counter is now `counter` (None: unknown until the next card says)."""
        self.last = counter

    def unheard_from_now(self) -> None:
        """The shoe went unheard (reboot, the daemon down): its next counter must prove."""
        self.proof_needed = True

    def link_lost(self, reason: str) -> None:
        """The shoe's link dropped (`reason`): unheard until its counter proves again."""
        self.lost = reason
        self.proof_needed = True

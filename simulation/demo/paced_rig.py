"""The rig with a hook after every card the dealer draws (the burn, the round's cards, the
cards play_round/finish_round deal): the live view redraws there and waits its pace."""
from __future__ import annotations

from collections.abc import Callable

from simulation.rig import Rig


class PacedRig(Rig):
    on_card: Callable[[], None] | None = None  # called once the daemon has handled the draw

    def draw(self, n: int = 1, wait: bool = True) -> list[dict]:
        drawn = super().draw(n, wait)
        if self.on_card is not None:
            self.on_card()
        return drawn

"""The demo's seeded choices: which spots play, which seats accept Fortune 7's player-dealer
position, when a shoe fault or a money fault strikes, and whether the supervisor voids a held round.

One random stream per purpose, each seeded from the demo's seed, so switching faults on does
not change which spots a seed picks, and the same seed always makes the same choices."""
from __future__ import annotations

import random
from dataclasses import dataclass

from games.round import Game

FAULT_KINDS = ("foreign", "double_draw", "misread", "door_open", "unplug")
MONEY_FAULT_KINDS = ("mispay", "past_post", "removed_chip", "foreign_chip")
ACCEPTS_BANK = 0.75  # a seated player offered the player-dealer position takes it this often
SUPERVISOR_VOIDS = 0.25  # a held round that could be reconstructed is voided this often


@dataclass(frozen=True)
class FaultPlan:
    """Strike with `kind` when `before_card` of the round's cards have left the shoe."""

    kind: str
    before_card: int


class Choices:
    def __init__(self, seed: int, game: Game, fault_rate: float = 0.0) -> None:
        self.game, self.fault_rate, self.seed = game, fault_rate, seed
        stream = f"{seed}:{game.key}"
        self._spots = random.Random(f"{stream}:spots")
        self._seats = random.Random(f"{stream}:seats")
        self._faults = random.Random(f"{stream}:faults")
        self._supervisor = random.Random(f"{stream}:supervisor")
        self.money = random.Random(f"{stream}:money")  # money faults and what follows them: a stream of their own

    def live_spots(self) -> list[int] | None:
        """The seats that play this round (spot games), else None."""
        if not self.game.uses_spots:
            return None
        count = self._spots.randint(1, self.game.max_spots)
        return sorted(self._spots.sample(range(1, self.game.max_spots + 1), count))

    def accepts_bank(self, seat: int) -> bool:
        return self._seats.random() < ACCEPTS_BANK

    def fault(self, initial_cards: int) -> FaultPlan | None:
        """This round's fault, if one strikes: before one of the initial deal's cards or just
        after it (where a drawn card, if the round takes one, meets it)."""
        if self.fault_rate <= 0 or self._faults.random() >= self.fault_rate:
            return None
        return FaultPlan(self._faults.choice(FAULT_KINDS), self._faults.randint(0, initial_cards))

    def money_fault(self) -> str | None:
        """This round's money fault, if one strikes (at the same rate as the shoe's, drawn apart)."""
        if self.fault_rate <= 0 or self.money.random() >= self.fault_rate:
            return None
        return self.money.choice(MONEY_FAULT_KINDS)

    def supervisor_voids(self) -> bool:
        return self._supervisor.random() < SUPERVISOR_VOIDS

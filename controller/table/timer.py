"""The card timer: while a card is due, no card within `card_timeout_s` is a missing card."""
from __future__ import annotations

from controller.table import machine as m
from controller.table.effects import CancelTimer, StartTimer

NAME = "card"
_DUE_IN = (m.BETS_CLOSED, m.DEALING, m.DRAWING)  # round states in which a card is due


class CardTimer:
    def __init__(self, timeout_s: float | None) -> None:
        self.timeout_s = timeout_s  # None: no timer
        self.running = False
        self._restart = False  # a card was dealt or a hold resolved: the wait starts again

    def restart(self) -> None:
        self._restart = True

    def expired(self, name: str, round_state: str) -> bool:
        """Timer `name` went off: True when it is the card timer and a card is still due."""
        if name != NAME or not self.running or round_state not in _DUE_IN:
            return False
        self.running = False
        return True

    def effects(self, round_state: str) -> list[StartTimer | CancelTimer]:
        """Start, restart or cancel the timer for the round's state now."""
        due = self.timeout_s if round_state in _DUE_IN else None  # the timeout when a card is due now
        effects: list[StartTimer | CancelTimer] = []
        if due is not None and (self._restart or not self.running):
            effects.append(StartTimer(NAME, float(due)))
            self.running = True
        elif due is None and self.running:
            effects.append(CancelTimer(NAME))
            self.running = False
        self._restart = False
        return effects

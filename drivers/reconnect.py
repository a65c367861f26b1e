"""The delays between attempts to reopen a device by its stable path / VID:PID, or to start a
new session with it (drivers/device.py keeps them as reactor timers)."""
from __future__ import annotations


class Backoff:
    """Exponential delays: initial, initial*factor, ... capped at `maximum`; reset on success."""

    def __init__(self, initial: float = 0.05, factor: float = 2.0, maximum: float = 2.0) -> None:
        if initial <= 0 or factor < 1 or maximum < initial:
            raise ValueError(
                f"backoff needs 0 < initial <= maximum and factor >= 1, "
                f"got initial={initial} factor={factor} maximum={maximum}"
            )
        self.initial = initial
        self.factor = factor
        self.maximum = maximum
        self._next = initial

    def next_delay(self) -> float:
        delay = self._next
        self._next = min(self.maximum, self._next * self.factor)
        return delay

    def reset(self) -> None:
        self._next = self.initial

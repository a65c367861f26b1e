"""Reopen a transport by its stable path / VID:PID after a hang-up, with backoff."""
from __future__ import annotations

import threading
from collections.abc import Callable

from drivers.errors import TransportError
from drivers.transport import Transport


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


def reopen_with_backoff(
    transport: Transport,
    stop: threading.Event,
    backoff: Backoff,
    on_retry: Callable[[TransportError, float], None] | None = None,
) -> bool:
    """Close `transport`, then open it again until it works or `stop` is set.

    Returns True once open (backoff reset), False if stopped first. Each failed attempt
    is reported to `on_retry(error, delay)` before waiting `delay` seconds on `stop`.
    """
    transport.close()
    while not stop.is_set():
        try:
            transport.open()
        except TransportError as exc:
            delay = backoff.next_delay()
            if on_retry is not None:
                on_retry(exc, delay)
            stop.wait(delay)
            continue
        backoff.reset()
        return True
    return False

"""The table's one-shot timers (StartTimer / CancelTimer effects), kept by the loop itself.

A heap of deadlines; (re)starting a timer replaces the running one of that name, so a stale
heap entry is skipped rather than removed. The loop waits no longer than `next_deadline()`
and hands every name `pop_due(now)` returns to the table as a Timer input.
"""
from __future__ import annotations

import heapq
import itertools


class Timers:
    def __init__(self) -> None:
        self._heap: list[tuple[float, int, str]] = []
        self._live: dict[str, int] = {}  # name -> the generation of its running entry
        self._generations = itertools.count(1)

    def start(self, name: str, seconds: float, now: float) -> None:
        generation = next(self._generations)
        self._live[name] = generation
        heapq.heappush(self._heap, (now + seconds, generation, name))

    def cancel(self, name: str) -> None:
        self._live.pop(name, None)

    def running(self) -> list[str]:
        return sorted(self._live)

    def next_deadline(self) -> float | None:
        self._drop_stale()
        return self._heap[0][0] if self._heap else None

    def pop_due(self, now: float) -> list[str]:
        """Names of the timers whose deadline has passed, earliest first; they stop running."""
        due = []
        while (deadline := self.next_deadline()) is not None and deadline <= now:
            _, _, name = heapq.heappop(self._heap)
            del self._live[name]
            due.append(name)
        return due

    def _drop_stale(self) -> None:
        while self._heap and self._live.get(self._heap[0][2]) != self._heap[0][1]:
            heapq.heappop(self._heap)

"""Tracks a shoe's draw counter so a missed card is never silence (PROTOCOL.md §5).

Pure: feed it the counters from CARD and SHOE_STATUS messages; it answers with
what they prove. The link delivers each frame once within a session; this is the
check that survives sessions (host reconnects, shoe reboots).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DrawGap:
    """``missed`` cards left the shoe unheard: counters ``expected`` .. ``expected + missed - 1``."""
    expected: int
    got: int
    missed: int


@dataclass(frozen=True)
class DrawRepeated:
    """A counter already seen: the same card reported again. Drop it."""
    counter: int


@dataclass(frozen=True)
class CounterRestarted:
    """The shoe's count went back (it lost it in a reboot): nothing can be proved about cards
    drawn while it was unheard; counting continues from ``now``."""
    last: int
    now: int


DrawEvent = DrawGap | DrawRepeated | CounterRestarted


class DrawCounter:
    def __init__(self, last: int | None = None) -> None:
        self.last = last  # counter of the last card heard; None until the first report
        self._after_reboot = False

    def card(self, counter: int) -> list[DrawEvent]:
        """A CARD's counter. [] means: in sequence, deliver it."""
        if self.last is None:
            self.last = counter
            return []
        if counter <= self.last:
            if self._after_reboot:
                return self._restarted(counter)
            return [DrawRepeated(counter)]
        self._after_reboot = False
        expected, self.last = self.last + 1, counter
        return [DrawGap(expected, counter, counter - expected)] if counter > expected else []

    def status(self, counter: int) -> list[DrawEvent]:
        """A SHOE_STATUS's counter (the last card drawn): after a reconnect, the proof (local ruling L4)."""
        if self.last is None or counter == self.last:
            self.last = counter
            self._after_reboot = False
            return []
        if counter < self.last:
            return self._restarted(counter)
        self._after_reboot = False
        expected, self.last = self.last + 1, counter
        return [DrawGap(expected, counter, counter - expected + 1)]

    def rebooted(self) -> None:
        """The shoe rebooted: its next counter may legitimately start again from 0."""
        self._after_reboot = True

    def _restarted(self, counter: int) -> list[DrawEvent]:
        last, self.last = self.last, counter
        assert last is not None  # only called once a counter was heard
        self._after_reboot = False
        return [CounterRestarted(last, counter)]

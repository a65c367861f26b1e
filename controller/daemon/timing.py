"""How long the loop takes per input, by phase, over the last inputs: `tablectl status`
shows it (daemon.loop_us) and bench/bench_card_to_lamp.py prints it next to its figures.

    lag     a driver event's wait: the driver saw it -> the loop takes it
    handle  Table.handle for the input's table inputs
    commit  the one journal transaction (fsynced when an effect is durable)
    effects lamps, timers, event stream, reply
"""
from __future__ import annotations

import collections

PHASES = ("lag", "handle", "commit", "effects")
KEEP = 256  # inputs remembered: enough for percentiles, cheap to sort when asked


class LoopTiming:
    def __init__(self) -> None:
        self.samples: dict[str, collections.deque[float]] = {phase: collections.deque(maxlen=KEEP) for phase in PHASES}

    def add(self, phase: str, seconds: float) -> None:
        self.samples[phase].append(seconds)

    def to_json(self) -> dict:
        """{phase: {"n", "p50", "p99", "max"}} in microseconds, for the phases seen."""
        out = {}
        for phase, values in self.samples.items():
            if values:
                ordered = sorted(values)
                out[phase] = {"n": len(ordered), "p50": _micros_at(ordered, 0.5), "p99": _micros_at(ordered, 0.99),
                              "max": round(ordered[-1] * 1e6)}
        return out


def _micros_at(ordered: list[float], quantile: float) -> int:
    """The value at `quantile` of sorted seconds, in whole microseconds."""
    return round(ordered[min(len(ordered) - 1, int(quantile * len(ordered)))] * 1e6)

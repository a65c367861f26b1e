"""Timing a cached computation from cold: the best of several runs, and its peak memory."""
from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable


def best_cold(compute: Callable[[], object], clear_cache: Callable[[], None], repeat: int) -> tuple[float, int]:
    """Seconds of the fastest of `repeat` cold runs, and the peak traced bytes of one more."""
    best = float("inf")
    for _ in range(repeat):
        clear_cache()
        start = time.perf_counter()
        compute()
        best = min(best, time.perf_counter() - start)
    clear_cache()
    tracemalloc.start()
    compute()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak

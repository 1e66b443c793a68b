"""Figures for /healthz and the loadtest: event-loop lag, inference lag, counters, RSS.

Percentiles come from a bounded window of recent samples: cheap, and recent is what an
operator wants to see.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import deque
from dataclasses import dataclass, field


class Window:
    """The last `size` samples (milliseconds) and their percentiles."""

    def __init__(self, size: int = 4096) -> None:
        self._samples: deque[float] = deque(maxlen=size)

    def add(self, value_ms: float) -> None:
        self._samples.append(value_ms)

    def percentile(self, q: float) -> float:
        if not self._samples:
            return 0.0
        ordered = sorted(self._samples)
        index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
        return ordered[index]

    def summary(self) -> dict[str, float]:
        return {
            "p50": round(self.percentile(50), 3),
            "p99": round(self.percentile(99), 3),
            "max": round(max(self._samples, default=0.0), 3),
            "n": len(self._samples),
        }

    def clear(self) -> None:
        self._samples.clear()


@dataclass
class Metrics:
    started: float = field(default_factory=time.monotonic)
    loop_lag: Window = field(default_factory=lambda: Window(2048))
    inference_lag: Window = field(default_factory=Window)
    commit_latency: Window = field(default_factory=Window)
    moves: int = 0
    events: int = 0
    beliefs: int = 0
    connections: int = 0

    def uptime(self) -> float:
        return time.monotonic() - self.started


async def watch_loop_lag(metrics: Metrics, interval: float = 0.02) -> None:
    """Sleep `interval` over and over; how late each wake-up is, is the loop's lag."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(interval)
        metrics.loop_lag.add(max(0.0, (loop.time() - before - interval) * 1000.0))


def rss_bytes() -> int:
    """Resident set size of this process (Linux /proc; 0 elsewhere)."""
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return 0

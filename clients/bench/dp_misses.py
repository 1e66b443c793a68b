"""`bench inference --misses`: the count's cache misses behind a view's slowest updates.

A spectator's p99 update is nearly always one whose position the class DP has never seen.
This keeps, for every update of the folds, the keys the count missed on, then takes the
updates between the 98th and 99.5th percentile of each variant's view and solves their keys
again with the count's caches cold (split lists and tail memos warm, as in play): the DP's
share of the tail alone, per variant and as a ratio to the reference's, with the problems'
sizes (holders, classes, classes enumerated split by split). If the DP alone is 2x slower on
one variant's misses, trimming that variant's own code cannot bring its tail within 2x.
"""

from __future__ import annotations

import contextlib
import math
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import inference.counting as counting
from inference.classes import ClassKey

BAND = (0.98, 0.995)
REPEATS = 5


@dataclass
class MissLog:
    """Per update of one view: its CPU time and the keys the count solved during it."""

    updates: list[tuple[float, list[ClassKey]]] = field(default_factory=list)


class MissRecorder:
    """Records the keys `count_key` misses on (it calls `solve_key` only then) while on."""

    def __init__(self) -> None:
        self.current: list[ClassKey] | None = None

    @contextlib.contextmanager
    def installed(self) -> Iterator[MissRecorder]:
        """`solve_key` wrapped for the duration (count_key looks it up at each call)."""
        original = counting.solve_key

        def recording(key: ClassKey) -> counting.Solution:
            if self.current is not None:
                self.current.append(key)
            return original(key)

        counting.solve_key = recording  # type: ignore[assignment]
        try:
            yield self
        finally:
            counting.solve_key = original

    def timed(self, update: Callable[[], object], clock: Callable[[], float]
              ) -> tuple[float, list[ClassKey]]:
        keys: list[ClassKey] = []
        self.current = keys
        start = clock()
        update()
        spent = clock() - start
        self.current = None
        return spent, keys


def band_keys(log: MissLog) -> list[ClassKey]:
    """The missed keys of the updates in BAND of this view's CPU times."""
    ordered = sorted(log.updates, key=lambda u: u[0])
    low, high = (int(q * len(ordered)) for q in BAND)
    return [key for _, keys in ordered[low:high] for key in keys]


def cold_ms_per_key(keys: dict[str, list[ClassKey]]) -> dict[str, float]:
    """Per variant, best of REPEATS (the variants interleaved, so the machine's load falls on
    all alike): the count's caches cleared, every key solved once, in ms per key."""
    best = dict.fromkeys(keys, float("inf"))
    for _ in range(REPEATS):
        for variant, variant_keys in keys.items():
            counting.count_key.cache_clear()
            counting.solve_key.cache_clear()
            start = time.thread_time()
            for key in variant_keys:
                counting.count_key(key)
            spent = (time.thread_time() - start) / max(1, len(variant_keys)) * 1e3
            best[variant] = min(best[variant], spent)
    return best


def sizes(keys: list[ClassKey]) -> tuple[float, float, float]:
    """Mean holders, classes and classes enumerated split by split (not in the tail)."""
    if not keys:
        return math.nan, math.nan, math.nan
    solved = [counting.count_key(key) for key in keys]  # order and tail as the DP chose them
    return (statistics.mean(len(s.counts) for s in solved),
            statistics.mean(len(s.order) for s in solved),
            statistics.mean(len(s.order) - s.tail for s in solved))


def report(logs: dict[str, MissLog], reference: str) -> list[str]:
    """Lines: per variant, the band's missed keys solved cold, beside the reference's (its
    DP ms per miss as "x ref")."""
    keys = {variant: band_keys(log) for variant, log in logs.items()}
    for variant_keys in keys.values():  # warm the split lists and tail memos once
        for key in variant_keys:
            counting.count_key(key)
    cost = cold_ms_per_key(keys)
    lines = [f"{'variant':<14}{'band updates':>13}{'misses':>8}{'DP ms/miss':>12}"
             f"{'x ref':>10}{'holders':>9}{'classes':>9}{'enumerated':>11}"]
    for variant, log in logs.items():
        band = int(BAND[1] * len(log.updates)) - int(BAND[0] * len(log.updates))
        holders, classes, enumerated = sizes(keys[variant])
        lines.append(f"{variant:<14}{band:>13}{len(keys[variant]):>8}{cost[variant]:>12.4f}"
                     f"{cost[variant] / cost[reference]:>10.2f}{holders:>9.2f}{classes:>9.2f}"
                     f"{enumerated:>11.2f}")
    return lines

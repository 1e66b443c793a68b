"""The garbage collector's settings for a long-running server: short pauses.

CPython's collector stops the thread that triggers it for as long as it walks the objects
of the generations it collects (about half a microsecond an object here). Measured at
1,280 paced tables (`loadtest --pace 3`) with young collections at 50,000 allocations and
the middle generation every 20 of them: young collections of 23-45 ms and a middle one of
510 ms, while acks and beliefs were to stay under 50 and 100 ms at p99.

Young collections are not left to the allocation count: CPython counts allocations minus
frees, and a server that replaces old objects by new ones (each move's state, frames,
beliefs) frees about as many as it allocates, so the count reached its threshold seldom,
and by then tens of thousands of new objects lived. The loop runs one every
YOUNG_INTERVAL instead: each walks what was allocated since the one before (~1-3 ms at
640 tables), and the middle generation, collected every OLDER of them, holds about a
second of survivors. What exists once the server is up (modules, games, recovered tables)
is frozen out of every collection. A full collection walks the whole heap (291 ms at 1,280
tables, measured with one every ten middle ones): it waits for FULL middle ones (about a
hundred seconds: a pause that long touches under 0.5% of the moves, and garbage cycles of
closed connections, ~33 objects each, wait no longer) and, as CPython's always do, for the
old generation to have grown by a quarter.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG = 10_000
"""Allocations (minus frees) of container objects that start a young collection early."""
YOUNG_INTERVAL = 0.1
"""Seconds between two young collections run by the loop."""
OLDER = 10
"""Young collections between two of the middle generation."""
FULL = 100
"""Middle collections between two full ones (which also wait for the old generation to
grow by a quarter)."""


def _collect_young(loop: asyncio.AbstractEventLoop) -> None:
    gc.collect(0)
    loop.call_later(YOUNG_INTERVAL, _collect_young, loop)


def tune_collector() -> tuple[int, int, int]:
    """Freeze what exists now, set the thresholds and run a young collection every
    YOUNG_INTERVAL on the running loop; returns the old thresholds. Call once, on the
    loop, when the process is up (after imports and recovery)."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, FULL)
    loop = asyncio.get_running_loop()
    loop.call_later(YOUNG_INTERVAL, _collect_young, loop)
    return before

"""The garbage collector's settings for a long-running server: short pauses.

CPython's collector stops the thread that triggers it for as long as it walks the objects
of the generations it collects (about half a microsecond an object here). Measured at
1,280 paced tables (`loadtest --pace 3`) with young collections at 50,000 allocations and
the middle generation every 20 of them: young collections of 23-45 ms and a middle one of
510 ms, while acks and beliefs were to stay under 50 and 100 ms at p99.

Young collections are not left to the allocation count: CPython counts allocations minus
frees, and a server that replaces old objects by new ones (each move's state, frames,
beliefs) frees about as many as it allocates, so the count reached its threshold seldom,
and by then tens of thousands of new objects lived. The loop runs every
collection itself, on a timer (CPython's own would seldom fire once the loop's keep its
count low, and then walk a middle generation grown large): a young one every
YOUNG_INTERVAL, walking what was allocated since the one before (~1-3 ms at 640 tables);
the middle one every OLDER of them, holding about a second of survivors; a full one, which
walks the whole heap (291 ms at 1,280 tables), after FULL middle ones (about a hundred
seconds: a pause that long touches under 0.5% of the moves, and garbage cycles of closed
connections, ~33 objects each, wait no longer), and only if the old generation has grown
by a quarter since the last (CPython's rule). What exists once the server is up (modules,
games, recovered tables) is frozen out of every collection.
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


class _Timer:
    """The loop's collections: which is next, and the old generation's size at the last
    full one."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.young = 0
        self.middle = 0
        self.old_size = len(gc.get_objects(2))

    def tick(self) -> None:
        self.young += 1
        if self.young < OLDER:
            gc.collect(0)
        else:
            self.young = 0
            self.middle += 1
            gc.collect(1)
            if self.middle >= FULL:
                self.middle = 0
                if len(gc.get_objects(2)) > self.old_size * 5 // 4:
                    gc.collect(2)
                    self.old_size = len(gc.get_objects(2))
        self.loop.call_later(YOUNG_INTERVAL, self.tick)


def tune_collector() -> tuple[int, int, int]:
    """Freeze what exists now, set the thresholds (a backstop for bursts of allocation)
    and run the collections on a timer on the running loop; returns the old thresholds.
    Call once, on the loop, when the process is up (after imports and recovery)."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, FULL)
    loop = asyncio.get_running_loop()
    loop.call_later(YOUNG_INTERVAL, _Timer(loop).tick)
    return before

"""The garbage collector's settings for a long-running server: short pauses.

CPython's collector stops the thread that triggers it for as long as it walks the objects
of the generations it collects (about half a microsecond an object here), while acks and
beliefs are to stay under 50 and 100 ms at p99. Measured at 2,500 paced tables (`loadtest
--pace 3`, 10,000 connections, 1.7 million objects) with the old generation walked: full
collections of 1.5 s, middle ones of 40-70 ms (CPython's defaults at 1,280 tables: young
collections of 23-45 ms and a middle one of 510 ms).

So nothing is walked twice. Every YOUNG_INTERVAL (50 ms) the loop collects the young generation
(what was allocated since the last time: its cycles die young, the requests' and frames')
and freezes what survived: a frozen object is in no generation, and no later collection
walks it. Frozen objects are still freed by reference counting, and what the server lets go
of after that is acyclic (a session breaks its own cycles when it closes, a table's bots
and belief handles theirs when it stops: server/session.py, server/tables/bots.py,
server/beliefs/processes.py; checked in tests/server/test_freed_without_collector.py, and
for every game's belief and table in tests/conformance/test_acyclic.py): at
2,500 tables, the middle and full collections this replaced found nothing to free in steady
play (every one timed: the middle ones over 20 ms and the full ones after seating).

Cyclic garbage among frozen objects, if some code makes it, stays in the frozen set, which
then grows; every RECLAIM_INTERVAL, if the frozen set grew by a quarter since the last
reclaim (CPython's rule for full collections), it is unfrozen, collected whole once (a
pause of about a second at 2,500 tables) and frozen again. What exists once the server is
up (modules, games, recovered tables) is frozen from the start.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG = 10_000
"""Allocations (minus frees) of container objects that start a young collection early
(CPython's own, between two of the loop's)."""
YOUNG_INTERVAL = 0.05
"""Seconds between two young collections run by the loop, each followed by a freeze (at
2,500 paced tables, against 0.1 s in two alternated pairs: loop lag p99 12-14 ms against
17-21, ack p99 50-62 against 72-78, and 0.95x the CPU per move)."""
OLDER = 10
"""CPython's own threshold for middle collections (a backstop: the loop's freezes leave
them next to nothing)."""
FULL = 100
"""CPython's own threshold for full collections (a backstop, as OLDER)."""
RECLAIM_INTERVAL = 600.0
"""Seconds between looks at the frozen set for the reclaim."""


class _Timer:
    """The loop's collections, and the frozen set's size at the last reclaim."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.frozen = gc.get_freeze_count()

    def tick(self) -> None:
        gc.collect(0)
        gc.freeze()
        self.loop.call_later(YOUNG_INTERVAL, self.tick)

    def reclaim(self) -> None:
        """Collect cyclic garbage among the frozen objects, if the frozen set grew by a
        quarter since the last time."""
        if gc.get_freeze_count() > self.frozen * 5 // 4:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.frozen = gc.get_freeze_count()
        self.loop.call_later(RECLAIM_INTERVAL, self.reclaim)


def tune_collector() -> tuple[int, int, int]:
    """Freeze what exists now, set the thresholds (a backstop for bursts of allocation)
    and run the collections on a timer on the running loop; returns the old thresholds.
    Call once, on the loop, when the process is up (after imports and recovery)."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, FULL)
    loop = asyncio.get_running_loop()
    timer = _Timer(loop)
    loop.call_later(YOUNG_INTERVAL, timer.tick)
    loop.call_later(RECLAIM_INTERVAL, timer.reclaim)
    return before

"""The garbage collector's settings for a long-running server.

Measured at 50 busy tables (one server, one inference process): with CPython's default
thresholds (700, 10, 10) the collector ran ~10 young collections a second, at ~0.6 ms each
(the young generation is full of futures, envelopes and events that the next turn frees
anyway), plus a full collection every ~15 s at ~90 ms of CPU (a pause of the event loop as
long): ~5% of the server's CPU per move. The server's objects are freed by reference
counting; the collector is only for cycles, which here come from exceptions and
short-lived tasks. So: what exists once the server has started (modules, the games, the
recovered tables) is frozen out of every collection, and a young collection waits for
50,000 new container objects (about a hundred moves) instead of 700.
"""

from __future__ import annotations

import gc

YOUNG = 50_000
"""Allocations (minus frees) of container objects between two young collections."""
OLDER = 20
"""Young collections between two of the middle generation, and those between two full."""


def tune_collector() -> tuple[int, int, int]:
    """Freeze what exists now and raise the thresholds; returns the old thresholds.

    Call once the server is up (after imports and recovery). Cycles are still collected,
    only less often; memory held by garbage cycles waits up to YOUNG allocations longer."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, OLDER)
    return before

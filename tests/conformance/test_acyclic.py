"""Every variant's belief leaves no cyclic garbage: folded through a whole match, with
snapshots, for every audience, it makes nothing that only the cycle collector could free.

The server, its inference processes and the workers freeze what survives a young
collection (server/collector.py); a cycle that is alive when a collection runs (a belief
computed on the inference thread, an automatic collection in the middle of a snapshot) then
stays in memory until the reclaim. Beliefs run for every move of every table, so they must
make none. A first match warms each game up (imports, compiled kernels: once per process);
the second is checked with the collector off, every cache of the exact counting emptied so
its slow paths run too.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator

import pytest

from inference.counting import clear_caches
from tests.conformance.cases import SEEDS, TABLE_CASES, Case, ids, match


def fold(case: Case, seed: int) -> None:
    """Every audience's belief through the match, a snapshot at each quarter of it."""
    events = match(case.variant, seed).events
    marks = {len(events) * k // 4 for k in range(1, 5)}
    for audience in case.audiences:
        belief = case.game.belief(audience, case.variant)
        for seq, event in enumerate(events, 1):
            belief.apply(case.game.view(event, audience))
            if seq in marks:
                belief.snapshot_dict()


def describe(garbage: list[object]) -> str:
    kinds = Counter(type(o).__name__ for o in garbage)
    functions = Counter(getattr(o, "__qualname__", "?") for o in garbage
                        if type(o).__name__ in ("function", "generator"))
    return f"{len(garbage)} objects: {kinds.most_common(6)}; functions {functions.most_common(6)}"


@pytest.fixture
def collector_off() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


@pytest.mark.parametrize("case", TABLE_CASES, ids=ids(TABLE_CASES))
def test_a_belief_makes_no_cyclic_garbage(case: Case, collector_off: None) -> None:
    fold(case, SEEDS[0])
    match(case.variant, SEEDS[1])  # played (and cached) before the count starts
    clear_caches()
    gc.collect()
    fold(case, SEEDS[1])
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds unreachable goes to gc.garbage
    gc.collect()
    assert gc.garbage == [], describe(gc.garbage)

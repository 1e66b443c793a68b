"""server/collector.py: what exists frozen, young collections run by the loop."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from server import collector
from server.collector import FULL, OLDER, YOUNG, tune_collector


class Node:
    """A weak-referenceable object to put in a cycle."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def restored() -> Iterator[None]:
    before = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


async def test_what_exists_is_frozen_and_the_loop_collects_young_cycles(restored: None
                                                                         ) -> None:
    kept = [[n] for n in range(1000)]  # containers alive before the server is up
    before = gc.get_threshold()
    assert tune_collector() == before
    assert gc.get_threshold() == (YOUNG, OLDER, FULL)
    assert gc.get_freeze_count() >= len(kept)
    node = Node()
    dead = weakref.ref(node)
    del node  # a garbage cycle, far below the allocation threshold: the loop's timer
    await _collections(0, 2)  # collects it
    assert dead() is None


async def test_the_loop_collects_the_middle_generation_too(restored: None) -> None:
    """Not left to CPython: its own collections seldom fire once the timer keeps the young
    count low, and a middle generation left alone grows until one does."""
    tune_collector()
    await _collections(1, 2)


async def _collections(generation: int, n: int) -> None:
    """Until `n` more collections of `generation` have run."""
    seen = gc.get_stats()[generation]["collections"]
    for _ in range(100 * OLDER):  # the timer runs every YOUNG_INTERVAL: far more than enough
        if gc.get_stats()[generation]["collections"] >= seen + n:
            return
        await asyncio.sleep(collector.YOUNG_INTERVAL)
    raise AssertionError(f"the loop ran no collection of generation {generation}")

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
    seen = gc.get_stats()[0]["collections"]  # collects it
    for _ in range(1000):  # the timer runs every YOUNG_INTERVAL: far fewer turns than this
        if gc.get_stats()[0]["collections"] >= seen + 2:
            break
        await asyncio.sleep(collector.YOUNG_INTERVAL)
    assert dead() is None

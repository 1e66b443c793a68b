"""server/collector.py: what exists frozen, young collections run by the loop, survivors
frozen, and the reclaim of cycles among frozen objects."""

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
    await _collections(2)  # collects it
    assert dead() is None


async def test_what_survives_a_young_collection_is_frozen(restored: None) -> None:
    """No collection walks an object twice: the loop's young collection, then a freeze."""
    tune_collector()
    frozen = gc.get_freeze_count()
    kept = [[n] for n in range(2000)]  # made after the start: young, and they live on
    await _collections(1)
    assert gc.get_freeze_count() >= frozen + len(kept)
    walked = {id(o) for o in gc.get_objects()}  # every generation a collection walks
    assert not any(id(k) in walked for k in kept)


async def test_the_reclaim_collects_cycles_among_frozen_objects(
        restored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector, "RECLAIM_INTERVAL", collector.YOUNG_INTERVAL)
    tune_collector()
    grown = [[n] for n in range(gc.get_freeze_count())]  # the frozen set doubles
    dead = _frozen_garbage_cycle()
    gc.collect()
    assert dead() is not None
    for _ in range(100):
        if dead() is None:
            break
        await asyncio.sleep(collector.YOUNG_INTERVAL)
    assert dead() is None
    assert gc.get_freeze_count() >= len(grown)


async def test_no_reclaim_while_the_frozen_set_holds_its_size(
        restored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reclaim's walk of everything is the one long pause: not without cause."""
    monkeypatch.setattr(collector, "RECLAIM_INTERVAL", collector.YOUNG_INTERVAL)
    tune_collector()
    dead = _frozen_garbage_cycle()
    full = gc.get_stats()[2]["collections"]
    for _ in range(5):
        await asyncio.sleep(collector.YOUNG_INTERVAL)
    assert dead() is not None
    assert gc.get_stats()[2]["collections"] == full


def _frozen_garbage_cycle() -> weakref.ref[Node]:
    """A garbage cycle among frozen objects: no collection walks it but the reclaim."""
    node = Node()
    dead = weakref.ref(node)
    gc.freeze()
    del node
    return dead


async def _collections(n: int) -> None:
    """Until `n` more young collections have run."""
    seen = gc.get_stats()[0]["collections"]
    for _ in range(1000):  # the timer runs every YOUNG_INTERVAL: far more than enough
        if gc.get_stats()[0]["collections"] >= seen + n:
            return
        await asyncio.sleep(collector.YOUNG_INTERVAL)
    raise AssertionError("the loop ran no young collection")

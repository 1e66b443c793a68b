"""The load generator seats a step's tables in waves (clients/python/loadtest_group.py):
a thousand tables opened at once is no population's arrival, and it overran the server's
listen queue. A wave starts only once every table of the one before is seated."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest

from clients.python import loadtest_group
from clients.python.loadtest_group import GroupConfig, TableGroup


async def test_a_wave_starts_once_the_one_before_is_seated(url: str,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setattr(loadtest_group, "SEATING_WAVE", 2)
    started: dict[int, float] = {}
    seated_at: dict[int, float] = {}
    real = loadtest_group.play_table

    async def timed_play_table(*args: Any, seated: asyncio.Event, **kwargs: Any) -> None:
        seed = args[4]
        started[seed] = time.monotonic()
        announce = seated.set

        def mark() -> None:
            seated_at[seed] = time.monotonic()
            announce()

        seated.set = mark  # type: ignore[method-assign]
        await real(*args, seated=seated, **kwargs)

    monkeypatch.setattr(loadtest_group, "play_table", timed_play_table)
    group = TableGroup(GroupConfig(url=url, pace=0.05, variant="partnership-6", target=15))
    try:
        await group.add([1, 2, 3, 4, 5])
    finally:
        await group.stop()
    assert sorted(started) == sorted(seated_at) == [1, 2, 3, 4, 5]
    waves = [[1, 2], [3, 4], [5]]
    for before, after in itertools.pairwise(waves):
        assert max(seated_at[s] for s in before) <= min(started[s] for s in after)

"""AsyncEventStore hands a loop turn's appends to its writer together: they share one
transaction, and an append made in the turn that closes the store is still written."""

from __future__ import annotations

import asyncio

from storage import AsyncEventStore
from tests.storage.conftest import events

TABLES = 40


async def test_one_turns_appends_share_one_commit(url: str) -> None:
    async with AsyncEventStore.open(url) as store:
        await store.append("warm", 0, events(1))  # the writer idle, waiting for work
        before = store.commits
        # every task's append is submitted in the same loop turn
        results = await asyncio.gather(
            *(store.append(f"turn:{i}", 0, events(1)) for i in range(TABLES)))
        assert [r[0].stream for r in results] == [f"turn:{i}" for i in range(TABLES)]
        assert store.commits - before == 1


async def test_an_append_of_the_closing_turn_is_written(url: str) -> None:
    store = AsyncEventStore.open(url)
    late = asyncio.ensure_future(store.append("late", 0, events(2)))
    await asyncio.sleep(0)  # its request is made in this turn, handed over at its end ...
    await store.aclose()  # ... or by the close, before the writer stops
    assert [e.seq for e in await late] == [1, 2]

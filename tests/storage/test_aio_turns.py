"""AsyncEventStore hands a loop turn's appends to its writer together: they share one
transaction, and an append made in the turn that closes the store is still written. With a
commit window, appends of separate turns share one too."""

from __future__ import annotations

import asyncio

import pytest

from storage import AsyncEventStore, EventStore
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


async def test_appends_of_separate_turns_share_a_commit_within_the_window(url: str) -> None:
    # three tables' moves, each in a loop turn of its own, as they come at human pace; the
    # third fills max_batch_events, so the writer commits then rather than at the window's
    # end (no clock decides what this test sees)
    async with AsyncEventStore.open(url, commit_window=1.0, max_batch_events=3) as store:
        pending = []
        for i in range(3):
            pending.append(asyncio.ensure_future(store.append(f"paced:{i}", 0, events(1))))
            await asyncio.sleep(0)  # this turn ends: its append goes to the writer alone
        results = await asyncio.gather(*pending)
        assert [r[0].stream for r in results] == [f"paced:{i}" for i in range(3)]
        assert store.commits == 1


async def test_without_a_window_separate_turns_commit_apart(url: str) -> None:
    async with AsyncEventStore.open(url) as store:
        for i in range(3):
            await store.append(f"alone:{i}", 0, events(1))
        assert store.commits == 3


async def test_closing_inside_the_window_writes_what_waits(url: str) -> None:
    store = AsyncEventStore.open(url, commit_window=1.0)
    waiting = asyncio.ensure_future(store.append("waiting", 0, events(2)))
    await asyncio.sleep(0)  # handed to the writer, which now waits for company
    await store.aclose()  # the stop ends the wait: the append is committed, not lost
    assert [e.seq for e in await waiting] == [1, 2]
    with EventStore(url) as reopened:
        assert [e.seq for e in reopened.read("waiting")] == [1, 2]


def test_a_window_outside_zero_to_a_second_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="commit_window"):
        AsyncEventStore.open(url, commit_window=-0.1)

"""AsyncEventStore: concurrent awaits are grouped into few transactions, each caller gets its own
answer (events or ConcurrencyConflict)."""

from __future__ import annotations

import asyncio

import pytest

from storage import AsyncEventStore, ConcurrencyConflict, EventStore, InvalidEvent, StoreClosed
from tests.storage.conftest import events

STREAMS = 60


async def test_group_commit_gives_each_caller_its_result(url: str) -> None:
    async with AsyncEventStore.open(url) as store:
        # Two callers per stream race from expected_seq 0: one wins, one conflicts.
        async def attempt(stream: str, writer: int) -> object:
            try:
                return await store.append(stream, 0, events(2, writer=writer))
            except ConcurrencyConflict as conflict:
                return conflict

        calls = [attempt(f"t:{i}", w) for i in range(STREAMS) for w in range(2)]
        outcomes = await asyncio.gather(*calls)

        for i in range(STREAMS):
            pair = outcomes[2 * i : 2 * i + 2]
            won = [o for o in pair if isinstance(o, list)]
            lost = [o for o in pair if isinstance(o, ConcurrencyConflict)]
            assert len(won) == 1 and len(lost) == 1
            assert [(e.stream, e.seq) for e in won[0]] == [(f"t:{i}", 1), (f"t:{i}", 2)]
            assert (lost[0].stream, lost[0].expected, lost[0].actual) == (f"t:{i}", 0, 2)
            assert await store.read(f"t:{i}") == won[0]
        assert store.appends == 2 * STREAMS
        assert store.commits < store.appends / 4, "concurrent appends were not grouped"


async def test_many_sequential_writers(url: str) -> None:
    async with AsyncEventStore.open(url) as store:

        async def table(name: str) -> int:
            seq = 0
            for _ in range(10):
                seq = (await store.append(name, seq, events(1)))[-1].seq
            return seq

        assert await asyncio.gather(*(table(f"m:{i}") for i in range(30))) == [10] * 30
        assert [s.last_seq for s in await store.streams("m:")] == [10] * 30
        assert all([(await store.verify_chain(f"m:{i}")).ok for i in range(30)])
        assert await store.last_seq("m:3") == 10
        assert store.commits < store.appends


async def test_invalid_event_fails_alone(url: str) -> None:
    async with AsyncEventStore.open(url) as store:
        good = asyncio.create_task(store.append("good", 0, events(1)))
        with pytest.raises(InvalidEvent):
            await store.append("bad", 0, [{"no type": True}])
        assert (await good)[0].seq == 1
        assert await store.last_seq("bad") == 0


async def test_async_append_batch(url: str) -> None:
    async with AsyncEventStore.open(url) as store:
        await store.append("x", 0, events(1))
        results = await store.append_batch([("x", 0, events(1)), ("y", 0, events(1))])
        assert isinstance(results[0], ConcurrencyConflict) and results[1][0].seq == 1


async def test_async_append_atomic_refuses_only_its_own_batch(url: str) -> None:
    async with AsyncEventStore.open(url) as store:
        await store.append("cmd", 0, events(1))

        async def atomic(i: int) -> object:
            try:  # odd callers are stale on "cmd:..." and must leave "m:..." untouched
                return await store.append_atomic(
                    [(f"m:{i}", 0, events(2)), (f"cmd:{i}", 0 if i % 2 == 0 else 1, events(1))]
                )
            except ConcurrencyConflict as conflict:
                return conflict

        async def plain(i: int) -> object:
            return await store.append_batch([(f"p:{i}", 0, events(1)), ("cmd", 0, events(1))])

        outcomes = await asyncio.gather(*(atomic(i) for i in range(40)),
                                        *(plain(i) for i in range(40)))
        for i, outcome in enumerate(outcomes[:40]):
            if i % 2 == 0:
                assert isinstance(outcome, list)
                assert [[e.seq for e in part] for part in outcome] == [[1, 2], [1]]
                assert await store.last_seq(f"m:{i}") == 2
            else:
                assert outcome == ConcurrencyConflict(f"cmd:{i}", 1, 0)
                assert await store.last_seq(f"m:{i}") == 0
                assert await store.last_seq(f"cmd:{i}") == 0
        for outcome in outcomes[40:]:  # plain batches: the stale append alone is refused
            assert isinstance(outcome, list) and outcome[0][0].seq == 1
            assert isinstance(outcome[1], ConcurrencyConflict)
        assert store.commits < 80, "concurrent callers were not grouped"


async def test_close_finishes_queued_appends_then_refuses(url: str) -> None:
    with EventStore(url) as sync_store:
        store = AsyncEventStore(sync_store)  # does not own the store: leaves it open
        pending = [asyncio.create_task(store.append(f"c:{i}", 0, events(1))) for i in range(20)]
        await asyncio.sleep(0)  # let the tasks queue their appends
        await store.aclose()
        assert all(len(task.result()) == 1 for task in pending)
        with pytest.raises(StoreClosed):
            await store.append("late", 0, events(1))
        assert len(sync_store.streams("c:")) == 20

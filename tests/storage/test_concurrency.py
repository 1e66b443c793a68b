"""Many writers, one stream: exactly one wins each race, the others get ConcurrencyConflict.

Each thread or process has its own EventStore (its own connections), so the race is decided
by the database, not by a Python lock.
"""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ThreadPoolExecutor

from storage import ConcurrencyConflict, EventStore
from tests.storage.conftest import events

WRITERS = 6


def _race(url: str, stream: str, expected: int, rounds: int) -> None:
    stores = [EventStore(url) for _ in range(WRITERS)]
    try:
        for round_ in range(rounds):
            barrier = threading.Barrier(WRITERS)

            def attempt(
                index: int, barrier: threading.Barrier = barrier, expected: int = expected
            ) -> object:
                barrier.wait()
                try:
                    return stores[index].append(stream, expected, events(2, writer=index))
                except ConcurrencyConflict as conflict:
                    return conflict

            with ThreadPoolExecutor(WRITERS) as pool:
                outcomes = list(pool.map(attempt, range(WRITERS)))
            winners = [o for o in outcomes if isinstance(o, list)]
            losers = [o for o in outcomes if isinstance(o, ConcurrencyConflict)]
            assert len(winners) == 1 and len(losers) == WRITERS - 1, (round_, outcomes)
            assert [e.seq for e in winners[0]] == [expected + 1, expected + 2]
            assert all(c.expected == expected and c.actual == expected + 2 for c in losers)
            expected += 2
        assert stores[0].last_seq(stream) == expected
        assert stores[0].verify_chain(stream).ok
    finally:
        for store in stores:
            store.close()


def test_threads_race_on_a_new_stream(url: str) -> None:
    _race(url, "fresh", 0, rounds=1)


def test_threads_race_on_an_existing_stream(url: str) -> None:
    with EventStore(url) as store:
        store.append("busy", 0, events(1))
    _race(url, "busy", 1, rounds=5)


def test_batches_racing_for_a_new_stream_keep_their_other_appends(url: str) -> None:
    """On PostgreSQL this takes the savepoint-per-append retry path after a unique violation."""
    stores = [EventStore(url) for _ in range(WRITERS)]
    barrier = threading.Barrier(WRITERS)

    def attempt(index: int) -> list:
        barrier.wait()
        return stores[index].append_batch(
            [(f"own:{index}", 0, events(1)), ("shared", 0, events(1, writer=index))]
        )

    try:
        with ThreadPoolExecutor(WRITERS) as pool:
            outcomes = list(pool.map(attempt, range(WRITERS)))
        assert all(isinstance(own, list) and own[0].seq == 1 for own, _ in outcomes)
        shared = [result for _, result in outcomes]
        assert sum(isinstance(r, list) for r in shared) == 1
        assert sum(isinstance(r, ConcurrencyConflict) for r in shared) == WRITERS - 1
        assert stores[0].last_seq("shared") == 1
        assert len(stores[0].streams("own:")) == WRITERS
    finally:
        for store in stores:
            store.close()


def test_atomic_batches_racing_for_a_new_stream_leave_nothing_of_the_losers(url: str) -> None:
    """The all-or-nothing variant of the race above: a loser's own stream is not created
    either (on PostgreSQL, the unit is undone by its savepoint after the unique violation)."""
    stores = [EventStore(url) for _ in range(WRITERS)]
    barrier = threading.Barrier(WRITERS)

    def attempt(index: int) -> object:
        barrier.wait()
        try:
            return stores[index].append_atomic(
                [(f"own:{index}", 0, events(1)), ("shared", 0, events(1, writer=index))]
            )
        except ConcurrencyConflict as conflict:
            return conflict

    try:
        with ThreadPoolExecutor(WRITERS) as pool:
            outcomes = list(pool.map(attempt, range(WRITERS)))
        winners = [i for i, o in enumerate(outcomes) if isinstance(o, list)]
        assert len(winners) == 1, outcomes
        assert all(o == ConcurrencyConflict("shared", 0, 1)
                   for o in outcomes if not isinstance(o, list))
        assert [s.stream for s in stores[0].streams("own:")] == [f"own:{winners[0]}"]
        assert stores[0].read("shared")[0].payload["writer"] == winners[0]
    finally:
        for store in stores:
            store.close()


def _process_writer(url: str, index: int, barrier: object, results: object) -> None:
    with EventStore(url) as store:
        barrier.wait()  # type: ignore[attr-defined]
        try:
            store.append("contested", 0, events(3, writer=index))
            results.put((index, "won"))  # type: ignore[attr-defined]
        except ConcurrencyConflict as conflict:
            results.put((index, f"conflict {conflict.actual}"))  # type: ignore[attr-defined]


def test_processes_race(url: str) -> None:
    EventStore(url).close()  # schema first, so the race is about the stream only
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(4), context.Queue()
    processes = [
        context.Process(target=_process_writer, args=(url, i, barrier, results)) for i in range(4)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
        assert process.exitcode == 0
    outcomes = sorted(results.get(timeout=5)[1] for _ in processes)
    assert outcomes == ["conflict 3", "conflict 3", "conflict 3", "won"]
    with EventStore(url) as store:
        assert store.last_seq("contested") == 3 and store.verify_chain("contested").ok

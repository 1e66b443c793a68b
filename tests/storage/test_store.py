"""Append, read and list: the everyday contract, on SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
from datetime import UTC

import pytest

from storage import (
    GENESIS_HASH,
    ConcurrencyConflict,
    EventStore,
    InvalidEvent,
    StoreClosed,
    canonical_json,
    link_hash,
)
from tests.storage.conftest import events


def test_append_read_roundtrip(store: EventStore) -> None:
    sent = [{"type": "opened", "who": "Zoë", "tiles": ["6-6", "0-1"], "nested": {"b": 1, "a": 2}}]
    stored = store.append("match:1", 0, sent)

    assert [e.seq for e in stored] == [1]
    event = stored[0]
    assert event.stream == "match:1" and event.type == "opened"
    assert event.payload == {**sent[0], "seq": 1}
    assert event.recorded_at.tzinfo is not None and event.recorded_at.utcoffset() == UTC.utcoffset(
        None
    )
    assert event.prev_hash == GENESIS_HASH
    assert event.hash == link_hash(GENESIS_HASH, canonical_json(event.payload))
    assert store.read("match:1") == stored
    assert "seq" not in sent[0], "the caller's dict is not modified"


def test_seqs_are_contiguous_and_chained(store: EventStore) -> None:
    first = store.append("s", 0, events(3))
    second = store.append("s", 3, events(2))
    third = store.append("s", 5, [{"type": "end", "seq": 6}])  # its own correct seq is accepted

    every = store.read("s")
    assert [e.seq for e in every] == [1, 2, 3, 4, 5, 6]
    assert every == first + second + third
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(every))
    assert store.last_seq("s") == 6
    assert store.verify_chain("s").ok


def test_read_after_and_limit(store: EventStore) -> None:
    store.append("s", 0, events(10))
    assert [e.seq for e in store.read("s", after_seq=7)] == [8, 9, 10]
    assert [e.seq for e in store.read("s", after_seq=2, limit=3)] == [3, 4, 5]
    assert store.read("s", after_seq=10) == []
    assert store.read("nobody") == []
    assert store.last_seq("nobody") == 0


def test_read_many_is_read_for_each_stream(store: EventStore) -> None:
    store.append("a", 0, events(5))
    store.append("b", 0, events(3))
    store.append("c", 0, events(2))
    after = {"a": 3, "b": 0, "c": 2, "nobody": 0}
    got = store.read_many(after)
    assert got == {stream: store.read(stream, seq) for stream, seq in after.items()}
    assert [e.seq for e in got["a"]] == [4, 5] and got["c"] == [] and got["nobody"] == []
    assert store.read_many({}) == {}


def test_stale_expected_seq_is_a_conflict(store: EventStore) -> None:
    store.append("s", 0, events(2))
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("s", 1, events(1))
    assert (caught.value.stream, caught.value.expected, caught.value.actual) == ("s", 1, 2)
    with pytest.raises(ConcurrencyConflict):
        store.append("s", 0, events(1))  # "new stream" when it exists
    with pytest.raises(ConcurrencyConflict) as ahead:
        store.append("s", 5, events(1))  # claiming to have seen the future would leave a gap
    assert ahead.value.actual == 2
    assert store.last_seq("s") == 2


@pytest.mark.parametrize(
    "bad",
    [
        [],
        [{"no": "type"}],
        [{"type": ""}],
        ["not a dict"],
        [{"type": "x", "when": {1, 2}}],
        [{"type": "x", "f": float("nan")}],
        [{"type": "x", "seq": 9}],
        [{"type": "x\x00"}],
    ],
)
def test_invalid_events_are_refused_before_writing(store: EventStore, bad: list) -> None:
    with pytest.raises(InvalidEvent):
        store.append("s", 0, [{"type": "ok"}, *bad] if bad else bad)
    assert store.last_seq("s") == 0
    assert store.streams() == []


def test_invalid_stream_or_seq(store: EventStore) -> None:
    with pytest.raises(InvalidEvent):
        store.append("", 0, events(1))
    with pytest.raises(InvalidEvent):
        store.append("x" * 300, 0, events(1))
    with pytest.raises(InvalidEvent):
        store.append("s", -1, events(1))
    with pytest.raises(InvalidEvent):
        store.append("nul\x00", 0, events(1))


def test_nul_inside_payload_is_stored_escaped(store: EventStore) -> None:
    stored = store.append("s", 0, [{"type": "t", "text": "a\x00b"}])
    assert store.read("s") == stored and stored[0].payload["text"] == "a\x00b"


def test_append_batch_conflict_does_not_sink_the_others(store: EventStore) -> None:
    store.append("taken", 0, events(1))
    results = store.append_batch(
        [
            ("a", 0, events(2)),
            ("taken", 0, events(1)),  # stale: someone else wrote seq 1
            ("b", 0, events(1)),
            ("a", 2, events(1)),  # continues the first append of this batch
        ]
    )
    assert isinstance(results[1], ConcurrencyConflict) and results[1].actual == 1
    assert [e.seq for e in results[0]] == [1, 2]
    assert [e.seq for e in results[2]] == [1]
    assert [e.seq for e in results[3]] == [3]
    assert results[3][0].prev_hash == results[0][1].hash
    assert store.last_seq("a") == 3 and store.last_seq("b") == 1 and store.last_seq("taken") == 1
    for name in ("a", "b", "taken"):
        assert store.verify_chain(name).ok


def test_append_atomic_conflict_on_one_stream_changes_none(store: EventStore) -> None:
    store.append("match", 0, events(3))
    store.append("commands", 0, events(1))
    store.append("commands", 1, events(1, kind="other_writer"))  # someone else moved it on
    heads = {s.stream: s.last_seq for s in store.streams()}

    with pytest.raises(ConcurrencyConflict) as caught:
        store.append_atomic(
            [
                ("match", 3, events(2)),  # would succeed on its own
                ("fresh", 0, events(1)),  # a new stream: must not be created
                ("commands", 1, events(1)),  # stale: the whole batch is refused
                ("match", 5, events(1)),
            ]
        )
    assert (caught.value.stream, caught.value.expected, caught.value.actual) == ("commands", 1, 2)
    assert {s.stream: s.last_seq for s in store.streams()} == heads
    assert [e.seq for e in store.read("match")] == [1, 2, 3]
    assert store.read("fresh") == []
    for name in ("match", "commands"):
        assert store.verify_chain(name).ok

    # the same batch against the right heads commits every append, chained
    stored = store.append_atomic(
        [("match", 3, events(2)), ("fresh", 0, events(1)), ("commands", 2, events(1)),
         ("match", 5, events(1))]
    )
    assert [[e.seq for e in part] for part in stored] == [[4, 5], [1], [3], [6]]
    assert stored[3][0].prev_hash == stored[0][1].hash
    assert store.last_seq("match") == 6 and store.last_seq("fresh") == 1
    assert store.append_atomic([]) == []


def test_atomic_units_are_independent_of_each_other(store: EventStore) -> None:
    """One transaction, several units (as AsyncEventStore groups callers): a unit that
    conflicts is undone entirely, the units before and after it still commit."""
    from storage.prepare import prepare_append

    store.append("taken", 0, events(1))
    units = [
        [prepare_append("a", 0, events(1)), prepare_append("b", 0, events(1))],
        [prepare_append("a", 1, events(1)), prepare_append("c", 0, events(2)),
         prepare_append("taken", 0, events(1))],  # stale: undoes its a and c
        [prepare_append("a", 1, events(1))],  # so this one finds a at 1, not 2
    ]
    results = store.commit_units(units)
    assert [[e.seq for e in part] for part in results[0]] == [[1], [1]]
    assert results[1] == ConcurrencyConflict("taken", 0, 1)
    assert [[e.seq for e in part] for part in results[2]] == [[2]]
    assert results[2][0][0].prev_hash == results[0][0][0].hash
    assert {s.stream: s.last_seq for s in store.streams()} == {"a": 2, "b": 1, "taken": 1}
    assert store.verify_chain("a").ok


def test_append_batch_refuses_wholly_on_invalid_event(store: EventStore) -> None:
    with pytest.raises(InvalidEvent):
        store.append_batch([("a", 0, events(1)), ("b", 0, [{"nope": 1}])])
    assert store.streams() == []


def test_streams_listing_and_prefix(store: EventStore) -> None:
    for name in ["match:1", "match:2", "Match:3", "match_x", "lobby", "match:"]:
        store.append(name, 0, events(2))
    store.append("match:2", 2, events(1))

    listed = store.streams()
    assert [s.stream for s in listed] == sorted(
        ["match:1", "match:2", "Match:3", "match_x", "lobby", "match:"]
    )
    by_name = {s.stream: s for s in listed}
    assert by_name["match:2"].last_seq == 3 and by_name["lobby"].last_seq == 2
    assert by_name["match:2"].updated_at >= by_name["match:2"].created_at
    # exact and case-sensitive: no LIKE wildcards, no case folding
    assert [s.stream for s in store.streams("match:")] == ["match:", "match:1", "match:2"]
    assert [s.stream for s in store.streams("match_")] == ["match_x"]
    assert store.streams("zzz") == []


def test_schema_creation_is_idempotent(url: str) -> None:
    with EventStore(url) as first:
        first.append("s", 0, events(1))
    with EventStore(url) as again, EventStore(url) as twice:
        assert again.last_seq("s") == 1
        twice.append("s", 1, events(1))
        assert again.verify_chain("s").ok


def test_closed_store_refuses(url: str) -> None:
    store = EventStore(url)
    store.close()
    with pytest.raises(StoreClosed):
        store.append("s", 0, events(1))

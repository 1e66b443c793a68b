"""When the server sends an inference process its batch (issue 31): a few moves' worth at
once, else what came within BATCH_DELAY, never one move at a time at human pace (each
wake-up of the process is paid at the cold price: `domino-oracle bench bursts`).

The shard is driven on a real event loop with a writer that records what it is given; the
waits that must not end are made far longer than any test (so a slow machine cannot end
them), and the wait that must end is only bounded below, by the loop's own clock."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import pytest

from server.beliefs import processes
from server.beliefs.pipe import decode
from server.beliefs.processes import BATCH_ITEMS, ProcessInference, Shard


class RecordingWriter:
    """An asyncio.StreamWriter as the shard uses it: each write's batch, decoded, timed."""

    def __init__(self) -> None:
        self.batches: list[tuple[float, list[Any]]] = []
        self.wrote = asyncio.Event()

    def is_closing(self) -> bool:
        return False

    def write(self, data: bytes) -> None:
        kind, _number, items, _watched = decode(data[4:])
        assert kind == "batch"
        self.batches.append((asyncio.get_running_loop().time(), items))
        self.wrote.set()


def _shard() -> tuple[Shard, RecordingWriter]:
    owner = SimpleNamespace(bus=SimpleNamespace(has_subscribers=lambda *_: True),
                            round_trip=SimpleNamespace(add=lambda _ms: None))
    shard = Shard(cast(ProcessInference, owner), 0)
    writer = RecordingWriter()
    shard.writer = cast(asyncio.StreamWriter, writer)
    return shard, writer


def _event(n: int) -> tuple[Any, ...]:
    return ("event", "t1", "N", f'{{"seq":{n}}}', 0.0)


async def _turns(n: int = 5) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_one_move_waits_for_more_and_a_few_moves_go_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes, "BATCH_DELAY", 3600.0)
    shard, writer = _shard()
    shard.queue(_event(1), ("t1", "N"))
    await _turns()
    assert writer.batches == [], "a lone item went at once: each move pays a cold wake-up"
    for n in range(2, BATCH_ITEMS + 1):
        shard.queue(_event(n), ("t1", "N"))
    await _turns()
    assert [len(items) for _, items in writer.batches] == [BATCH_ITEMS]
    assert [item[3] for item in writer.batches[0][1]] == [_event(n)[3]
                                                          for n in range(1, BATCH_ITEMS + 1)]


async def test_what_came_within_the_delay_goes_once_it_is_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes, "BATCH_DELAY", 0.05)
    shard, writer = _shard()
    loop = asyncio.get_running_loop()
    queued = loop.time()
    shard.queue(_event(1), ("t1", "N"))
    await _turns()
    shard.queue(_event(2), ("t1", "N"))
    await asyncio.wait_for(writer.wrote.wait(), timeout=60)
    (sent, items), = writer.batches
    assert sent >= queued + 0.05
    assert [item[3] for item in items] == [_event(1)[3], _event(2)[3]]


async def test_an_unacknowledged_batch_holds_the_next_until_its_ack(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """DEPTH still bounds what is in flight: a full batch waits for the ack of the one
    before it (then for BATCH_INTERVAL after it, not for BATCH_DELAY)."""
    monkeypatch.setattr(processes, "BATCH_DELAY", 3600.0)
    shard, writer = _shard()
    for n in range(1, BATCH_ITEMS + 1):
        shard.queue(_event(n), ("t1", "N"))
    await _turns()
    for n in range(BATCH_ITEMS + 1, 2 * BATCH_ITEMS + 1):
        shard.queue(_event(n), ("t1", "N"))
    await _turns()
    assert len(writer.batches) == 1
    writer.wrote.clear()
    shard._on_message(("ack", 1))
    await asyncio.wait_for(writer.wrote.wait(), timeout=60)  # BATCH_INTERVAL after the first
    assert [len(items) for _, items in writer.batches] == [BATCH_ITEMS, BATCH_ITEMS]

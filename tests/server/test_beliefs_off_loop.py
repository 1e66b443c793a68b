"""A costly belief computes off the event loop: while one update takes long, the server serves.

The toy game's spectator belief is wrapped in one that says it is costly (as Clue's and
Uno's do: a six-player Clue spectator's count can take seconds) and whose snapshot waits on a
gate the test holds closed. If beliefs were computed on the
event loop, the loop would be stuck inside the snapshot and the server could not answer the
request sent meanwhile (the test would time out). Real server, real sockets.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from games.dominoes.game import DOMINOES
from games.interface import SPECTATOR
from games.registry import Registry
from server.app import DominoServer
from server.beliefs.in_process import BeliefWorker
from storage import EventStore
from tests.conftest import make_config
from tests.games.toy.game import VARIANT, Toy
from tests.games.toy.player import DEADLINE, request

GATE_SECONDS = 20.0
"""How long a snapshot waits for the gate before giving up (only on a loop it blocks)."""


class Gate:
    def __init__(self) -> None:
        self.gate = threading.Event()
        self.computing = threading.Event()
        self.gave_up = threading.Event()


class GatedBelief:
    """The toy's spectator belief, whose snapshots first wait until the test opens the gate."""

    costly = True

    def __init__(self, inner: Any, gate: Gate) -> None:
        self.inner = inner
        self.gate = gate

    def apply(self, event: Any) -> None:
        self.inner.apply(event)

    def snapshot_dict(self) -> dict[str, Any]:
        self.gate.computing.set()
        if not self.gate.gate.wait(GATE_SECONDS):
            self.gate.gave_up.set()
        return self.inner.snapshot_dict()


class GatedToy(Toy):
    def __init__(self, gate: Gate) -> None:
        self.gate = gate

    def belief(self, observer: str, variant: str) -> Any:
        inner = super().belief(observer, variant)
        return GatedBelief(inner, self.gate) if observer == SPECTATOR else inner


@pytest.fixture
async def gate() -> Gate:
    return Gate()


@pytest.fixture
async def gated_server(tmp_path: Path, gate: Gate) -> AsyncIterator[DominoServer]:
    instance = DominoServer(make_config(tmp_path, games=Registry([DOMINOES, GatedToy(gate)])))
    await instance.start()
    try:
        yield instance
    finally:
        gate.gate.set()
        await instance.stop()


async def test_the_server_answers_while_a_belief_computes(
    gated_server: DominoServer, gate: Gate
) -> None:
    url = f"ws://127.0.0.1:{gated_server.port}/ws"
    async with connect(url) as owner, connect(url) as watcher, connect(url) as other:
        created = await request(owner, {"type": "create_table", "id": 1, "variant": VARIANT,
                                        "bots": {"S": "random", "N": "random"}})
        table_id = created["table_id"]
        await request(watcher, {"type": "watch", "id": 2, "table_id": table_id})
        assert await asyncio.to_thread(gate.computing.wait, DEADLINE), "no spectator snapshot"
        # the spectator's snapshot is inside the gate, holding the inference thread
        listed = await request(other, {"type": "list_tables", "id": 3})
        assert any(t["table_id"] == table_id for t in listed["tables"])
        assert not gate.gave_up.is_set(), "answered only after the snapshot gave up waiting"
        gate.gate.set()
        while True:  # and the belief held back arrives once the gate opens
            frame = await asyncio.wait_for(watcher.recv(), DEADLINE)
            if '"belief"' in frame:
                break


async def test_a_costly_belief_nobody_watches_leaves_the_thread_idle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A costly worker whose belief nobody wants folds its events once and then rests: a
    turn that skipped the snapshot is not taken again and again (it once was, forever)."""
    turns: list[int] = []
    compute = BeliefWorker.compute

    def counted(worker: BeliefWorker, job: Any) -> None:
        turns.append(len(job.events))
        compute(worker, job)

    monkeypatch.setattr(BeliefWorker, "compute", counted)
    gate = Gate()
    gate.gate.set()
    server = DominoServer(make_config(tmp_path, games=Registry([DOMINOES, GatedToy(gate)])))
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}/ws"
        async with connect(url) as owner:
            created = await request(owner, {"type": "create_table", "id": 1,
                                            "variant": VARIANT,
                                            "bots": {"S": "random", "N": "random"}})
            table_id = created["table_id"]
            store = EventStore(server.config.db)
            try:
                async with asyncio.timeout(DEADLINE):
                    while not any(e.payload.get("type") == "match_ended"
                                  for e in await asyncio.to_thread(store.read, table_id)):
                        await asyncio.sleep(0.05)
            finally:
                store.close()
            settled = len(turns)
            await asyncio.sleep(0.5)  # a spinning worker takes hundreds of turns meanwhile
            assert len(turns) == settled
            assert all(turns[: settled - 1]), turns  # every turn had events to fold
    finally:
        await server.stop()

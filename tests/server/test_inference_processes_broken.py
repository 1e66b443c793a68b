"""A belief whose update raises, computed in an inference process: that (table, observer) is
marked broken and logged, as in-process; the process lives on and the other audiences'
beliefs still reach the end of the match. Real server, real sockets, a real child process
(the game's registry travels to it pickled: BrokenToy is importable from here)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from games.dominoes.game import DOMINOES
from games.interface import SPECTATOR
from games.registry import Registry
from server.app import DominoServer
from server.beliefs.processes import ProcessInference
from tests.conftest import make_config, serving
from tests.games.toy.game import VARIANT, Toy
from tests.games.toy.player import play_south, request


class BreakingBelief:
    """The toy's belief, which raises on its third event."""

    costly = False

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen = 0

    def apply(self, event: Any) -> None:
        self.seen += 1
        if self.seen == 3:
            raise ValueError("an inconsistent view (injected)")
        self.inner.apply(event)

    def snapshot_dict(self) -> dict[str, Any]:
        return self.inner.snapshot_dict()


class BrokenToy(Toy):
    def belief(self, observer: str, variant: str) -> Any:
        inner = super().belief(observer, variant)
        return BreakingBelief(inner) if observer == SPECTATOR else inner


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[DominoServer]:
    config = make_config(tmp_path, inference_processes=1,
                         games=Registry([DOMINOES, BrokenToy()]))
    async with serving(config) as instance:
        yield instance


async def test_a_raising_belief_is_marked_broken_and_the_process_lives_on(
    server: DominoServer, caplog: pytest.LogCaptureFixture
) -> None:
    assert isinstance(server.inference, ProcessInference)
    shard = server.inference.shards[0]
    pid = shard.pid
    url = f"ws://127.0.0.1:{server.port}/ws"
    caplog.set_level(logging.INFO)
    async with connect(url) as south, connect(url) as watcher:
        created = await request(south, {"type": "create_table", "id": 1, "variant": VARIANT,
                                         "bots": {"N": "random"}})
        table_id = created["table_id"]
        await request(watcher, {"type": "watch", "id": 2, "table_id": table_id})
        await request(south, {"type": "join", "id": 3, "table_id": table_id, "seat": "S",
                              "name": "ann"})
        events, beliefs = await play_south(south, table_id)  # to match_ended's belief
    assert events[-1]["type"] == "match_ended" and beliefs[-1]["seq"] == events[-1]["seq"]
    table = server.registry.tables[table_id]  # type: ignore[union-attr]
    assert table.workers[SPECTATOR].broken and not table.workers["S"].broken
    assert shard.pid == pid and shard.restarts == 0  # one table's error kills nothing
    failed = [r.getMessage() for r in caplog.records if "inference_failed" in r.getMessage()]
    assert len(failed) == 1 and "injected" in failed[0] and table_id in failed[0]

"""Fixtures: a real server in-process on a free port, with its SQLite file in tmp_path.

At the top so that the server, client and bot-runner tests share one; tests/storage
keeps its own `url` (a store URL)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from server.app import DominoServer, ServerConfig
from server.tables.local import TableOptions


def make_config(tmp_path: Path, **overrides: object) -> ServerConfig:
    tables = overrides.pop("tables", TableOptions(grace=30.0, bot_delay=0.0, hand_pause=0.0))
    config = ServerConfig(host="127.0.0.1", port=0, db=tmp_path / "server.sqlite3",
                          tables=tables, web_root=tmp_path / "web")  # type: ignore[arg-type]
    # every test client connects from 127.0.0.1, and some tests hold hundreds at once: the
    # shipped limit (64, server/connections.py) is set by the tests that test it
    config.connections_per_address = 1024
    config.asks_per_address_per_second = config.asks_per_address_burst = 10_000.0
    for key, value in overrides.items():
        setattr(config, key, value)
    return config


@contextlib.asynccontextmanager
async def serving(config: ServerConfig) -> AsyncIterator[DominoServer]:
    """A started server with `config`, stopped on the way out."""
    instance = DominoServer(config)
    await instance.start()
    try:
        yield instance
    finally:
        await instance.stop()


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[DominoServer]:
    async with serving(make_config(tmp_path)) as instance:
        yield instance


@pytest.fixture
def url(server: DominoServer) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The cycle collector off for the test (what earlier tests left collected first): only
    reference counting frees, as for what the long-running processes freeze
    (server/collector.py)."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()

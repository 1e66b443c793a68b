"""Fixtures: every store test runs on a real SQLite file and on the real PostgreSQL service.

PostgreSQL tests fail (never skip) when the server is unreachable. Each test gets its own
PostgreSQL schema (selected through search_path in the URL), so runs cannot collide.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from storage import EventStore
from tests.pg import fresh_schema

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]


@pytest.fixture
def pg_url() -> Iterator[str]:
    with fresh_schema("storage_test") as url:
        yield url


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store URL for each backend: a SQLite file in tmp_path, or a PostgreSQL schema."""
    if request.param == "sqlite":
        return str(tmp_path / "events.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def store(url: str) -> Iterator[EventStore]:
    with EventStore(url) as opened:
        yield opened


def events(n: int, kind: str = "tick", **extra: object) -> list[dict[str, object]]:
    return [{"type": kind, "n": i, **extra} for i in range(n)]

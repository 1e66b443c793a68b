"""Fixtures: every store test runs on a real SQLite file and on the real PostgreSQL service.

PostgreSQL tests fail (never skip) when the server is unreachable. Each test gets its own
PostgreSQL schema (selected through search_path in the URL), so runs cannot collide.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from storage import EventStore

PG_URL = os.environ.get("DOMINO_ORACLE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]


def _pg_admin() -> psycopg.Connection:
    try:
        return psycopg.connect(PG_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        pytest.fail(f"PostgreSQL at {PG_URL} is required for these tests: {error}")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema, dropped afterwards."""
    schema = f"storage_test_{uuid.uuid4().hex[:12]}"
    with _pg_admin() as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with _pg_admin() as admin:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


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

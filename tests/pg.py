"""The real PostgreSQL service for tests: a fresh schema per test, failing (never skipping)
when the server is unreachable."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest

PG_URL = os.environ.get("DOMINO_ORACLE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _pg_admin() -> psycopg.Connection:
    try:
        return psycopg.connect(PG_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        pytest.fail(f"PostgreSQL at {PG_URL} is required for these tests: {error}")


@contextmanager
def fresh_schema(prefix: str) -> Iterator[str]:
    """A URL whose search_path is a new schema (so runs cannot collide), dropped afterwards."""
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with _pg_admin() as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with _pg_admin() as admin:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')

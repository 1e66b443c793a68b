"""Fixtures for the deployment tests: the real PostgreSQL and Mosquitto services.

They fail (never skip) when a service is missing. Each test gets a fresh PostgreSQL schema
(search_path in the URL, dropped afterwards) and a unique MQTT topic prefix, so concurrent
runs on one broker and one database cannot cross.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator

import psycopg
import pytest

PG_URL = os.environ.get("DOMINO_ORACLE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
MQTT_URL = os.environ.get("DOMINO_ORACLE_TEST_MQTT", "mqtt://127.0.0.1:1883")


def _pg_admin() -> psycopg.Connection:
    try:
        return psycopg.connect(PG_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        pytest.fail(f"PostgreSQL at {PG_URL} is required for these tests: {error}")


@pytest.fixture
def pg_url() -> Iterator[str]:
    schema = f"deploy_test_{uuid.uuid4().hex[:12]}"
    with _pg_admin() as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with _pg_admin() as admin:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def mqtt_url() -> str:
    from server.topics import parse_mqtt_url

    host, port = parse_mqtt_url(MQTT_URL)
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as error:
        pytest.fail(f"Mosquitto at {MQTT_URL} is required for these tests: {error}")
    return MQTT_URL


@pytest.fixture
def prefix() -> str:
    return f"test/{uuid.uuid4().hex[:12]}"

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

import pytest

from tests.pg import fresh_schema

MQTT_URL = os.environ.get("DOMINO_ORACLE_TEST_MQTT", "mqtt://127.0.0.1:1883")


@pytest.fixture
def pg_url() -> Iterator[str]:
    with fresh_schema("deploy_test") as url:
        yield url


@pytest.fixture
def mqtt_url() -> str:
    from server.feeds.topics import parse_mqtt_url

    host, port = parse_mqtt_url(MQTT_URL)
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as error:
        pytest.fail(f"Mosquitto at {MQTT_URL} is required for these tests: {error}")
    return MQTT_URL


@pytest.fixture
def prefix() -> str:
    return f"test/{uuid.uuid4().hex[:12]}"

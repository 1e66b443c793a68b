"""Small helpers shared by the server tests."""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from typing import Any

from clients.python import DominoClient
from protocol import EventMessage, ServerMessage


async def collect_until(
    client: DominoClient, done: Callable[[ServerMessage], bool], timeout: float = 10
) -> list[ServerMessage]:
    """Messages from the feed up to and including the first one `done` accepts."""
    out: list[ServerMessage] = []
    deadline = time.monotonic() + timeout
    while True:
        message = await client.next_message(max(0.01, deadline - time.monotonic()))
        out.append(message)
        if done(message):
            return out


async def drain(client: DominoClient, quiet: float = 0.2) -> list[ServerMessage]:
    """Everything that arrives until the feed stays quiet for `quiet` seconds."""
    out: list[ServerMessage] = []
    while True:
        try:
            out.append(await client.next_message(quiet))
        except TimeoutError:
            return out


def events_of(messages: list[ServerMessage]) -> list[EventMessage]:
    return [m for m in messages if isinstance(m, EventMessage)]


async def wait_for(condition: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        await asyncio.sleep(0.01)


def freed(ref: weakref.ref[Any]) -> bool:
    """Whether the object `ref` names is gone (for wait_for with functools.partial)."""
    return ref() is None

"""One chat room per table, whatever the order connections enter and leave in; a room is
kept only while someone listens. The desk over a real SQLite store, members as the
sessions make them; the interleavings are the event loop's own, set by awaiting."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from protocol import Chat
from server.chat import ChatDesk, ChatMember
from storage import AsyncEventStore, EventStore


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[ChatDesk]:
    store = EventStore(tmp_path / "chat.sqlite3")
    try:
        yield ChatDesk(AsyncEventStore(store))
    finally:
        store.close()


def _member(desk: ChatDesk, frames: list[str]) -> ChatMember:
    return ChatMember(desk, "10.0.0.1", frames.append)


async def test_a_room_dropped_while_a_seat_enters_is_not_split_in_two(desk: ChatDesk) -> None:
    """The spectator leaves (the room's last listener: it is dropped) while South enters,
    its name being read from the store. Before, South listened at the dropped room and a
    spectator coming next loaded another: neither heard the other."""
    heard: dict[str, list[str]] = {"spectator": [], "south": [], "late": []}
    spectator, south, late = (_member(desk, heard[name]) for name in heard)
    await spectator.enter("t1", "spectator")
    entering = asyncio.create_task(south.enter("t1", "S"))
    await asyncio.sleep(0)  # South waits for its name, read in a thread
    spectator.leave("t1")
    await entering
    await late.enter("t1", "spectator")
    assert desk.rooms["t1"] is south.tables["t1"].room is late.tables["t1"].room
    await late.say(Chat(table_id="t1", text="hello", id=1))
    assert any("hello" in frame for frame in heard["south"])


async def test_a_room_loaded_for_an_entry_left_half_way_is_not_kept(desk: ChatDesk) -> None:
    """South leaves while its room is being read: before, the room stayed with nobody
    listening, for as long as the server ran."""
    south = _member(desk, [])
    entering = asyncio.create_task(south.enter("t2", "S"))
    await asyncio.sleep(0)  # the room's lines are being read, in a thread
    south.leave("t2")
    await entering
    assert "t2" not in desk.rooms and "t2" not in south.tables

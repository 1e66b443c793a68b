"""Table chat over real loopback WebSockets: a seat and a spectator talk; lines are cleaned
and limited (length, a rate per connection and per address); they are stored in the table's
own chat stream, never in the match's chain of moves (which, and `verify`, stay as they
were); a connection attaching is sent the latest lines, after a restart too; a stored
match's lines are read over HTTP."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from archive.chat import read_chat
from archive.streams import chat_stream
from clients.cli import main as cli
from clients.python import DominoClient, ServerError
from protocol import MAX_CHAT_CHARS, ChatHistory, ChatMessage, EventMessage, ServerMessage
from server.app import DominoServer
from server.chat import ChatLimits
from storage import EventStore
from tests.conftest import make_config, serving
from tests.server.helpers import collect_until, drain

BOTS4 = {"S": "greedy", "W": "greedy", "N": "greedy", "E": "greedy"}


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def _get_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return error.code


def _url(server: DominoServer) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


def _chat(messages: list[ServerMessage]) -> list[ChatMessage]:
    return [m for m in messages if isinstance(m, ChatMessage)]


async def _history(client: DominoClient) -> ChatHistory:
    got = await collect_until(client, lambda m: isinstance(m, ChatHistory))
    last = got[-1]
    assert isinstance(last, ChatHistory)
    return last


async def test_a_seat_and_a_spectator_talk(server: DominoServer) -> None:
    """Every line reaches everyone at the table, named by the seat's display name or as
    "Spectator k"; the speaker's copy is the reply (its id), the others' have none; a
    connection not at the table may not speak there."""
    url = _url(server)
    async with (await DominoClient.connect(url) as host, await DominoClient.connect(url) as fan,
                await DominoClient.connect(url) as stranger):
        table_id = await host.create_table()  # four open seats: no match starts
        await host.join(table_id, "S", name="alice")
        await fan.watch(table_id)
        # nothing said yet: no history is sent (a client that knows no chat sees no change)
        assert not any(isinstance(m, ChatHistory) for m in await drain(fan, quiet=0.3))

        said = await host.chat(table_id, "hello <b>there</b>")
        assert said.id is not None and said.line.seat == "S" and said.line.name == "alice"
        assert said.line.text == "hello <b>there</b>"  # plain text: clients draw it as text
        heard = _chat(await collect_until(fan, lambda m: isinstance(m, ChatMessage)))
        assert heard[0].id is None and heard[0].line == said.line

        reply = await fan.chat(table_id, "gl hf")
        assert reply.line.seat is None and reply.line.name == "Spectator 1"
        heard = _chat(await collect_until(host, lambda m: isinstance(m, ChatMessage)))
        assert heard[0].line == reply.line and heard[0].line.seq == said.line.seq + 1

        with pytest.raises(ServerError) as refused:
            await stranger.chat(table_id, "let me in")
        assert refused.value.code == "unauthorized"
        assert _chat(await drain(host, quiet=0.3)) == []  # nothing of it reached the table


async def test_lines_are_cleaned_and_limited_in_length(server: DominoServer) -> None:
    """Control and formatting characters (an escape sequence, a bidi override, a NUL) are
    removed and whitespace folded; a line of only those is refused (`bad_request`); past
    MAX_CHAT_CHARS characters `too_large`, at it accepted."""
    async with await DominoClient.connect(_url(server)) as client:
        table_id = await client.create_table()
        await client.watch(table_id)
        said = await client.chat(table_id, "\x1b[31mred\u202e  evil\x00\n\tline\u200b")
        assert said.line.text == "[31mred evil line"
        script = "<script>alert('x')</script>"
        assert (await client.chat(table_id, script)).line.text == script
        for bad, code in (("\x00\x07\u202e\u200b \n", "bad_request"),
                          ("x" * (MAX_CHAT_CHARS + 1), "too_large")):
            with pytest.raises(ServerError) as refused:
                await client.chat(table_id, bad)
            assert refused.value.code == code, refused.value
        full = await client.chat(table_id, "y" * MAX_CHAT_CHARS)
        assert len(full.line.text) == MAX_CHAT_CHARS


async def _say_until_refused(client: DominoClient, table_id: str, most: int) -> tuple[int, str]:
    """Lines said before the first refusal, and the refusal's code and message."""
    for said in range(most):
        try:
            await client.chat(table_id, f"line {said}")
        except ServerError as error:
            return said, f"{error.code}: {error.message}"
    return most, ""


async def test_rate_limits_per_connection_and_per_address(tmp_path: Path) -> None:
    """A connection's burst, then `rate_limited`; a second connection from the same address
    has its own bucket but shares the address's, which runs out first. The buckets barely
    refill (1 line per 1000 s), so the counts do not depend on the machine's speed."""
    limits = ChatLimits(per_connection_rate=0.001, per_connection_burst=3,
                        per_address_rate=0.001, per_address_burst=5)
    async with serving(make_config(tmp_path, chat=limits)) as server:
        url = _url(server)
        async with (await DominoClient.connect(url) as first,
                    await DominoClient.connect(url) as second):
            table_id = await first.create_table()
            for client in (first, second):
                await client.watch(table_id)
            said, refusal = await _say_until_refused(first, table_id, 10)
            print(f"first connection: {said} lines, then {refusal!r}")
            assert said == 3 and refusal.startswith("rate_limited") and "connection" in refusal
            said, refusal = await _say_until_refused(second, table_id, 10)
            print(f"second connection: {said} lines, then {refusal!r}")
            assert said == 2 and refusal.startswith("rate_limited") and "address" in refusal
            stored = await server.store.last_seq(chat_stream(table_id))  # type: ignore[union-attr]
            assert stored == 5


async def _finished_match_with_chat(url: str) -> tuple[str, list[str]]:
    """A one-hand match of four bots, watched and talked over by a spectator to its end."""
    async with await DominoClient.connect(url) as fan:
        table_id = await fan.create_table(bots=BOTS4, target=1)
        await fan.watch(table_id)
        texts = [f"line {i}" for i in range(5)]
        for text in texts:
            await fan.chat(table_id, text)

        def ended(message: Any) -> bool:
            return isinstance(message, EventMessage) and message.event["type"] == "match_ended"

        await collect_until(fan, ended, timeout=120)
        return table_id, texts


async def test_stored_beside_the_match_and_sent_to_a_joiner(tmp_path: Path) -> None:
    """The lines are in `chat:<table>` (its own valid chain), not one in the match's
    stream; the match verifies as before (`verify`); a spectator attaching later, and after
    a restart, is sent the latest `history` lines."""
    config = make_config(tmp_path, chat=ChatLimits(history=3))
    async with serving(config) as server:
        url = _url(server)
        table_id, texts = await _finished_match_with_chat(url)
        async with await DominoClient.connect(url) as late:
            await late.watch(table_id)
            history = await _history(late)
            assert [line.text for line in history.lines] == texts[-3:]
            assert [line.seq for line in history.lines] == [3, 4, 5]
    async with serving(config) as server:  # a restart: the retired match, from the store
        later = await DominoClient.connect(_url(server))
        try:
            await later.watch(table_id)
            history = await _history(later)
            assert [line.text for line in history.lines] == texts[-3:]
            assert history.lines[0].name == "Spectator 1"
        finally:
            await later.close()
    with EventStore(config.db) as store:
        assert [line["text"] for line in read_chat(store, table_id)] == texts
        assert store.verify_chain(chat_stream(table_id)).ok
        match = store.read(table_id)
        assert match[-1].type == "match_ended"
        assert not any(e.type.startswith("chat") or "line 0" in str(e.payload) for e in match)
        assert store.verify_chain(table_id).ok
        print(f"match: {len(match)} events; chat: {len(texts)} lines in its own stream")
    async with serving(config) as server:  # the stored chat over HTTP, as a replay reads it
        base = f"http://127.0.0.1:{server.port}/api/matches"
        body = await asyncio.to_thread(_get_json, f"{base}/{table_id}/chat")
        assert [line["text"] for line in body["lines"]] == texts
        assert await asyncio.to_thread(_get_status, f"{base}/nosuchmatch/chat") == 404
    assert cli(["verify", "--db", str(config.db)]) == 0  # chains, and every move re-decided

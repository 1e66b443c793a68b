"""Finding 8: names and command ids are what the protocol says, over a real socket.

A person may not pass for a bot (`bot:pimc`) nor hide control or bidi characters in a
name; an id is a string of 1-64 characters or an integer 0..2^53, and `true` is not `1`.
And the cause of the flaky browser test: a table that exists has its match (or at least
the join that seated everyone has its `match_started`) stored before the reply.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest
from websockets.asyncio.client import connect

from server.app import DominoServer

BAD_NAMES = ["bot:pimc", "BOT:greedy", " bot:x", "ｂｏｔ:pimc", "nul\x00here", "abc\u202edcba",
             "zero\u200bwidth", "line\u2028break", "tab\there", "\u2066isolate"]


async def _reply(ws, payload: object) -> dict:
    await ws.send(payload if isinstance(payload, str) else json.dumps(payload))
    while True:
        message = json.loads(await ws.recv())
        if message["type"] not in ("event", "belief"):
            return message


async def test_names_that_pass_for_bots_or_hide_characters_are_refused(
        server: DominoServer, url: str) -> None:
    async with connect(url) as ws:
        created = await _reply(ws, {"type": "create_table", "id": 1, "bots": {"W": "greedy"}})
        table_id = created["table_id"]
        for n, name in enumerate(BAD_NAMES):
            reply = await _reply(ws, {"type": "join", "id": f"j{n}", "table_id": table_id,
                                      "seat": "S", "name": name})
            assert reply["type"] == "error" and reply["code"] == "bad_request", (name, reply)
            assert reply["id"] == f"j{n}"
        listing = await _reply(ws, {"type": "list_tables", "id": 2})
        seats = {t["table_id"]: t["seats"] for t in listing["tables"]}[table_id]
        assert seats["S"] is None  # nothing was claimed by the refused names
        ok = await _reply(ws, {"type": "join", "id": 3, "table_id": table_id, "seat": "S",
                               "name": "Zoë ♦ bot"})
        assert ok["type"] == "joined"


@pytest.mark.parametrize("bad_id", [True, False, 2**53 + 1, int("9" * 400), -1, 1.5, "",
                                    "x" * 65, [], {}],
                         ids=["true", "false", "2^53+1", "400-digits", "negative", "float",
                              "empty", "65-chars", "list", "object"])
async def test_ids_are_strings_or_safe_integers_never_booleans(
        server: DominoServer, url: str, bad_id: object) -> None:
    async with connect(url) as ws:
        reply = await _reply(ws, json.dumps({"type": "list_tables", "id": bad_id}))
        assert reply["type"] == "error" and reply["code"] == "bad_request", reply
        assert reply["id"] is None  # nothing of a refused id is echoed (true was echoed as 1)
        for good in (0, 2**53, "a", "x" * 64):
            reply = await _reply(ws, {"type": "list_tables", "id": good})
            assert reply["type"] == "tables" and reply["id"] == good


async def test_the_match_is_stored_before_the_join_that_seats_everyone_is_answered(
        server: DominoServer, url: str) -> None:
    """The cause of test_a_match_in_play_replays_only_for_spectators' 404s: `joined` came
    before the `match_started` its join queued was stored, so a replay asked for at once
    found no match. Ten tables in a row, each checked the moment `joined` arrives."""
    base = f"http://127.0.0.1:{server.port}"
    async with connect(url) as ws:
        for n in range(10):
            created = await _reply(ws, {"type": "create_table", "id": f"c{n}",
                                        "bots": {"W": "greedy", "N": "greedy", "E": "greedy"}})
            table_id = created["table_id"]
            joined = await _reply(ws, {"type": "join", "id": f"j{n}", "table_id": table_id,
                                       "seat": "S", "name": "tester"})
            assert joined["type"] == "joined"
            stored = server.store.store.read(table_id, limit=1)  # the moment it arrives
            assert [e.type for e in stored] == ["match_started"], n
            with pytest.raises(urllib.error.HTTPError) as refused:
                await asyncio.to_thread(
                    urllib.request.urlopen,
                    f"{base}/api/matches/{table_id}/replay?perspective=S", timeout=10)
            assert refused.value.code == 403

"""The server offers each seat its legal moves (issue 27), over the real server: real
WebSockets and HTTP on loopback, a real SQLite file.

- Every variant `list_variants` lists makes a table from the lobby's defaults (no options,
  the default bot in every other seat, advice on exactly where the game has an advisor); its
  first seat is offered its legal moves, they are the game's `legal_moves` at the referee's
  state sent through `command_to_wire`, the first one sent back verbatim as a `move` is
  acked, and the match replays over HTTP.
- Only the seat to act is offered moves, and only in its own feed: at tables with two people
  and a spectator (every game), each offer goes to a seat the referee's state has to act,
  equals the game's legal moves there, and no other seat's nor the spectator's frame carries
  one. People move only when offered, so a turn left without an offer stalls the test.
- A seat that resumes asking for its last event again has the offer again.
"""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from games.interface import Game
from server.app import DominoServer

DEADLINE = 60.0
DEFAULT_BOT = "greedy"


async def _request(ws: ClientConnection, message: dict[str, Any],
                   frames: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Send `message`; its reply (frames before it are kept in `frames`)."""
    await ws.send(json.dumps(message))
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if reply.get("id") == message["id"]:
            return reply
        if frames is not None:
            frames.append(reply)


async def _variants(url: str) -> list[dict[str, Any]]:
    async with connect(url) as ws:
        reply = await _request(ws, {"type": "list_variants", "id": "v"})
    assert reply["type"] == "variants", reply
    return reply["variants"]


def _offered(game: Game, state: Any, seat: str) -> list[dict[str, Any]]:
    """What the seat should be offered: the game's legal moves on the wire."""
    return [game.command_to_wire(c) for c in game.legal_moves(state, seat)]


def _state_at(server: DominoServer, table_id: str, seq: int) -> tuple[Game, Any]:
    """The referee's state after event `seq` of the table (folded from its log)."""
    assert server.registry is not None
    table = server.registry.tables[table_id]
    game = table.game.game
    state = None
    for event in table.log[:seq]:
        state = game.evolve(state, event)
    return game, state


def _get_json(address: str) -> Any:
    with urllib.request.urlopen(address, timeout=DEADLINE) as reply:
        return json.loads(reply.read())


def _default_bots(listing: dict[str, Any]) -> dict[str, str]:
    """The lobby's default form: me in the first seat, the default bot in the others."""
    bots = listing["bots"]
    bot = DEFAULT_BOT if DEFAULT_BOT in bots else bots[0]
    return {seat: bot for seat in listing["seats"][1:]}


async def test_every_variant_is_created_from_the_default_form(server: DominoServer,
                                                              url: str) -> None:
    listings = await _variants(url)
    assert {v["name"] for v in listings} >= {"partnership-6", "partnership-9", "block-2",
                                            "draw-2", "clue", "clue-mini", "texas-42",
                                            "uno-2", "uno-2-mini"}
    advice = {v["game"]: v["advice"] for v in listings}
    assert advice == {"dominoes": True, "texas42": True, "clue": True, "uno": True}
    for listing in listings:
        assert listing["bots"], listing["name"]
        async with connect(url) as ws:
            frames: list[dict[str, Any]] = []
            created = await _request(ws, {
                "type": "create_table", "id": "c", "variant": listing["name"],
                "bots": _default_bots(listing), "advice": listing["advice"]})
            assert created["type"] == "table_created", (listing["name"], created)
            table_id = created["table_id"]
            seat = listing["seats"][0]
            joined = await _request(ws, {"type": "join", "id": "j", "table_id": table_id,
                                         "seat": seat, "name": "ann"}, frames)
            assert joined["type"] == "joined" and joined["advice"] == listing["advice"]
            while not any(f.get("legal_moves") for f in frames):
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), DEADLINE)))
            offer = next(f for f in frames if f.get("legal_moves"))
            game, state = _state_at(server, table_id, offer["seq"])
            assert seat in game.to_act(state), listing["name"]
            assert offer["legal_moves"] == _offered(game, state, seat), listing["name"]
            move = offer["legal_moves"][0]
            ack = await _request(ws, {"type": "move", "id": "m", "table_id": table_id,
                                      "move": move}, frames)
            assert ack["type"] == "ack", (listing["name"], move, ack)
            assert ack["seq"] > offer["seq"]
        address = (f"http://127.0.0.1:{server.port}/api/matches/{table_id}/replay"
                   f"?perspective=spectator")
        replay = await asyncio.to_thread(_get_json, address)  # the server runs on this loop
        assert len(replay["events"]) >= ack["seq"], listing["name"]
        assert not any("legal_moves" in json.dumps(e) for e in replay["events"])


# Two people, the other seats bots, and a spectator: every game, a seat acting out of turn
# order included (Clue's refutation: the seat asked may be a person while another holds the
# turn).
TWO_PEOPLE = [
    ("partnership-6", ("S", "N"), {"W": "greedy", "E": "greedy"}),
    ("draw-2", ("S", "N"), {}),
    ("clue", ("P1", "P2"), {"P3": "random", "P4": "random"}),
    ("texas-42", ("S", "W"), {"N": "greedy", "E": "greedy"}),
    ("uno-2-mini", ("S", "N"), {}),
]


async def _person(ws: ClientConnection, table_id: str, seat: str, moves: int,
                  rng: random.Random, frames: list[dict[str, Any]]) -> None:
    """Make `moves` moves, each one the server offered (or stop at the match's end)."""
    made = 0
    while made < moves:
        frame = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        frames.append(frame)
        if frame.get("type") == "event" and frame["event"]["type"] == "match_ended":
            return
        if frame.get("type") == "error":
            raise AssertionError(f"{seat} refused: {frame}")
        if frame.get("legal_moves"):
            made += 1
            await ws.send(json.dumps({"type": "move", "id": f"{seat}{made}",
                                      "table_id": table_id,
                                      "move": rng.choice(frame["legal_moves"])}))


async def _watch(ws: ClientConnection, frames: list[dict[str, Any]]) -> None:
    """Keep what the spectator receives (until cancelled)."""
    while True:
        frames.append(json.loads(await ws.recv()))


@pytest.mark.parametrize(("variant", "people", "bots"), TWO_PEOPLE,
                         ids=[v for v, _, _ in TWO_PEOPLE])
async def test_only_the_seat_to_act_is_offered_moves(server: DominoServer, url: str,
                                                     variant: str, people: tuple[str, str],
                                                     bots: dict[str, str]) -> None:
    rng = random.Random(variant)
    for _ in range(6):  # a deal where one person goes out before the other's first turn
        # (Uno's skips and reverses give one seat turn after turn): another table
        async with connect(url) as first, connect(url) as second, connect(url) as watcher:
            created = await _request(first, {"type": "create_table", "id": "c",
                                             "variant": variant, "bots": bots})
            table_id = created["table_id"]
            frames: dict[str, list[dict[str, Any]]] = {seat: [] for seat in (*people, "spectator")}
            watching = await _request(watcher, {"type": "watch", "id": "w", "table_id": table_id},
                                      frames["spectator"])
            assert watching["type"] == "watching"
            for ws, seat in zip((first, second), people, strict=True):
                joined = await _request(ws, {"type": "join", "id": "j", "table_id": table_id,
                                             "seat": seat}, frames[seat])
                assert joined["type"] == "joined", joined
            spectator = asyncio.create_task(_watch(watcher, frames["spectator"]))
            persons = [asyncio.create_task(_person(ws, table_id, seat, 8, rng, frames[seat]))
                       for ws, seat in zip((first, second), people, strict=True)]
            # until one of them has made its moves (or seen the end): the other may be waiting
            # for a turn that comes only after a move of the first
            done, waiting = await asyncio.wait(persons, return_when=asyncio.FIRST_COMPLETED)
            for task in (*waiting, spectator):
                task.cancel()
            for task in done:
                task.result()  # a stall (TimeoutError) or a refusal fails here

        offers = {seat: 0 for seat in people}
        for audience, received in frames.items():
            for frame in received:
                if "legal_moves" not in frame:
                    continue
                assert audience != "spectator", frame
                game, state = _state_at(server, table_id, frame["seq"])
                assert game.to_act(state) and audience in game.to_act(state), (audience, frame)
                assert frame["legal_moves"] == _offered(game, state, audience)
                offers[audience] += 1
        if all(offers.values()):
            break
    # each person moved only when offered, so every turn of theirs came with its offer
    assert all(offers.values()), offers


async def test_a_resume_asking_for_the_last_event_again_is_offered_the_moves(
        server: DominoServer, url: str) -> None:
    async with connect(url) as ws:
        created = await _request(ws, {"type": "create_table", "id": "c",
                                      "variant": "uno-2-mini", "bots": {"N": "greedy"}})
        table_id = created["table_id"]
        frames: list[dict[str, Any]] = []
        joined = await _request(ws, {"type": "join", "id": "j", "table_id": table_id,
                                     "seat": "S"}, frames)
        while not any(f.get("legal_moves") for f in frames):
            frames.append(json.loads(await asyncio.wait_for(ws.recv(), DEADLINE)))
        offer = next(f for f in frames if f.get("legal_moves"))
    token = joined["token"]
    async with connect(url) as ws:  # nothing missed: no event, so no offer (a belief only)
        resumed = await _request(ws, {"type": "resume", "id": "r", "table_id": table_id,
                                      "token": token, "after_seq": offer["seq"]})
        assert resumed["last_seq"] == offer["seq"]
        got = []
        with pytest.raises(TimeoutError):
            while True:
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 0.5)))
        assert got and not [f for f in got if f["type"] == "event" or "legal_moves" in f]
    async with connect(url) as ws:  # the last event again: with the offer
        resumed = await _request(ws, {"type": "resume", "id": "r", "table_id": table_id,
                                      "token": token, "after_seq": offer["seq"] - 1})
        assert resumed["after_seq"] == offer["seq"] - 1
        again = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        assert again["type"] == "event" and again["seq"] == offer["seq"]
        assert again["legal_moves"] == offer["legal_moves"]

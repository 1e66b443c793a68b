"""Leak audit: over many random matches, no seat or spectator is told anything it may not know.

Every message is checked against the store: an event a seat receives must equal the
referee's event as `domino.audience.view` shows it to that seat, and a belief must equal the
belief recomputed from that audience's redacted events alone (so its marginals cannot
encode a hidden tile). Hands of others stay hidden until hand_ended shows them to everyone.
"""

from __future__ import annotations

import asyncio
import random

from clients.python import DominoClient, SeatView, play_until_finished
from domino.audience import view
from domino.events import parse_event
from inference import Belief
from server.app import DominoServer
from server.inference_worker import belief_frame
from server.protocol import BeliefMessage, EventMessage, ServerMessage, parse_server
from tests.server.helpers import collect_until

MATCHES = 20
SEATS = ("S", "W", "N", "E")


async def _one_match(url: str, rng: random.Random) -> tuple[str, dict[str, list[ServerMessage]]]:
    clients = {seat: await DominoClient.connect(url) for seat in SEATS}
    watcher = await DominoClient.connect(url)
    table_id = await clients["S"].create_table(target=rng.choice([10, 25]),
                                               variant=rng.choice(["partnership-6",
                                                                   "partnership-9"]))
    await watcher.watch(table_id)
    received: dict[str, list[ServerMessage]] = {a: [] for a in (*SEATS, "spectator")}
    for seat, client in clients.items():
        await client.join(table_id, seat)
    await asyncio.gather(*(
        play_until_finished(client, table_id, SeatView(seat), random.Random(rng.random()),
                            on_message=received[seat].append)
        for seat, client in clients.items()
    ))
    received["spectator"] = await collect_until(
        watcher, lambda m: isinstance(m, EventMessage) and m.event["type"] == "match_ended"
    )
    for client in [*clients.values(), watcher]:
        await client.close()
    return table_id, received


def _audit(table_id: str, referee: list, audience: str, messages: list[ServerMessage]) -> int:
    seen = [view(e, audience) for e in referee]  # what this audience may know, in order
    belief = Belief(audience)
    folded = 0
    checked = 0
    for message in messages:
        if isinstance(message, EventMessage):
            assert message.table_id == table_id
            assert parse_event(message.event) == seen[message.seq - 1], (audience, message.seq)
            event = seen[message.seq - 1]
            if event.type == "hand_dealt" and event.seat != audience:
                assert message.event["tiles"] is None
            if event.type == "hand_started":
                assert message.event["seed"] is None
        elif isinstance(message, BeliefMessage):
            assert message.observer == audience
            while folded < message.seq:
                belief.apply(seen[folded])
                folded += 1
            expected = parse_server(belief_frame(table_id, belief.snapshot().to_json_dict()))
            assert message == expected, (audience, message.seq)
            checked += 1
    return checked


async def test_no_message_reveals_a_hidden_tile(server: DominoServer, url: str) -> None:
    rng = random.Random(20240611)
    results = await asyncio.gather(*(_one_match(url, random.Random(rng.random()))
                                     for _ in range(MATCHES)))
    assert server.store is not None
    beliefs = 0
    for table_id, received in results:
        referee = [parse_event(e.payload) for e in server.store.store.read(table_id)]
        assert referee[-1].type == "match_ended"
        for audience, messages in received.items():
            beliefs += _audit(table_id, referee, audience, messages)
            events = [m for m in messages if isinstance(m, EventMessage)]
            assert [m.seq for m in events] == list(range(1, len(referee) + 1))
    assert beliefs > MATCHES * 5 * 10

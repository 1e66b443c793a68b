"""A whole match between four clients over real sockets, and a spectator watching it."""

from __future__ import annotations

import asyncio
import random

from clients.python import DominoClient, SeatView, play_until_finished
from games.dominoes.events import parse_event
from games.dominoes.validate import check_log
from protocol import BeliefMessage, EventMessage, ServerMessage
from server.app import DominoServer
from storage import EventStore

SEATS = ("S", "W", "N", "E")


async def test_four_clients_play_a_match_a_spectator_watches(
    server: DominoServer, url: str
) -> None:
    clients = [await DominoClient.connect(url) for _ in SEATS]
    table_id = await clients[0].create_table(target=30)
    watcher = await DominoClient.connect(url)
    await watcher.watch(table_id)
    received: dict[str, list[ServerMessage]] = {s: [] for s in SEATS}
    views = {}
    for seat, client in zip(SEATS, clients, strict=True):
        joined = await client.join(table_id, seat, name=f"p{seat}")
        assert len(joined.token) >= 22
        views[seat] = SeatView(seat)

    results = await asyncio.gather(
        *(
            play_until_finished(
                client, table_id, views[seat], random.Random(i),
                on_message=received[seat].append,
            )
            for i, (seat, client) in enumerate(zip(SEATS, clients, strict=True))
        )
    )
    assert sum(results) > 0
    assert all(view.finished for view in views.values())

    # the spectator saw every seq once, in order, with every hand hidden until hand_ended
    spectator: list[EventMessage] = []
    while True:
        message = await watcher.next_message(timeout=5)
        if isinstance(message, EventMessage):
            spectator.append(message)
            if message.event["type"] == "match_ended":
                break
    assert [m.seq for m in spectator] == list(range(1, len(spectator) + 1))
    assert all(m.event.get("tiles") is None for m in spectator if m.event["type"] == "hand_dealt")

    # every seat got its beliefs, each tagged with a seq it had already seen
    for seat in SEATS:
        beliefs = [m for m in received[seat] if isinstance(m, BeliefMessage)]
        assert beliefs and all(b.observer == seat for b in beliefs)
        seqs = [b.seq for b in beliefs]
        assert seqs == sorted(seqs)

    for client in [*clients, watcher]:
        await client.close()

    # the stored log is a valid referee's log with an intact chain
    assert server.store is not None
    store: EventStore = server.store.store
    events = [parse_event(e.payload) for e in store.read(table_id)]
    check_log(events)
    assert store.verify_chain(table_id).ok
    assert events[-1].type == "match_ended"
    assert len(events) == len(views["S"].events)

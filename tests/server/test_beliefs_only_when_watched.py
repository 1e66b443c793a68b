"""One process (issue 15): no belief is computed for an audience nobody watches — a bot's
seat, the public at a table nobody spectates — yet whoever starts watching gets the belief
at the head at once. Nor is one folded (issue 31): the events wait until someone watches.
Real server, real WebSockets, real SQLite file."""

from __future__ import annotations

import asyncio

from clients.python import DominoClient
from protocol import BeliefMessage, EventMessage
from server.app import DominoServer
from tests.players import check_beliefs, until_my_turn_with_a_belief


async def test_a_bots_seat_and_an_unwatched_public_cost_no_belief(
    server: DominoServer, url: str
) -> None:
    south = await DominoClient.connect(url)
    try:
        table_id = await south.create_table(target=100, bots=dict.fromkeys("WNE", "random"))
        await south.join(table_id, "S")
        view, beliefs = await until_my_turn_with_a_belief(south, "S")  # South's first turn
        head = view.last_seq
        assert head > 1
        table = server.registry.tables[table_id]  # type: ignore[union-attr]
        events = list(table.log)
        check_beliefs(table_id, events, "S", beliefs)
        # every belief published went to South: none for the bots' seats or the public
        assert server.metrics.beliefs == len(beliefs)
        for audience in ("W", "N", "E", "spectator"):
            worker = table.workers[audience]
            assert worker.stale, audience  # never snapshotted
            # nor folded (issue 31): its events wait, in order, for a listener
            assert [e.seq for e in worker.pending] == list(range(1, head + 1)), audience

        spectator = await DominoClient.connect(url)
        try:
            await spectator.watch(table_id)
            last = 0
            async with asyncio.timeout(60):
                while True:
                    message = await spectator.next_message(60)
                    if isinstance(message, EventMessage):
                        last = message.seq
                    elif isinstance(message, BeliefMessage):
                        break
            assert (last, message.seq) == (head, head)  # the head's, not an older one
            check_beliefs(table_id, events, "spectator", [message])
            assert server.metrics.beliefs == len(beliefs) + 1
        finally:
            await spectator.close()
    finally:
        await south.close()

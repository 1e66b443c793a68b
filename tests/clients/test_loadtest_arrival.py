"""The load test times a belief when it arrives, not when the seat's loop next reads its
feed (issue 15: a seat awaiting its own move's ack read the beliefs that came meanwhile only
after the ack, so the deployment's beliefs, ~30 ms behind the commit, were recorded up to an
ack time late). Beliefs stop at the tracker (issue 31: the seat's loop never used them, and
each was one more wake-up of it); events still reach the feed. A real server on loopback;
nobody reads the seat's feed here."""

from __future__ import annotations

import asyncio

from clients.python.lean_client import LeanBelief, LeanClient, LeanEvent
from clients.python.loadtest import BeliefTracker, Figures, time_beliefs_on_arrival
from protocol import BeliefMessage

SEATS = ("S", "W", "N", "E")


async def test_beliefs_are_timed_while_nobody_reads_the_feed(url: str) -> None:
    client = await LeanClient.connect(url)
    try:
        table_id = await client.create_table(target=30, bots=dict.fromkeys("WNE", "random"))
        tracker = BeliefTracker(Figures(), SEATS)
        time_beliefs_on_arrival(client, table_id, tracker, "S")
        await client.join(table_id, "S", name="load-S")
        async with asyncio.timeout(30):
            while tracker.latest["S"] == 0:  # the feed is never read meanwhile
                await asyncio.sleep(0.01)
        kinds: list[type] = []
        while not client.feed.empty():
            kinds.append(type(client.feed.get_nowait()))
        assert LeanEvent in kinds, kinds  # the events are in the feed, the beliefs are not
        assert LeanBelief not in kinds and BeliefMessage not in kinds, kinds
    finally:
        await client.close()

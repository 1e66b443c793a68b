"""The load test times a belief when it arrives, not when a seat's loop next reads it (issue
15: a seat awaiting its own move's ack read the beliefs that came meanwhile only after the
ack, so the deployment's beliefs, ~30 ms behind the commit, were recorded up to an ack time
late). Since issue 31 there is no seat loop nor feed: the connection hands each belief to the
tracker, and each event to the seat, in the read that brought it
(clients/python/load_client.py). A real server on loopback; the seat is never started, so
nothing but the connection's reads can move the tracker."""

from __future__ import annotations

import asyncio
import random

from clients.python.load_client import LoadClient
from clients.python.load_seat import Seat
from clients.python.loadtest_tracking import BeliefTracker, Deadline, Figures

SEATS = ("S", "W", "N", "E")


async def test_beliefs_are_timed_in_the_read_that_brings_them(url: str) -> None:
    client = await LoadClient.connect(url)
    try:
        table_id = await client.create_table(target=30, bots=dict.fromkeys("WNE", "random"))
        tracker = BeliefTracker(Figures(), SEATS)
        seat = Seat(client, table_id, "S", tracker, Figures(), Deadline(float("inf")),
                    random.Random(0), None)
        client.seat = seat
        await client.join(table_id, "S", name="load-S")
        async with asyncio.timeout(30):
            while tracker.latest["S"] == 0 or not seat.events_read:
                await asyncio.sleep(0.01)
        assert not seat.started and seat.move_id is None  # it never played: only read
    finally:
        await client.close()

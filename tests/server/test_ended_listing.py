"""A table that stopped says when (`ended_at`), so the lobby's "Just finished" shows the
latest ones: the list is in table-id order, and with more than ten finished tables the
newest was often not among the ten shown (CI)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from clients.python import DominoClient
from server.app import DominoServer
from tests.conftest import make_config

BOTS = dict.fromkeys("SWNE", "greedy")


async def test_finished_tables_say_when_they_ended_in_the_order_they_ended(
        tmp_path: Path) -> None:
    server = DominoServer(make_config(tmp_path))
    await server.start()
    try:
        async with await DominoClient.connect(f"ws://127.0.0.1:{server.port}/ws") as client:
            ended: list[str] = []
            for _ in range(3):  # one after another: each ends before the next is made
                created = await client.create_table("partnership-6", bots=BOTS, target=1)
                ended.append(created)
                for _ in range(1200):  # a bound on a hang (0.05 s apart), not a timing
                    listed = {t.table_id: t for t in (await client.list_tables()).tables}
                    if listed[created].status == "finished":
                        break
                    await asyncio.sleep(0.05)
            playing = await client.create_table("partnership-6", bots=BOTS, target=500)
            listed = {t.table_id: t for t in (await client.list_tables()).tables}
        times = [listed[t].ended_at for t in ended]
        assert all(isinstance(t, float) for t in times), times
        assert times == sorted(times), times  # type: ignore[type-var]
        assert listed[playing].ended_at is None
    finally:
        await server.stop()

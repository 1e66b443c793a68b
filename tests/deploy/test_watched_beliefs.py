"""Issue 15, the deployment mode: beliefs only for audiences someone follows, the bus only
when another process follows, and nobody who starts following left behind the head.

One table on server s1, its belief worker a process, three bot seats and South a person on
s1. While South thinks, the table's head stands still: nothing but the watchers' arrival can
bring a spectator a belief, so each must get exactly the head's. Real Mosquitto and
PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from pathlib import Path

import pytest

from clients.python import DominoClient
from games.dominoes.events import parse_event
from protocol import BeliefMessage, EventMessage
from storage import EventStore
from tests.deploy.helpers import free_port, start_server, start_worker, stop
from tests.players import check_beliefs, until_my_turn_with_a_belief

pytestmark = [pytest.mark.mqtt, pytest.mark.postgres]


def health(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
        return json.loads(response.read())


async def first_belief(client: DominoClient, table_id: str, seconds: float = 60
                       ) -> tuple[int, BeliefMessage]:
    """Watch the table; (the last event's seq, the first belief) — nothing else moves."""
    await client.watch(table_id)
    last = 0
    async with asyncio.timeout(seconds):
        while True:
            message = await client.next_message(seconds)
            if isinstance(message, EventMessage):
                last = message.seq
            elif isinstance(message, BeliefMessage):
                return last, message


async def test_beliefs_for_watched_audiences_and_late_watchers_reach_the_head(
    tmp_path: Path, pg_url: str, mqtt_url: str, prefix: str
) -> None:
    port1, port2 = free_port(), free_port()
    log, worker_log = tmp_path / "servers.log", tmp_path / "worker.log"
    processes = [start_server(port1, pg_url, mqtt_url, prefix, "s1", log),
                 start_server(port2, pg_url, mqtt_url, prefix, "s2", log),
                 start_worker(pg_url, mqtt_url, prefix, worker_log)]
    clients: list[DominoClient] = []
    try:
        south = await DominoClient.connect(f"ws://127.0.0.1:{port1}/ws")
        clients.append(south)
        table_id = await south.create_table(target=100, bots=dict.fromkeys("WNE", "random"))
        await south.join(table_id, "S")
        view, beliefs = await until_my_turn_with_a_belief(south, "S")  # South's first turn
        head = view.last_seq
        with EventStore(pg_url) as store:
            events = [parse_event(e.payload) for e in store.read(table_id)]
        assert events[-1].seq == head
        check_beliefs(table_id, events, "S", beliefs)

        bus = health(port1)["cluster"]
        assert bus["bus_published"] == 0, bus  # one server: nothing went to the broker
        assert bus["bus_withheld"] >= 5 * head, bus

        # a spectator on the other server: its marker makes s1 publish, and ask the worker
        remote = await DominoClient.connect(f"ws://127.0.0.1:{port2}/ws")
        clients.append(remote)
        last, belief = await first_belief(remote, table_id)
        assert (last, belief.seq) == (head, head)
        check_beliefs(table_id, events, "spectator", [belief])
        assert health(port1)["cluster"]["bus_published"] > 0

        # and one on s1 itself
        local = await DominoClient.connect(f"ws://127.0.0.1:{port1}/ws")
        clients.append(local)
        last, belief = await first_belief(local, table_id)
        assert (last, belief.seq) == (head, head)
        check_beliefs(table_id, events, "spectator", [belief])
        for client in clients:
            await client.close()
        clients.clear()
    finally:
        for client in clients:
            await client.close()
        for process in processes:
            stop(process)
    stopped = re.search(r"event=worker_stopped .*? folds=(\d+) skipped=(\d+)",
                        worker_log.read_text())
    assert stopped, worker_log.read_text()[-2000:]
    folds, skipped = int(stopped.group(1)), int(stopped.group(2))
    assert folds >= 5 * head  # every audience folded, bots' seats and the public included
    assert skipped >= 3, (folds, skipped)  # but the bots' seats were never snapshotted
    reads = re.search(r"event=worker_stopped .*? reads=(\d+)", worker_log.read_text())
    assert reads and int(reads.group(1)) == 0, reads  # a re-ask for a seq it had folded
    # (a watcher arriving) is answered from memory: the notifications carried every event

"""SIGKILL the server mid-match, restart it, and let the same clients finish with their tokens.

Nothing acknowledged may be lost: every ack a client got names an event that is in the store
after the restart, and a command in flight at the kill, retried with its id, is applied once.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
from pathlib import Path

from clients.python import DominoClient, SeatView
from games.dominoes.events import Passed, TilePlayed, parse_event
from games.dominoes.validate import check_log
from storage import EventStore
from tests.players import Player, play, retry_inflight
from tests.processes import free_port, kill, stop
from tests.processes import start_server as start_process

MATCHES_TRIED = 5
"""Matches started until one is still in play after 25 moves (one blocked early can end a
match to 40 sooner: a wait for the 25th move then never ended)."""


def start_server(port: int, db: Path, log: Path) -> subprocess.Popen:
    return start_process(port, ["--db", str(db), "--bot-delay", "0", "--hand-pause", "0",
                                "--grace", "30"], log)


async def test_sigkill_mid_match_then_restart_and_finish(tmp_path: Path) -> None:
    port, db, log = free_port(), tmp_path / "kill.sqlite3", tmp_path / "server.log"
    process = start_server(port, db, log)
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        for attempt in range(MATCHES_TRIED):
            players = {seat: Player(seat, view=SeatView(seat)) for seat in "SWNE"}
            clients = {seat: await DominoClient.connect(url) for seat in "SWNE"}
            table_id = await clients["S"].create_table(target=40)
            for seat, client in clients.items():
                players[seat].token = (await client.join(table_id, seat)).token

            tasks = [asyncio.create_task(play(clients[s], table_id, players[s],
                                              random.Random(10 * attempt + i)))
                     for i, s in enumerate("SWNE")]
            while sum(len(p.acks) for p in players.values()) < 25 and \
                    not all(task.done() for task in tasks):
                await asyncio.sleep(0.005)
            if not all(task.done() for task in tasks):
                break
            # the deal ended the match (a hand blocked early) before 25 moves: another one
            for client in clients.values():
                await client.close()
        else:
            raise AssertionError(f"{MATCHES_TRIED} matches all ended within 25 moves")
        kill(process)  # mid-match, maybe mid-commit
        await asyncio.gather(*tasks)
        acked_before = {seq: move for p in players.values() for seq, move in p.acks.items()}
        assert all(not p.view.finished for p in players.values())

        process = start_server(port, db, log)
        clients = {seat: await DominoClient.connect(url) for seat in "SWNE"}
        for seat, client in clients.items():
            player = players[seat]
            await client.resume(table_id, player.token, after_seq=player.view.last_seq)
            await retry_inflight(client, table_id, player)  # what the kill interrupted
        await asyncio.gather(*(play(clients[s], table_id, players[s], random.Random(10 + i))
                               for i, s in enumerate("SWNE")))
        assert all(p.view.finished for p in players.values())
        for client in clients.values():
            await client.close()
    finally:
        stop(process)

    with EventStore(db) as store:
        events = [parse_event(e.payload) for e in store.read(table_id)]
        assert store.verify_chain(table_id).ok
    check_log(events)
    assert events[-1].type == "match_ended"
    by_seq = {e.seq: e for e in events}
    for seq, tile in acked_before.items():  # nothing acknowledged was lost
        event = by_seq[seq]
        assert isinstance(event, TilePlayed | Passed)
        assert (str(event.tile) if isinstance(event, TilePlayed) else "pass") == tile
    for player in players.values():  # every ack of the match names that seat's move
        for seq, tile in player.acks.items():
            event = by_seq[seq]
            assert event.seat == player.seat
            assert (str(event.tile) if isinstance(event, TilePlayed) else "pass") == tile
    assert [e.seq for e in players["S"].view.events] == [e.seq for e in events]

"""SIGKILL the server mid-match, restart it, and let the same clients finish with their tokens.

Nothing acknowledged may be lost: every ack a client got names an event that is in the store
after the restart, and a command in flight at the kill, retried with its id, is applied once.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from clients.python import DominoClient, SeatView, ServerError
from domino.events import Passed, TilePlayed, parse_event
from domino.validate import check_log
from server.protocol import EventMessage
from storage import EventStore

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int, db: Path, log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "clients.cli", "serve", "--port", str(port), "--db", str(db),
               "--bot-delay", "0", "--hand-pause", "0", "--grace", "30"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=log.open("a"))
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            return process
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("server did not start")


@dataclass
class Player:
    seat: str
    token: str = ""
    view: SeatView = field(default_factory=lambda: SeatView("?"))
    acks: dict[int, tuple[str, str | None]] = field(default_factory=dict)
    inflight: tuple[str, str | None, str | None] | None = None
    counter: int = 0


async def play(client: DominoClient, table_id: str, player: Player, rng: random.Random,
               stop: asyncio.Event | None = None) -> None:
    """Play until the match ends or the connection dies; remember every ack."""
    acted_at = -1
    view = player.view
    while not view.finished:
        if stop is not None and stop.is_set() and player.inflight is None:
            await asyncio.sleep(0.01)
        try:
            message = await client.next_message(timeout=0.5)
        except TimeoutError:
            if client.closed.is_set():
                return
            continue
        if isinstance(message, EventMessage):
            view.apply(message)
        if view.my_turn() and view.last_seq > acted_at and client.feed.empty():
            acted_at = view.last_seq
            move = view.random_move(rng)
            player.counter += 1
            command_id = f"{player.seat}-{player.counter}"
            tile = None if move is None else str(move.tile)
            end = None if move is None else move.end
            player.inflight = (command_id, tile, end)
            try:
                ack = await (client.pass_(table_id, id=command_id) if tile is None
                             else client.play(table_id, tile, end, id=command_id))
            except ServerError as error:
                assert error.code in ("not_your_turn", "illegal_move", "wrong_phase"), error
                player.inflight = None
                continue
            except (ConnectionError, OSError, TimeoutError):
                return  # killed mid-request: the command stays in flight
            player.acks[ack.seq] = (tile or "pass", end)
            player.inflight = None


async def test_sigkill_mid_match_then_restart_and_finish(tmp_path: Path) -> None:
    port, db, log = free_port(), tmp_path / "kill.sqlite3", tmp_path / "server.log"
    process = start_server(port, db, log)
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        players = {seat: Player(seat, view=SeatView(seat)) for seat in "SWNE"}
        clients = {seat: await DominoClient.connect(url) for seat in "SWNE"}
        table_id = await clients["S"].create_table(target=40)
        for seat, client in clients.items():
            players[seat].token = (await client.join(table_id, seat)).token

        tasks = [asyncio.create_task(play(clients[s], table_id, players[s], random.Random(i)))
                 for i, s in enumerate("SWNE")]
        while sum(len(p.acks) for p in players.values()) < 25:
            await asyncio.sleep(0.005)
        os.kill(process.pid, signal.SIGKILL)  # no goodbye: mid-match, maybe mid-commit
        process.wait()
        await asyncio.gather(*tasks)
        acked_before = {seq: move for p in players.values() for seq, move in p.acks.items()}
        assert all(not p.view.finished for p in players.values())

        process = start_server(port, db, log)
        clients = {seat: await DominoClient.connect(url) for seat in "SWNE"}
        for seat, client in clients.items():
            player = players[seat]
            await client.resume(table_id, player.token, after_seq=player.view.last_seq)
            if player.inflight is not None:  # retry what the kill interrupted, same id
                command_id, tile, end = player.inflight
                ack = await (client.pass_(table_id, id=command_id) if tile is None
                             else client.play(table_id, tile, end, id=command_id))
                player.acks[ack.seq] = (tile or "pass", end)
                player.inflight = None
        await asyncio.gather(*(play(clients[s], table_id, players[s], random.Random(10 + i))
                               for i, s in enumerate("SWNE")))
        assert all(p.view.finished for p in players.values())
        for client in clients.values():
            await client.close()
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()

    with EventStore(db) as store:
        events = [parse_event(e.payload) for e in store.read(table_id)]
        assert store.verify_chain(table_id).ok
    check_log(events)
    assert events[-1].type == "match_ended"
    by_seq = {e.seq: e for e in events}
    for seq, (tile, _end) in acked_before.items():  # nothing acknowledged was lost
        event = by_seq[seq]
        assert isinstance(event, TilePlayed | Passed)
        assert (event.tile if isinstance(event, TilePlayed) else "pass") == tile
    for player in players.values():  # every ack of the match names that seat's move
        for seq, (tile, _end) in player.acks.items():
            event = by_seq[seq]
            assert event.seat == player.seat
            assert (event.tile if isinstance(event, TilePlayed) else "pass") == tile
    assert [e.seq for e in players["S"].view.events] == [e.seq for e in events]

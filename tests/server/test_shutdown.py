"""SIGTERM or SIGINT mid-match: the `serve` process stops cleanly and promptly.

Operators stop the server with a signal (systemd, docker stop and Ctrl-C send SIGTERM or
SIGINT); what the clients were acknowledged before the stop must be in the store, the
store's hash chain must be whole, and the process must exit 0 by itself, not hang until a
supervisor SIGKILLs it (which would risk losing the writer's unflushed commits).
"""

from __future__ import annotations

import asyncio
import base64
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clients.python import DominoClient, SeatView
from clients.python.player import STALE_VIEW_CODES
from games.dominoes.audience import view
from games.dominoes.events import Passed, TilePlayed, parse_event
from games.dominoes.validate import check_log
from protocol import EventMessage
from storage import EventStore
from tests.players import Player, move_now
from tests.processes import free_port, start_server, stop

EXIT_WITHIN = 3.0
"""Seconds from the signal to the exit: the drain is a few commits (about 0.3 s here), not
a timeout (a bug once kept every connection open until a 5 s wait_closed timed out)."""


async def _play_until_closed(client: DominoClient, table_id: str, player: Player,
                             rng: random.Random, refusals: list[str]) -> None:
    """Random legal moves as fast as the server takes them, through the shutdown: a move
    may be acked, refused as `shutting_down`, or lost with the connection."""
    acted_at = -1
    while not (client.closed.is_set() and client.feed.empty()):
        try:
            message = await client.next_message(timeout=0.1)
        except TimeoutError:
            continue
        if isinstance(message, EventMessage):
            player.view.apply(message)
        if player.view.my_turn() and player.view.last_seq > acted_at and client.feed.empty():
            acted_at = player.view.last_seq
            try:
                refused = await move_now(client, table_id, player, rng)
            except (ConnectionError, OSError, TimeoutError):
                return
            if refused is not None:
                refusals.append(refused)


async def _wait_exit(process: subprocess.Popen, seconds: float) -> int | None:
    """Poll without blocking the loop: the clients must answer the server's close frames."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while process.poll() is None and loop.time() < deadline:
        await asyncio.sleep(0.02)
    return process.poll()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_mid_match_stops_the_server_cleanly(
    tmp_path: Path, sig: signal.Signals
) -> None:
    port, db, log = free_port(), tmp_path / "shutdown.sqlite3", tmp_path / "server.log"
    process = start_server(port, ["--db", str(db), "--bot-delay", "0", "--hand-pause", "0",
                                  "--grace", "30"], log)
    url = f"ws://127.0.0.1:{port}/ws"
    refusals: list[str] = []
    try:
        clients = {seat: await DominoClient.connect(url) for seat in "SWNE"}
        table_id = await clients["S"].create_table(target=200)  # far from over at the signal
        players = {seat: Player(seat, view=SeatView(seat)) for seat in "SWNE"}
        for seat, client in clients.items():
            players[seat].token = (await client.join(table_id, seat)).token
        tasks = [asyncio.create_task(
            _play_until_closed(clients[s], table_id, players[s], random.Random(i), refusals))
            for i, s in enumerate("SWNE")]
        while sum(len(p.acks) for p in players.values()) < 20:
            assert process.poll() is None, log.read_text()[-2000:]
            await asyncio.sleep(0.005)

        process.send_signal(sig)  # the players are still sending moves
        signalled = asyncio.get_running_loop().time()
        code = await _wait_exit(process, EXIT_WITHIN)
        took = asyncio.get_running_loop().time() - signalled
        assert code == 0, f"{sig.name}: exit {code} after {took:.1f} s\n{log.read_text()[-3000:]}"
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=5)  # closed by the server
        # the server said goodbye (1001 going away) rather than vanishing under them
        assert [client.ws.close_code for client in clients.values()] == [1001] * 4
    finally:
        stop(process)

    text = log.read_text()
    assert "stopping" in text and "stopped" in text and "Traceback" not in text, text[-3000:]
    # shutting_down, or a view one message behind (a hand just ended: the refusals a player
    # meets in any match, clients.python.player.STALE_VIEW_CODES); nothing else
    assert set(refusals) <= {"shutting_down"} | STALE_VIEW_CODES, refusals
    with EventStore(db) as store:
        assert store.verify_chain(table_id).ok
        events = [parse_event(e.payload) for e in store.read(table_id)]
    check_log(events)  # a legal prefix of a match
    assert events[-1].type != "match_ended"
    by_seq = {e.seq: e for e in events}
    acks = 0
    for player in players.values():  # every ack names a stored move of that seat
        for seq, tile in player.acks.items():
            event = by_seq.get(seq)
            assert isinstance(event, TilePlayed | Passed), (player.seat, seq, event)
            assert event.seat == player.seat
            assert (str(event.tile) if isinstance(event, TilePlayed) else "pass") == tile
            acks += 1
        # nothing was published that the store does not hold (SeatView checked contiguity)
        assert player.view.last_seq <= len(events)
        assert player.view.events == [view(e, player.seat) for e in events[:player.view.last_seq]]
    assert acks >= 20


def test_a_peer_that_never_answers_the_close_frame_does_not_hold_the_exit(
    tmp_path: Path,
) -> None:
    """A half-open connection (the client's network gone) must not keep the process alive
    after "stopped" for websockets' 10 s close_timeout: past docker stop's grace period."""
    port, log = free_port(), tmp_path / "server.log"
    process = start_server(port, ["--db", str(tmp_path / "silent.sqlite3")], log)
    try:
        with socket.create_connection(("127.0.0.1", port)) as silent:  # upgrades, then mute
            key = base64.b64encode(os.urandom(16)).decode()
            silent.sendall(f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n".encode())
            assert silent.recv(4096).startswith(b"HTTP/1.1 101")
            process.send_signal(signal.SIGTERM)
            start = time.monotonic()
            code = process.wait(timeout=9)  # below the 10 s close_timeout it must not wait
            took = time.monotonic() - start
    finally:
        stop(process)
    print(f"exit {took:.1f} s after SIGTERM (the server's close wait is 5 s)")
    assert code == 0, (code, took)
    assert "stopped" in log.read_text()


def test_stop_reports_a_process_that_ignores_sigterm() -> None:
    """The helper the other process tests stop servers with must not hide a hang behind its
    SIGKILL, nor lose the failure of the test whose `finally` it runs in."""
    code = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "print('ready', flush=True); time.sleep(60)")
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        with pytest.raises(AssertionError, match=r"did not exit within 0\.5 s") as raised:
            try:
                raise ValueError("the test's own failure")
            finally:
                stop(process, timeout=0.5)
        assert process.returncode == -signal.SIGKILL
        assert isinstance(raised.value.__context__, ValueError)
        assert not raised.value.__suppress_context__
    finally:
        process.kill()
        process.wait()
        process.stdout.close()  # type: ignore[union-attr]

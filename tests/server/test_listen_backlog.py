"""A server facing thousands of players queues connects its loop has not yet accepted.

While the loop is busy (here: not running at all, the test holds it), the kernel completes
TCP handshakes into the listen queue. asyncio's default queue is 100: a crowd arriving at
once (the paced load test seated 640 tables, 2,560 connections, in one burst) saw its
connects dropped and reset. The server asks for `listen_backlog` (1,024)."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.conftest import make_config, serving

CROWD = 300
"""Connects made while the loop cannot accept: more than asyncio's default queue."""


async def test_a_crowd_of_connects_waits_in_the_listen_queue(tmp_path: Path) -> None:
    async with serving(make_config(tmp_path)) as server:
        assert server.config.listen_backlog >= CROWD
        crowd: list[socket.socket] = []
        try:
            for _ in range(CROWD):  # no await in between: the loop accepts none of them
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=2.0)
                crowd.append(sock)
        finally:
            for sock in crowd:
                sock.close()
        assert len(crowd) == CROWD

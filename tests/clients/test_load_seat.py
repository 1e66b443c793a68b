"""The load generator's client (issue 31: clients/python/wire.py, load_client.py,
load_seat.py) against a real server over a loopback WebSocket: a table played to its end,
every move acked with the seq of the event that records it (the store's), and every acked
move's beliefs measured, none missing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from clients.python.load_seat import Seat, play_table
from clients.python.loadtest_tracking import Deadline, Figures
from games.registry import GAMES
from server.app import DominoServer


class OneMatch(Deadline):
    """Play stops once a match has ended: the table plays exactly one."""

    def __init__(self, figures: Figures) -> None:
        super().__init__(float("inf"))
        self.figures = figures

    def passed(self) -> bool:
        return self.figures.matches >= 1


async def test_a_table_plays_to_the_end_with_its_acks_and_beliefs(
        server: DominoServer, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    acked: list[int] = []
    replied = Seat.replied

    def spy(seat: Seat, reply: dict[str, Any]) -> None:
        if reply.get("type") == "ack":
            acked.append(reply["seq"])
        replied(seat, reply)

    monkeypatch.setattr(Seat, "replied", spy)
    figures = Figures()
    async with asyncio.timeout(120):
        await play_table(url, 1, figures, OneMatch(figures), seed=3, variant="partnership-6",
                         games=GAMES, target=15)
    assert figures.matches == 1
    assert figures.moves == len(figures.ack_ms) == len(acked) > 0
    assert figures.refused == 0
    assert len(figures.belief_ms) == figures.moves and figures.beliefs_missing == 0
    assert server.store is not None
    store = server.store.store
    (stream,) = [info.stream for info in store.streams() if ":" not in info.stream]
    events = store.read(stream)  # the table's own log (beside its commands' and seats')
    moves = [e.seq for e in events if e.type in ("tile_played", "passed")]
    assert sorted(acked) == moves

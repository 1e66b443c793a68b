"""The load test's belief latency counts every acknowledged move: the beliefs that arrive after
a match ended (or after time was up) are waited for, and the ones that never come are counted,
not dropped."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from clients.python.loadtest import (
    BeliefTracker,
    Figures,
    report,
    run_load,
    settle_beliefs,
)
from server.protocol import BeliefMessage, ServerMessage

SEATS = ("S", "W", "N", "E")


class ScriptedClient:
    """Stands in for a DominoClient's feed: these messages, then silence."""

    def __init__(self, messages: list[ServerMessage]) -> None:
        self.messages = list(messages)

    async def next_message(self, timeout: float = 10) -> ServerMessage:
        if self.messages:
            return self.messages.pop(0)
        await asyncio.sleep(timeout)
        raise TimeoutError


def belief(table_id: str, seat: str, seq: int) -> BeliefMessage:
    return BeliefMessage.model_construct(type="belief", table_id=table_id, seq=seq,
                                         observer=seat)


async def test_settling_measures_late_beliefs_and_counts_the_missing() -> None:
    figures = Figures()
    tracker = BeliefTracker(figures)
    sent = time.perf_counter()
    for seq in (10, 12, 15):
        tracker.acked(seq, sent)
    # every seat reaches 12 (one of them only with the match_ended belief, at 14);
    # N never gets to 15; a stale table's belief does not count
    feeds: dict[str, list[Any]] = {
        "S": [belief("t1", "S", 15)],
        "W": [belief("old", "W", 99), belief("t1", "W", 12), belief("t1", "W", 16)],
        "N": [belief("t1", "N", 14)],
        "E": [belief("t1", "E", 20)],
    }
    clients: Any = [ScriptedClient(feeds[s]) for s in SEATS]
    started = time.monotonic()
    missing = await settle_beliefs(clients, "t1", tracker, wait=0.6)
    assert 0.5 < time.monotonic() - started < 3, "the wait is bounded, and used"
    assert missing == 1 and figures.beliefs_missing == 1
    assert len(figures.belief_ms) == 2  # seqs 10 and 12
    assert tracker.waiting == [] and set(tracker.latest.values()) == {0}


async def test_settling_returns_at_once_when_nothing_is_owed() -> None:
    tracker = BeliefTracker(Figures())
    for seat in SEATS:
        tracker.belief(seat, 7)
    tracker.acked(7, time.perf_counter())
    started = time.monotonic()
    clients: Any = [ScriptedClient([]) for _ in SEATS]
    assert await settle_beliefs(clients, "t1", tracker, wait=5) == 0
    assert time.monotonic() - started < 0.2


async def test_every_acked_move_is_measured_or_counted(url: str) -> None:
    figures = await run_load(url, tables=2, spectators=1, seconds=4, target=15)
    assert figures["matches_finished"] >= 2, figures  # so match ends are in the figures
    assert figures["moves"] > 0
    assert figures["beliefs_never_arrived"] == 0
    assert figures["beliefs_measured"] == figures["moves"]
    text = report(figures)
    assert "beliefs never arrived  0 moves (of " in text
    assert "play -> all beliefs    p50 " in text

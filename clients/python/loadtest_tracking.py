"""What a load test counts, shared by its tables: the raw latencies and counts (`Figures`),
each table's beliefs owed per acked move (`BeliefTracker`), and when play stops
(`Deadline`). Kept apart from the seats that feed them (clients/python/load_seat.py) and
the runs that report them (clients/python/loadtest.py)."""

from __future__ import annotations

import asyncio
import bisect
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Figures:
    ack_ms: list[float] = field(default_factory=list)
    belief_ms: list[float] = field(default_factory=list)
    moves: int = 0
    refused: int = 0
    rate_limited: int = 0
    """Requests the server's per-connection rate limit refused (each waited for and retried:
    flat-out bots can outrun the limit a person never reaches)."""
    matches: int = 0
    beliefs_missing: int = 0
    """Acked moves whose four beliefs had not all arrived within BELIEF_WAIT."""
    started: float = 0.0
    stopped: float = 0.0
    play_stopped: float = 0.0
    """When the last table stopped playing (before waiting for beliefs still owed)."""


class BeliefTracker:
    """For one table: when has every seat seen a belief at least as new as each move?"""

    def __init__(self, figures: Figures, seats: tuple[str, ...]) -> None:
        self.figures = figures
        self.seats = seats
        self.latest = dict.fromkeys(seats, 0)
        self.waiting: list[tuple[int, float]] = []
        """(seq, sent_at) of acked moves still owed a belief by some seat, by seq."""
        self._settled: asyncio.Future[None] | None = None

    def reset(self) -> None:
        self.latest = dict.fromkeys(self.seats, 0)
        self.waiting.clear()

    def give_up(self) -> int:
        """Count the moves still waiting as missing (never dropped silently); start afresh."""
        missing = len(self.waiting)
        self.figures.beliefs_missing += missing
        self.reset()
        return missing

    def owes(self, seat: str) -> bool:
        """Whether `seat` has yet to see a belief for some acked move."""
        return bool(self.waiting) and self.latest[seat] < self.waiting[-1][0]

    def acked(self, seq: int, sent_at: float) -> None:
        if min(self.latest.values()) >= seq:
            self.figures.belief_ms.append((time.perf_counter() - sent_at) * 1000)
        else:  # kept in seq order: two seats' acks may be handled out of order
            bisect.insort(self.waiting, (seq, sent_at))

    def belief(self, seat: str, seq: int) -> None:
        if seq <= self.latest[seat]:
            return
        self.latest[seat] = seq
        floor = min(self.latest.values())
        if self.waiting and self.waiting[0][0] <= floor:
            now = time.perf_counter()
            while self.waiting and self.waiting[0][0] <= floor:
                _, sent_at = self.waiting.pop(0)
                self.figures.belief_ms.append((now - sent_at) * 1000)
            if not self.waiting and self._settled is not None \
                    and not self._settled.done():
                self._settled.set_result(None)

    async def settle(self, wait: float) -> int:
        """Until every seat has the beliefs every acked move is owed (they arrive through
        `belief`, from the seats' connections), for at most `wait` seconds: a seat stops
        playing at match_ended, but beliefs come after the event. Returns how many moves'
        beliefs never arrived (also added to the figures), and starts afresh."""
        if self.waiting:
            self._settled = asyncio.get_running_loop().create_future()
            try:
                async with asyncio.timeout(wait):
                    await self._settled
            except TimeoutError:
                pass
            finally:
                self._settled = None
        return self.give_up()


class Deadline:
    """When play stops; movable (a paced ramp stops every table at once when it is done).
    A table stops its seats at this time (a timer), or when `stop` calls the callbacks
    given to `on_stop`."""

    def __init__(self, at: float) -> None:
        self.at = at
        self._wakers: list[Callable[[], None]] = []

    def passed(self) -> bool:
        return time.monotonic() > self.at

    def left(self) -> float | None:
        """Seconds until play stops (None: not set)."""
        return None if self.at == float("inf") else max(0.0, self.at - time.monotonic())

    def on_stop(self, wake: Callable[[], None]) -> None:
        self._wakers.append(wake)

    def stop(self) -> None:
        self.at = 0.0
        for wake in self._wakers:
            wake()

"""A paced ramp's tables, played by one event loop and measured in windows.

`run_paced` drives one or more groups: `TableGroup` plays its tables on the calling loop;
`ProcessGroup` (clients/python/loadtest_procs.py) plays them in a child process with its own
loop, so a single load generator's loop (its lag measured ~89 ms p99 at 160 tables) is not
what a capacity figure measures. Both answer the same four calls: `add` (seat more tables),
`mark` (a window starts), `sample` (the window's raw samples) and `stop`; the samples are
raw latencies, so merging groups is exact (percentiles of the union, not of percentiles).
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from clients.python.load_seat import play_table
from clients.python.loadtest_tracking import Deadline, Figures
from games.registry import GAMES, Registry

LAG_TICK = 0.05
"""Seconds between a generator loop's lag samples."""


@dataclass
class GroupConfig:
    """What every table of a ramp plays (picklable: handed to child processes)."""

    url: str
    pace: float
    variant: str
    target: int = 100
    spectators: int = 0
    options: dict[str, Any] | None = None


@dataclass
class WindowSample:
    """One group's raw figures since its `mark`: latencies (ms), moves, its loop's lag
    samples (ms) and the CPU its process spent (s)."""

    ack_ms: list[float] = field(default_factory=list)
    belief_ms: list[float] = field(default_factory=list)
    moves: int = 0
    lags_ms: list[float] = field(default_factory=list)
    cpu_s: float = 0.0

    @staticmethod
    def merge(samples: list[WindowSample]) -> WindowSample:
        """Every group's samples as one (exact: the raw values, concatenated)."""
        merged = WindowSample()
        for sample in samples:
            merged.ack_ms += sample.ack_ms
            merged.belief_ms += sample.belief_ms
            merged.moves += sample.moves
            merged.lags_ms += sample.lags_ms
            merged.cpu_s += sample.cpu_s
        return merged


SEATING_WAVE = 64
"""Tables seated at once: a step of a thousand tables opened every connection in one
burst (no population arrives so), past the server's listen queue (connections reset)."""


class Group(Protocol):
    pid: int
    """The process that plays the group's tables."""

    async def add(self, seeds: list[int]) -> None: ...

    async def mark(self) -> None: ...

    async def sample(self) -> WindowSample: ...

    async def stop(self) -> None: ...


class TableGroup:
    """Tables played on the running loop; `lags_ms` samples that loop's lag all along."""

    def __init__(self, config: GroupConfig, games: Registry = GAMES) -> None:
        self.config = config
        self.games = games
        self.pid = os.getpid()
        self.figures = Figures()
        self.figures.started = time.monotonic()
        self.deadline = Deadline(float("inf"))
        self.tasks: list[asyncio.Task[None]] = []
        self.lags_ms: list[float] = []
        self._lagging: asyncio.Task[None] | None = None
        self._marks = (0, 0, 0, 0, 0.0)

    async def add(self, seeds: list[int]) -> None:
        """Seat one table per seed, SEATING_WAVE at a time; return once all are seated
        (raise if one stopped)."""
        if self._lagging is None:
            self._lagging = asyncio.create_task(self._lag())
        for start in range(0, len(seeds), SEATING_WAVE):
            await self._seat(seeds[start:start + SEATING_WAVE])

    async def _seat(self, seeds: list[int]) -> None:
        config = self.config
        seated = [asyncio.Event() for _ in seeds]
        self.tasks += [asyncio.create_task(play_table(
            config.url, config.spectators, self.figures, self.deadline, seed,
            variant=config.variant, games=self.games, target=config.target, pace=config.pace,
            seated=event, options=config.options))
            for seed, event in zip(seeds, seated, strict=True)]
        waiting = asyncio.ensure_future(asyncio.gather(*(e.wait() for e in seated)))
        watched: list[asyncio.Future[Any]] = [waiting, *self.tasks]
        await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
        failed = [t for t in self.tasks if t.done()]  # tables play until the deadline
        if failed:
            waiting.cancel()
            error = None if failed[0].cancelled() else failed[0].exception()
            raise RuntimeError(f"a table stopped while seating: {error!r}")

    async def mark(self) -> None:
        figures = self.figures
        self._marks = (len(figures.ack_ms), len(figures.belief_ms), figures.moves,
                       len(self.lags_ms), time.process_time())

    async def sample(self) -> WindowSample:
        acks, beliefs, moves, lags, cpu = self._marks
        figures = self.figures
        return WindowSample(figures.ack_ms[acks:], figures.belief_ms[beliefs:],
                            figures.moves - moves, self.lags_ms[lags:],
                            time.process_time() - cpu)

    async def stop(self) -> None:
        if self._lagging is not None:
            self._lagging.cancel()
        self.deadline.stop()  # every seat is woken and stops
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _lag(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            self.lags_ms.append((time.perf_counter() - asked - LAG_TICK) * 1000)

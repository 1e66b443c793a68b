"""Worker processes for the strategy's heavy work: pimc bot decisions and move advice.

PIMC solves dozens of deals with a pure-Python alpha-beta for up to ~0.6-0.8 s. In the
server's process that would hold the GIL and stall the event loop (every table, every socket),
so it runs here instead: two small `ProcessPoolExecutor`s shared by the whole process, one for
bots (and replay advice) and one for live advice, so a person asking for advice never queues
behind bots thinking at other tables. The workers are niced, so under CPU pressure the server
itself (moves, commits, beliefs) goes first; the strategy's budgets are wall-clock, so a
starved worker answers on time with fewer deals.

What crosses the process boundary is plain data: the seat's own events as JSON-able dicts
(already redacted for that seat) and a seed; back comes a move or `Advice.to_dict()` rows.
Workers come from a forkserver with the strategy modules preloaded (no fork of the server's
threads, no re-import per worker). The pools start lazily, on the first table that needs them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import random
import signal
import threading
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from server.logs import log

T = TypeVar("T")

STRATEGY_GAMES = frozenset({"dominoes"})
"""The games strategy/ plays: its bots seat their tables, its advisor ranks their moves (live
tables and replays alike). Other games seat their own bots and offer no advice."""

BOT_WORKERS = int(os.environ.get("DOMINO_BOT_WORKERS", "0")) or max(1, min(4, os.cpu_count() or 1))
"""Processes for pimc decisions (and replay advice)."""
ADVICE_WORKERS = int(os.environ.get("DOMINO_ADVICE_WORKERS", "0")) or 2
"""Processes for live advice: up to this many answered at once, within their budget."""
BOT_NICE = 10
ADVICE_NICE = 5
PRELOAD = ["strategy.advisor", "strategy.bots", "games.dominoes.events", "games.dominoes.audience"]

PIMC_SECONDS = 0.6
PIMC_SAMPLES = 24
ADVICE_SECONDS = 0.8
"""The advisor's time budget at a live table (its answer must come within ~1 s)."""
ADVICE_SAMPLES = 32


# -- what runs in the worker processes (module-level: picklable by name) ----------------------


def _init_worker(nice: int) -> None:
    # Ctrl-C reaches the whole process group: the server stops the workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(nice)
    import strategy.advisor  # noqa: F401  (warm: imported before the first job)


def _warm() -> int:
    return os.getpid()


def pimc_move_job(events: list[dict[str, Any]], seat: str, seed: int, seconds: float,
                  samples: int) -> dict[str, Any] | None:
    """The pimc bot's move for `seat` from its own events: {tile, end}, or None (no move)."""
    from games.dominoes.events import parse_event
    from strategy.bots import NoMoveError, make_bot

    bot = make_bot("pimc", seed, samples=samples, seconds=seconds)
    try:
        move = bot.choose_move([parse_event(e) for e in events], seat)  # type: ignore[arg-type]
    except NoMoveError:
        return None
    return {"tile": str(move.tile), "end": move.end}


def advise_job(events: list[dict[str, Any]], seat: str, seed: int, samples: int,
               seconds: float) -> list[dict[str, Any]]:
    """strategy.advisor.advise for `seat` from its own events, as JSON-ready rows."""
    from games.dominoes.events import parse_event
    from strategy.advisor import advise

    parsed = [parse_event(e) for e in events]
    rows = advise(parsed, seat, samples=samples, rng=random.Random(seed),  # type: ignore[arg-type]
                  time_budget=seconds)
    return [row.to_dict() for row in rows]


# -- the pools (in the server's process) ------------------------------------------------------


class _Pool:
    """One lazily started executor that is rebuilt if a worker dies."""

    def __init__(self, name: str, workers: int, nice: int) -> None:
        self.name = name
        self.workers = workers
        self.nice = nice
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def executor(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(PRELOAD)
                executor = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=context,
                    initializer=_init_worker, initargs=(self.nice,),
                )
                # fork every worker now (a submit finding no idle worker forks one, which
                # blocks): only then is the pool handed to the event loop
                for _ in range(self.workers):
                    executor.submit(_warm)
                self._executor = executor
                log("strategy_pool_started", pool=self.name, workers=self.workers)
            return self._executor

    def start_soon(self) -> None:
        """Start the workers from a thread: starting the forkserver and forking the workers
        blocks for ~0.1 s, which must not happen on the event loop."""
        if self._executor is None:
            threading.Thread(target=self.executor, name=f"start-{self.name}-pool",
                             daemon=True).start()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        executor = self._executor
        if executor is None:  # not started yet: start it off the loop
            executor = await asyncio.to_thread(self.executor)
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            log("strategy_pool_broken", pool=self.name)
            with self._lock:
                if self._executor is executor:
                    self._executor = None
            executor.shutdown(wait=False, cancel_futures=True)
            raise

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    @property
    def started(self) -> bool:
        return self._executor is not None


BOTS = _Pool("bots", BOT_WORKERS, BOT_NICE)
ADVICE = _Pool("advice", ADVICE_WORKERS, ADVICE_NICE)
_users = 0


def warm_up(*pools: _Pool) -> None:
    """Start these pools' workers soon (e.g. when a table that will need them opens)."""
    for pool in pools or (BOTS, ADVICE):
        pool.start_soon()


def acquire() -> None:
    """A server started in this process (pools are shared by every server in it)."""
    global _users
    _users += 1


def release() -> None:
    """A server stopped: the last one out stops the workers."""
    global _users
    _users = max(0, _users - 1)
    if _users == 0:
        BOTS.shutdown()
        ADVICE.shutdown()


async def pimc_move(events: list[dict[str, Any]], seat: str, seed: int,
                    seconds: float = PIMC_SECONDS,
                    samples: int = PIMC_SAMPLES) -> dict[str, Any] | None:
    return await BOTS.run(pimc_move_job, events, seat, seed, seconds, samples)


async def advise_rows(events: list[dict[str, Any]], seat: str, seed: int,
                      samples: int = ADVICE_SAMPLES, seconds: float = ADVICE_SECONDS,
                      pool: _Pool = ADVICE) -> list[dict[str, Any]]:
    return await pool.run(advise_job, events, seat, seed, samples, seconds)

"""Worker processes for the games' heavy work: pooled bots' decisions, move advice and the
behaviour models' odds.

A game declares which of its bots think for long (`Capabilities.pooled_bots`, e.g. a bot that
solves dozens of deals with a pure-Python alpha-beta for up to ~0.6-0.8 s), its advisor and
its behaviour models (games.interface.Capabilities). In the
server's process that would hold the GIL and stall the event loop (every table, every socket),
so it runs here instead: small `ProcessPoolExecutor`s shared by the whole process, one for
bots, one for live advice, so a person asking for advice never queues behind bots thinking
at other tables, and one for replays' advice and odds, which anyone may ask for and which
must never take a live table's worker. The workers are niced, so under CPU pressure the server
itself (moves, commits, beliefs) goes first; the strategy's budgets are wall-clock, so a
starved worker answers on time with fewer deals.

An advisor that streams (games.advice.advise_steps: Texas 42's bidding oracle as N grows)
sends its partial answers up its pool's progress queue, handed to the asker's event loop by
a reader thread (`_Pool.listen`); the answer waits until every partial one sent before it
has been handed on, so they arrive in order.

What crosses the process boundary is plain data: the seat's own events as JSON-able dicts
(already redacted for that seat), a seed and the game's own small picklable object (the bot,
the advisor, the behaviour model); back comes a move as its wire payload, or a JSON payload.
Workers come from a forkserver with every registered game preloaded (no fork of the server's
threads, no re-import per worker). The pools start lazily, on the first table that needs them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import multiprocessing
import os
import signal
import threading
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from games.advice import UNIFORM, Advisor, advise_steps, advise_under
from games.behaviour import BehaviourModel
from server.logs import log

T = TypeVar("T")

BOT_WORKERS = int(os.environ.get("DOMINO_BOT_WORKERS", "0")) or max(1, min(4, os.cpu_count() or 1))
"""Processes for pooled bots' decisions."""
ADVICE_WORKERS = int(os.environ.get("DOMINO_ADVICE_WORKERS", "0")) or 2
"""Processes for live advice: up to this many answered at once, within their budget."""
REPLAY_WORKERS = int(os.environ.get("DOMINO_REPLAY_WORKERS", "0")) or 1
"""Processes for replay advice and odds: strangers' work, kept off the live pools."""
BOT_NICE = 10
ADVICE_NICE = 5
REPLAY_NICE = 15
PRELOAD = ["games.registry"]
"""Every registered game, with its bots, advisors and models (what the jobs unpickle)."""


# -- what runs in the worker processes (module-level: picklable by name) ----------------------


_progress: Any = None
"""This worker's pool's progress queue (`_Pool.listen`): partial answers go up it."""


def _init_worker(nice: int, progress: Any = None) -> None:
    global _progress
    _progress = progress
    # Ctrl-C reaches the whole process group: the server stops the workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(nice)
    import games.registry  # noqa: F401  (warm: imported before the first job)


def _warm() -> int:
    return os.getpid()


def bot_move_job(bot: Any, events: list[dict[str, Any]], seat: str,
                 seed: int) -> dict[str, Any] | None:
    """A pooled bot's move for `seat` from its own events (games.interface.Capabilities
    .pooled_bots): the move as the game's wire payload, or None (no move)."""
    move: dict[str, Any] | None = bot.choose_wire(events, seat, seed)
    return move


def odds_job(model: BehaviourModel, events: list[dict[str, Any]], observer: str,
             seed: int) -> dict[str, Any]:
    """A behaviour model's odds for `observer` from its own events (games.behaviour)."""
    return model.odds(events, observer, seed)


def game_advice_job(advisor: Any, events: list[dict[str, Any]], seat: str, seed: int,
                    seconds: float, model: str = UNIFORM) -> dict[str, Any]:
    """A game's advisor (games.advice) for `seat` from its own events under `model`: its
    JSON payload."""
    return advise_under(advisor, events, seat, seed, seconds, model)


def game_advice_steps_job(advisor: Any, events: list[dict[str, Any]], seat: str, seed: int,
                          seconds: float, model: str, token: int
                          ) -> tuple[dict[str, Any], int]:
    """As `game_advice_job`, sending each partial payload up the pool's progress queue under
    `token` as it comes (games.advice.advise_steps); returns the answer and how many partial
    payloads were sent (the server hands them all on before the answer)."""
    previous: dict[str, Any] | None = None
    sent = 0
    for step in advise_steps(advisor, events, seat, seed, seconds, model):
        if previous is not None and _progress is not None:
            _progress.put((token, previous))
            sent += 1
        previous = step
    assert previous is not None, "an advisor's steps end with its answer"
    return previous, sent


# -- the pools (in the server's process) ------------------------------------------------------


class PoolBusy(Exception):
    """No worker could be had in time, or the asker already holds its share: the caller
    degrades (a pooled bot's game plays its fallback bot; advice answers `busy`)."""


class Admission:
    """Who may use a pool's workers now, so that 30 tables of pooled bots or 40 seats asking
    for advice cannot starve another table (29 s for a pooled move; advice failing 6 of 6).

    At most `slots` jobs run at once (one per worker: the executor never queues); the rest
    wait first come, first served; each owner (a table, a connection) may hold at most
    `per_owner` jobs running or waiting; and nobody waits past its deadline. Event-loop
    state only (no lock): used from the loop that runs the server."""

    def __init__(self, slots: int, per_owner: int) -> None:
        self.slots = slots
        self.per_owner = per_owner
        self.running = 0
        self.held: Counter[str] = Counter()
        self._waiting: deque[asyncio.Future[None]] = deque()
        self.refused = 0
        self.timed_out = 0

    async def enter(self, owners: Iterable[str], wait: float) -> None:
        """Take a slot for `owners` within `wait` seconds, or raise PoolBusy."""
        owners = tuple(owners)
        for owner in owners:
            if self.held[owner] >= self.per_owner:
                self.refused += 1
                raise PoolBusy(f"{owner} already has {self.held[owner]} job(s) here")
        self.held.update(owners)
        if self.running < self.slots and not self._waiting:
            self.running += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        try:
            await asyncio.wait_for(turn, wait)
        except BaseException as error:
            if turn.done() and not turn.cancelled():
                self._hand_on()  # granted just as we gave up: pass the slot along
            self._drop(owners)
            if isinstance(error, TimeoutError):
                self.timed_out += 1
                raise PoolBusy(f"no worker within {wait:.1f} s") from None
            raise

    def leave(self, owners: Iterable[str]) -> None:
        self._drop(tuple(owners))
        self._hand_on()

    def _drop(self, owners: tuple[str, ...]) -> None:
        self.held.subtract(owners)
        for owner in owners:
            if self.held[owner] <= 0:
                del self.held[owner]

    def _hand_on(self) -> None:
        """A slot is free: the first one still waiting gets it (else it is given back)."""
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.running -= 1


class _Listener:
    """One job's partial answers as they reach the server (event-loop state)."""

    def __init__(self, token: int, loop: asyncio.AbstractEventLoop,
                 on_progress: Callable[[dict[str, Any]], None]) -> None:
        self.token, self.loop, self.on_progress = token, loop, on_progress
        self.received = 0
        self._expected: int | None = None
        self._all = asyncio.Event()

    def deliver(self, payload: dict[str, Any]) -> None:
        self.received += 1
        self.on_progress(payload)
        if self._expected is not None and self.received >= self._expected:
            self._all.set()

    async def drained(self, sent: int, wait: float) -> None:
        """Until the `sent` partial answers the job sent have been handed on (they travel
        apart from the answer: one may still be on its way), or `wait` seconds (a give-up
        bound: a partial answer later than that is dropped)."""
        self._expected = sent
        if self.received >= sent:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._all.wait(), wait)


class _Pool:
    """One lazily started executor that is rebuilt if a worker dies."""

    def __init__(self, name: str, workers: int, nice: int, per_owner: int = 1) -> None:
        self.name = name
        self.workers = workers
        self.nice = nice
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self.per_owner = per_owner
        self._admissions: dict[asyncio.AbstractEventLoop, Admission] = {}
        self._progress: Any = None
        """The workers' progress queue (with the executor), read by a thread of its own."""
        self._listeners: dict[int, _Listener] = {}
        self._tokens = itertools.count(1)

    def admission(self) -> Admission:
        """This event loop's admission (a test may run servers on several loops in turn)."""
        loop = asyncio.get_running_loop()
        found = self._admissions.get(loop)
        if found is None:
            self._admissions = {lp: a for lp, a in self._admissions.items()
                                if not lp.is_closed()}
            found = self._admissions[loop] = Admission(self.workers, self.per_owner)
        return found

    def executor(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(PRELOAD)
                progress = context.Queue()
                executor = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=context,
                    initializer=_init_worker, initargs=(self.nice, progress),
                )
                self._progress = progress
                threading.Thread(target=self._read_progress, args=(progress,),
                                 name=f"{self.name}-progress", daemon=True).start()
                # fork every worker now (a submit finding no idle worker forks one, which
                # blocks): only then is the pool handed to the event loop
                for _ in range(self.workers):
                    executor.submit(_warm)
                self._executor = executor
                log("strategy_pool_started", pool=self.name, workers=self.workers)
            return self._executor

    def _read_progress(self, progress: Any) -> None:
        """Hand each partial answer to its listener's event loop (until None: shut down)."""
        while True:
            try:
                item = progress.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            token, payload = item
            found = self._listeners.get(token)
            if found is not None:
                with contextlib.suppress(RuntimeError):  # its loop closed meanwhile
                    found.loop.call_soon_threadsafe(self._deliver, token, payload)

    def _deliver(self, token: int, payload: dict[str, Any]) -> None:
        found = self._listeners.get(token)  # on the loop: gone once the answer was taken
        if found is not None:
            found.deliver(payload)

    @contextlib.contextmanager
    def listen(self, on_progress: Callable[[dict[str, Any]], None]) -> Iterator[_Listener]:
        """A listener for one job's partial answers, handed to `on_progress` on this event
        loop until the block ends (later ones are dropped)."""
        listener = _Listener(next(self._tokens), asyncio.get_running_loop(), on_progress)
        self._listeners[listener.token] = listener
        try:
            yield listener
        finally:
            self._listeners.pop(listener.token, None)

    def start_soon(self) -> None:
        """Start the workers from a thread: starting the forkserver and forking the workers
        blocks for ~0.1 s, which must not happen on the event loop."""
        if self._executor is None:
            threading.Thread(target=self.executor, name=f"start-{self.name}-pool",
                             daemon=True).start()

    @contextlib.asynccontextmanager
    async def admitted(self, owners: Iterable[str], wait: float) -> AsyncIterator[None]:
        """Hold one of the pool's slots for `owners` (see Admission; PoolBusy if not had)."""
        owners = tuple(owners)
        admission = self.admission()
        await admission.enter(owners, wait)
        try:
            yield
        finally:
            admission.leave(owners)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        executor = self._executor
        if executor is None:  # not started yet: start it off the loop
            executor = await asyncio.to_thread(self.executor)
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            log("strategy_pool_broken", pool=self.name)
            progress = None
            with self._lock:
                if self._executor is executor:
                    self._executor = None
                    progress, self._progress = self._progress, None
            executor.shutdown(wait=False, cancel_futures=True)
            if progress is not None:
                with contextlib.suppress(OSError, ValueError):
                    progress.put(None)
            raise

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
            progress, self._progress = self._progress, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        if progress is not None:
            with contextlib.suppress(OSError, ValueError):
                progress.put(None)  # its reader thread stops

    @property
    def started(self) -> bool:
        return self._executor is not None


POOLED_WAIT = 1.0
"""Seconds a pooled bot waits for a worker before its game's fallback bot moves instead."""
ADVICE_WAIT = 2.0
"""Seconds an `advise` waits for a worker before it is answered `busy`."""
PROGRESS_DRAIN_WAIT = 15.0
"""Seconds the answer waits for the partial answers sent before it that are still on their
way (a give-up bound, never reached in practice: they come in order within milliseconds; it
decides no figure, only whether a very late partial frame is dropped)."""
BOTS_PER_OWNER = 2
"""Pooled decisions one table may have running or waiting."""
ADVICE_PER_OWNER = 1
"""Advice requests one table, and one connection, may have running or waiting."""

BOTS = _Pool("bots", BOT_WORKERS, BOT_NICE, BOTS_PER_OWNER)
ADVICE = _Pool("advice", ADVICE_WORKERS, ADVICE_NICE, ADVICE_PER_OWNER)
REPLAYS = _Pool("replays", REPLAY_WORKERS, REPLAY_NICE, 1)
"""Replay advice and odds (server/replay/gate.py admits them), niced below the bots."""
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
        REPLAYS.shutdown()


async def pooled_move(bot: Any, events: list[dict[str, Any]], seat: str, seed: int, *,
                      owners: Iterable[str] = (), wait: float | None = None
                      ) -> dict[str, Any] | None:
    """A pooled bot's move in a worker (its wire payload, or None); PoolBusy if `owners` hold
    their share or none is free within `wait` seconds (POOLED_WAIT)."""
    async with BOTS.admitted(owners, POOLED_WAIT if wait is None else wait):
        return await BOTS.run(bot_move_job, bot, events, seat, seed)


async def game_advice(advisor: Advisor, events: list[dict[str, Any]], seat: str, seed: int,
                      seconds: float | None = None, pool: _Pool = ADVICE, *,
                      owners: Iterable[str] = (), wait: float | None = None,
                      model: str = UNIFORM,
                      progress: Callable[[dict[str, Any]], None] | None = None
                      ) -> dict[str, Any]:
    """`advisor.advise` under `model` in a worker of `pool` within its budget (`seconds`,
    else the advisor's own); PoolBusy if `owners` hold their share or none is free within
    `wait`. `progress`: called on this loop with each partial payload the advisor streams
    (games.advice.advise_steps) before the answer is returned."""
    budget = advisor.seconds if seconds is None else seconds
    async with pool.admitted(owners, ADVICE_WAIT if wait is None else wait):
        if progress is None:
            return await pool.run(game_advice_job, advisor, events, seat, seed, budget, model)
        with pool.listen(progress) as listener:
            answer, sent = await pool.run(game_advice_steps_job, advisor, events, seat, seed,
                                          budget, model, listener.token)
            await listener.drained(sent, PROGRESS_DRAIN_WAIT)
            return answer

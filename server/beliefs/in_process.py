"""Per-audience inference workers: each folds one seat's (or the public) view into a Belief and
publishes the belief after every event, tagged with the seq it reflects.

Workers never see the referee's log: they subscribe to their audience's events on the bus,
exactly what a connection of that seat receives. One task runs every worker that has
pending events, a few milliseconds at a time on the loop (cheap updates: a dominoes belief
takes well under a millisecond). A worker whose belief says it is `costly` (a six-player
Clue spectator's count can take seconds), or whose last update took longer than
COSTLY_SECONDS, runs on the one inference thread instead, and its belief is published back
on the loop: a costly update slows its own beliefs, never the loop, which keeps acking moves
and serving other tables. A worker that is behind folds every pending event and computes one
belief, for the latest seq (coalescing): a belief is never older than one already pushed. A
worker is never run twice at once.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from games.interface import BeliefModel
from server.beliefs.message import belief_frame
from server.feeds.bus import Bus, Envelope, Handler, Unsubscribe
from server.logs import log
from server.metrics import Metrics, Window
from server.table_game import TableGame


class BelievedTable(Protocol):
    """What in-process inference needs of a table: its game, a way to follow an audience."""

    table_id: str
    game: TableGame

    def attach(self, audience: str, on_event: Handler) -> tuple[int, Unsubscribe]: ...


SLICE_SECONDS = 0.004
"""How long the inference task runs cheap workers on the loop before it yields."""
COSTLY_SECONDS = 0.02
"""A worker whose last update took longer runs its next ones on the inference thread."""


@dataclass
class Job:
    """One worker's turn: what it folds, whether anyone wants the snapshot, and the outcome."""

    events: list[Any]
    wanted: bool
    started: float
    snapshot: dict[str, Any] | None = None
    error: Exception | None = None


class BeliefWorker:
    """One observer's belief at one table, kept up to date from its own view of the events."""

    def __init__(self, inference: InProcessInference, table_id: str, observer: str,
                 belief: BeliefModel) -> None:
        self.inference = inference
        self.table_id = table_id
        self.observer = observer
        self.belief = belief
        """The game's exact belief for this observer (games.interface.BeliefModel)."""
        self.pending: list[Any] = []
        self.first_stamp = 0.0
        self.broken = False
        self.done = False
        self.stale = False
        """Events folded but no belief published (nobody was listening)."""
        self.unsubscribe: Unsubscribe | None = None
        self.costly = belief.costly
        """Its game says so, or its last update took over COSTLY_SECONDS: its turns run on
        the inference thread."""
        self.running = False
        """A turn of it is on the inference thread now (it is not taken again until done)."""
        self.again = False
        """It was marked while running: its turn ends by marking it again."""

    def on_event(self, envelope: Envelope) -> None:
        if self.broken or self.done or envelope.event is None:
            return
        if not self.pending:
            self.first_stamp = envelope.stamp
        self.pending.append(envelope.event)
        self.inference.mark(self)

    def refresh(self) -> None:
        """Someone started listening: publish a belief now if the retained one is stale."""
        if self.stale and not self.broken:
            self.inference.mark(self)

    def take(self) -> Job | None:
        """On the loop: the pending events and whether a snapshot is wanted (None: no work).

        With nobody subscribed (a bot's seat, a table without spectators) the events are
        folded but the snapshot is skipped until someone attaches (`refresh`).
        """
        events, self.pending = self.pending, []
        if (not events and not self.stale) or self.broken:
            return None
        started = time.monotonic()
        if events:
            self.inference.queued.add((started - self.first_stamp) * 1000.0)
        wanted = self.inference.bus.has_subscribers(self.table_id, self.observer, "belief")
        return Job(events, wanted, started)

    def compute(self, job: Job) -> None:
        """Fold the events, snapshot if wanted (no I/O, no bus: safe on the inference thread);
        how long it took decides where the next turn runs."""
        began = time.thread_time()
        try:
            for event in job.events:
                self.belief.apply(event)
            if job.wanted:
                job.snapshot = self.belief.snapshot_dict()
        except Exception as error:  # an inconsistent view is a bug: finish() says so
            job.error = error
        self.costly = self.belief.costly or time.thread_time() - began > COSTLY_SECONDS

    def finish(self, job: Job) -> None:
        """On the loop: publish the belief (or mark it stale, or stop a broken worker)."""
        ended = bool(job.events) and job.events[-1].type == "match_ended"
        if job.error is not None:
            self.broken = True
            log("inference_failed", table=self.table_id, observer=self.observer,
                error=job.error)
            if self.inference.on_broken is not None:
                self.inference.on_broken(self.table_id, self.observer, job.error)
            return
        if job.snapshot is None:
            self.stale = True
            if ended:
                self.stop()
            return
        self.stale = False
        snapshot = job.snapshot
        frame = belief_frame(self.table_id, snapshot)
        self.inference.bus.publish(
            Envelope(self.table_id, self.observer, "belief", snapshot["seq"], frame), retain=True
        )
        self.inference.metrics.beliefs += 1
        if job.events:
            done = time.monotonic()
            self.inference.metrics.inference_lag.add((done - self.first_stamp) * 1000.0)
            self.inference.fold_and_publish.add((done - job.started) * 1000.0)
        if ended:
            self.stop()

    def stop(self) -> None:
        self.done = True
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None


class InProcessInference:
    """Runs dirty workers round-robin: cheap ones in time slices on the loop, costly ones on
    one inference thread (in-process inference). Also the engine of each inference process
    (server/beliefs/child.py), there on a bus that ends in a pipe to the server."""

    def __init__(self, bus: Bus, metrics: Metrics,
                 on_broken: Callable[[str, str, Exception], None] | None = None) -> None:
        self.bus = bus
        self.metrics = metrics
        self.on_broken = on_broken
        """Told (table, observer, error) when a worker breaks: an inference process reports
        it to the server."""
        self._drained = asyncio.Event()
        self._drained.set()
        self._dirty: deque[BeliefWorker] = deque()
        self._queued: set[int] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="inference")
        """The one thread for costly workers' turns (a bounded pool: one)."""
        self._offloaded: deque[tuple[BeliefWorker, Job]] = deque()
        self._offloading: asyncio.Task[None] | None = None
        self.queued = Window()
        """Per belief: the first pending event committed -> its worker's turn on the loop."""
        self.fold_and_publish = Window()
        """Per belief: its turn taken -> folded, snapshotted, framed and fanned out."""

    def stages(self) -> dict[str, dict[str, float]]:
        """Belief lag by stage, for /healthz (what a slow stage is called)."""
        return {"commit_to_turn": self.queued.summary(),
                "fold_snapshot_publish": self.fold_and_publish.summary(),
                "commit_to_belief": self.metrics.inference_lag.summary()}

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="in-process-inference")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, self._offloading) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._thread.shutdown(wait=False, cancel_futures=True)

    def attach_table(self, table: BelievedTable) -> dict[str, BeliefWorker]:
        """One worker per audience, each fed by its audience's events on the bus."""
        workers = {}
        game = table.game
        for audience in game.audiences:
            belief = game.game.belief(audience, game.variant.name)
            worker = BeliefWorker(self, table.table_id, audience, belief)
            worker.unsubscribe = table.attach(audience, worker.on_event)[1]
            workers[audience] = worker
        return workers

    def mark(self, worker: BeliefWorker) -> None:
        if id(worker) not in self._queued:
            self._queued.add(id(worker))
            self._dirty.append(worker)
            self._drained.clear()
            self._wake.set()

    async def drained(self) -> None:
        """Until no cheap worker has events waiting (costly ones may still be on the thread):
        what an inference process waits for before it asks the server for more."""
        await self._drained.wait()

    def _step_one(self) -> None:
        worker = self._dirty.popleft()
        self._queued.discard(id(worker))
        if worker.running:
            worker.again = True  # its turn on the thread ends by marking it again
            return
        job = worker.take()
        if job is None:
            return
        if worker.costly:
            self._offloaded.append((worker, job))
            worker.running = True
            return
        worker.compute(job)
        worker.finish(job)

    async def _offload(self) -> None:
        """Run the costly workers' turns on the inference thread, one after another."""
        loop = asyncio.get_running_loop()
        while self._offloaded:
            worker, job = self._offloaded.popleft()
            try:
                await loop.run_in_executor(self._thread, worker.compute, job)
            finally:
                worker.running = False
            worker.finish(job)
            if worker.again:
                worker.again = False
                self.mark(worker)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._dirty:
                deadline = time.monotonic() + SLICE_SECONDS
                while self._dirty and time.monotonic() < deadline:
                    self._step_one()
                if self._offloaded and (self._offloading is None or self._offloading.done()):
                    self._offloading = asyncio.create_task(self._offload(),
                                                           name="inference-thread")
                await asyncio.sleep(0)
            self._drained.set()

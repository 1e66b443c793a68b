"""Per-audience inference workers: each folds one seat's (or the public) view into a Belief and
publishes the belief after every event, tagged with the seq it reflects.

Workers never see the referee's log: they subscribe to their audience's events on the bus,
exactly what a connection of that seat receives. One task runs every worker that has
pending events, a few milliseconds at a time on the loop (cheap updates: most beliefs take
well under a millisecond). A worker whose belief says it is `costly` (a count over many
holders and disjunctions can take seconds), or whose last update took longer than
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
from protocol.frames import belief_frame
from server.feeds.bus import Envelope, Handler, Publisher, Unsubscribe
from server.logs import log
from server.metrics import Metrics, Window
from server.stages import CLOCK
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
        """Queue the event; fold it only if someone listens to this belief. Nobody does
        for a bot's seat or a table without spectators: its events wait here, unfolded
        (references to the table's own log), until someone attaches (`refresh`) and they
        are folded at once (issue 31: a fold per move nobody ever read was ~30 us each in
        the paced load test's spectator audience)."""
        if self.broken or self.done or envelope.event is None:
            return
        if not self.pending:
            self.first_stamp = envelope.stamp
        self.pending.append(envelope.event)
        if self.inference.bus.has_subscribers(self.table_id, self.observer, "belief"):
            self.inference.mark(self)
        else:
            self.stale = True

    def refresh(self) -> None:
        """Someone started listening: publish a belief now if the retained one is stale
        (fold what waited meanwhile, first)."""
        if self.stale and not self.broken:
            if self.pending:
                self.first_stamp = time.monotonic()  # waited for a listener, not for a turn
            self.inference.mark(self)

    def take(self) -> Job | None:
        """On the loop: the pending events and whether a snapshot is wanted (None: no work).

        With nobody subscribed (a bot's seat, a table without spectators; the listener left
        since the worker was marked) nothing is folded: the events wait, and the belief is
        stale, until someone attaches (`refresh`).
        """
        if (not self.pending and not self.stale) or self.broken:
            return None
        if not self.inference.bus.has_subscribers(self.table_id, self.observer, "belief"):
            self.stale = True
            return None
        events, self.pending = self.pending, []
        started = time.monotonic()
        if events:
            self.inference.queued.add((started - self.first_stamp) * 1000.0)
        return Job(events, True, started)

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

    def __init__(self, bus: Publisher, metrics: Metrics,
                 on_broken: Callable[[str, str, Exception], None] | None = None,
                 inline: bool = False) -> None:
        self.bus = bus
        self.metrics = metrics
        self.inline = inline
        """The caller runs the marked workers (`run_marked`), not the inference task: an
        inference process, which has nothing else to do meanwhile."""
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
            if not self.inline:
                self._wake.set()

    async def drained(self) -> None:
        """Until no cheap worker has events waiting (costly ones may still be on the thread):
        what an inference process waits for before it asks the server for more."""
        await self._drained.wait()

    def run_marked(self) -> None:
        """Every marked cheap worker's turn, now (costly ones go to the thread): an
        inference process's batch is folded in the turn it arrives, its beliefs and its
        ack leave in one write, and no task is woken for it (issue 31: at human pace each
        move is a batch of its own, and every wake-up is paid per move)."""
        while self._dirty:
            self._step_one()
        if self._offloaded and (self._offloading is None or self._offloading.done()):
            self._offloading = asyncio.create_task(self._offload(), name="inference-thread")
        self._drained.set()

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
            CLOCK.enter("belief_in")
            try:
                worker.finish(job)
            finally:
                CLOCK.leave()
            if worker.again:
                worker.again = False
                self.mark(worker)
                if self.inline:  # no batch may come to run it (the match's last events)
                    self.run_marked()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._dirty:
                deadline = time.monotonic() + SLICE_SECONDS
                CLOCK.enter("belief_in")
                try:
                    while self._dirty and time.monotonic() < deadline:
                        self._step_one()
                finally:
                    CLOCK.leave()
                if self._offloaded and (self._offloading is None or self._offloading.done()):
                    self._offloading = asyncio.create_task(self._offload(),
                                                           name="inference-thread")
                await asyncio.sleep(0)
            self._drained.set()

"""Per-audience inference workers: each folds one seat's (or the public) view into a Belief and
publishes the belief after every event, tagged with the seq it reflects.

Workers never see the referee's log: they subscribe to their audience's events on the bus,
exactly what a connection of that seat receives. One task runs every worker that has
pending events, a few milliseconds at a time, so the event loop never stalls on inference.
A worker that is behind folds every pending event and computes one belief, for the latest
seq (coalescing): a belief is never older than one already pushed.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
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
"""How long the inference task runs workers before it yields to the loop."""


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

    def step(self) -> None:
        """Fold what is pending and publish one belief for the latest seq.

        With nobody subscribed (a bot's seat, a table without spectators) the events are
        folded but the snapshot is skipped until someone attaches (`refresh`).
        """
        events, self.pending = self.pending, []
        if (not events and not self.stale) or self.broken:
            return
        started = time.monotonic()
        if events:
            self.inference.queued.add((started - self.first_stamp) * 1000.0)
        try:
            for event in events:
                self.belief.apply(event)
            if not self.inference.bus.has_subscribers(self.table_id, self.observer, "belief"):
                self.stale = True
                if events and events[-1].type == "match_ended":
                    self.stop()
                return
            self.stale = False
            snapshot = self.belief.snapshot_dict()
        except Exception as error:  # an inconsistent view is a bug: say so, stop this worker
            self.broken = True
            log("inference_failed", table=self.table_id, observer=self.observer, error=error)
            return
        frame = belief_frame(self.table_id, snapshot)
        self.inference.bus.publish(
            Envelope(self.table_id, self.observer, "belief", snapshot["seq"], frame), retain=True
        )
        self.inference.metrics.beliefs += 1
        if events:
            done = time.monotonic()
            self.inference.metrics.inference_lag.add((done - self.first_stamp) * 1000.0)
            self.inference.fold_and_publish.add((done - started) * 1000.0)
        if events and events[-1].type == "match_ended":
            self.stop()

    def stop(self) -> None:
        self.done = True
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None


class InProcessInference:
    """Runs dirty workers round-robin in time slices on the event loop (in-process workers)."""

    def __init__(self, bus: Bus, metrics: Metrics) -> None:
        self.bus = bus
        self.metrics = metrics
        self._dirty: deque[BeliefWorker] = deque()
        self._queued: set[int] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.queued = Window()
        """Per belief: the first pending event committed -> its worker's turn on the loop."""
        self.fold_and_publish = Window()
        """Per belief: folding the pending events, the snapshot, the frame, the fan-out."""

    def stages(self) -> dict[str, dict[str, float]]:
        """Belief lag by stage, for /healthz (what a slow stage is called)."""
        return {"commit_to_turn": self.queued.summary(),
                "fold_snapshot_publish": self.fold_and_publish.summary(),
                "commit_to_belief": self.metrics.inference_lag.summary()}

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="in-process-inference")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

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
            self._wake.set()

    def drain(self) -> None:
        """Run every dirty worker now (tests; the inference task does this in slices)."""
        while self._dirty:
            self._step_one()

    def _step_one(self) -> None:
        worker = self._dirty.popleft()
        self._queued.discard(id(worker))
        worker.step()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._dirty:
                deadline = time.monotonic() + SLICE_SECONDS
                while self._dirty and time.monotonic() < deadline:
                    self._step_one()
                await asyncio.sleep(0)

"""Answers of replay computations, kept per (kind, match, seq, detail), so a repeat costs
nothing.

A finished match never changes, so what was computed for one of its moves (advice, odds;
issue 28's verdicts) is the answer for good, and so is a refusal that follows from the
match as it is (no such seq, not a move the advisor ranks). Bounded by entries and bytes
(least recently used go first). A computation runs in a task of its own: others asking for
its key meanwhile wait for that one instead of starting their own, and an asker who gives
up (its deadline) leaves it to finish and be kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from typing import Any

from server.replay.build import ReplayError
from server.sized_lru import SizedLru

MAX_ENTRIES = 4096
MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ResultKey:
    """What was computed: `kind` ("advice", "odds", ...), for which move of which match, and
    under what (a model, an observer): everything the answer depends on."""

    kind: str
    match_id: str
    seq: int
    detail: str = ""


Outcome = bytes | ReplayError
"""An answer's body, or a refusal that holds for good."""
Compute = Callable[[], Coroutine[Any, Any, Outcome]]
"""Computes one key: returns its body or a lasting refusal; raises a passing refusal (the
match is still in play, the workers are busy), which is not kept."""


class ReplayResults:
    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
        self._kept: SizedLru[ResultKey, Outcome] = SizedLru(max_entries, max_bytes)
        self._computing: dict[ResultKey, asyncio.Task[Outcome]] = {}
        self.hits = 0
        self.computed = 0

    def get(self, key: ResultKey) -> bytes | None:
        """The kept body (None if nothing is kept); a kept refusal is raised."""
        found = self._kept.get(key)
        if found is None:
            return None
        self.hits += 1
        return _answer(found)

    def computing(self, key: ResultKey) -> asyncio.Task[Outcome] | None:
        """The computation of `key` under way, if one is."""
        return self._computing.get(key)

    def start(self, key: ResultKey, compute: Compute,
              done: Callable[[], None] | None = None) -> asyncio.Task[Outcome]:
        """Compute `key` in a task of its own: an asker who stops waiting does not stop it,
        and what lasts is kept when it ends (then `done` is called)."""
        task: asyncio.Task[Outcome] = asyncio.get_running_loop().create_task(compute())
        self._computing[key] = task

        def ended(finished: asyncio.Task[Outcome]) -> None:
            self._computing.pop(key, None)
            if not finished.cancelled() and finished.exception() is None:
                self.computed += 1
                outcome = finished.result()
                self._kept.put(key, outcome, _size(outcome))
            if done is not None:
                done()

        task.add_done_callback(ended)
        return task

    async def wait(self, task: asyncio.Task[Outcome], deadline: float | None) -> bytes:
        """The task's answer within `deadline` seconds (None: however long), else 202
        `computing`: accepted and under way, not a failure (it goes on: a retry finds its
        answer kept), so a browser asking again logs no error."""
        try:
            outcome = await asyncio.wait_for(asyncio.shield(task), deadline)
        except TimeoutError:
            raise ReplayError(202, "still computing: ask again in a moment",
                              code="computing") from None
        return _answer(outcome)

    def __len__(self) -> int:
        return len(self._kept)


def _answer(outcome: Outcome) -> bytes:
    if isinstance(outcome, ReplayError):
        raise replace(outcome)  # a fresh one each time: a kept one would grow a traceback
    return outcome


def _size(outcome: Outcome) -> int:
    return len(outcome) if isinstance(outcome, bytes) else 256

"""`GET /api/matches/{id}/verdicts?seat=S[&model=M]`: where each of a seat's moves stood in
the advisor's ranking, for a whole finished match, computed once in the background.

A replay page used to ask for each move's advice as the viewer stepped (storms of 503
`busy` under load). Now the first ask starts one job per (match, seat, model), admitted by
the replay gate as a single computation: it loads the log once and computes every move the
advisor ranks, in order, each kept under the same key the per-move route uses
(server/replay/advice.py), so a step's own request finds it kept, or waits for the one
computation under way, and never starts a second. Every ask answers at once with what is
kept so far:

    {"match_id", "seat", "model", "complete", "total", "done", "verdicts": {seq: advice}}

`complete` false means ask again later; the complete answer is kept like any other.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from games.advice import UNIFORM
from games.interface import match_seats
from server.replay.advice import ReplayAdvisor
from server.replay.build import MatchLog, ReplayError, is_finished, load_log
from server.replay.gate import ReplayGate
from server.replay.results import Outcome, ReplayResults, ResultKey

SEAT_CHARS = 16
"""The longest `seat` asked for before the log is read (a perspective's bound)."""
BUSY_RETRIES = 30
"""Times a job asks the replay pool again for one move when it is busy (1 s apart) before
it gives up; the next ask of the route starts it anew from what was kept."""


MAX_FAILED = 1024
JOBS_PER_ADDRESS = 1
"""Verdict jobs one address may have running: one replay page's. A new one from the same
address stops the one before (the person moved on to another replay; what the old job
computed stays kept), so opening replay after replay is never refused. They do not take
the gate's per-address slots, which stay for what the page asks step by step (a move's
advice, the odds layers), so a long job never crowds those out."""
JOBS_AT_ONCE = 4
"""Verdict jobs server-wide at once (each computes in the one replay pool, in turn with the
step-by-step requests)."""


class ReplayVerdicts:
    def __init__(self, advisor: ReplayAdvisor, gate: ReplayGate,
                 results: ReplayResults) -> None:
        self.advisor = advisor
        self.gate = gate
        self.results = results
        self._decisions: dict[ResultKey, list[int]] = {}
        """The seqs each job under way computes (known once its log is loaded)."""
        self._failed: dict[ResultKey, ReplayError] = {}
        """Why a job stopped (not kept: the next ask is told, and the one after starts anew)."""
        self.jobs_started = 0
        self.jobs_superseded = 0
        self._running: dict[str, list[ResultKey]] = {}
        """Each address's jobs under way, oldest first."""

    async def verdicts(self, match_id: str, seat: str | None, model_text: str | None,
                       address: str = "-") -> bytes:
        if not seat or not seat.isascii() or not seat.isalnum() or len(seat) > SEAT_CHARS:
            raise ReplayError(400, "give the seat whose moves to rank: ?seat=S")
        model = model_text or UNIFORM
        key = ResultKey("verdicts", match_id, 0, f"{seat}:{model}")
        kept = self.results.get(key)
        if kept is not None:
            return kept
        failed = self._failed.pop(key, None)
        if failed is not None:
            raise failed
        if self.results.computing(key) is None:
            self.gate.charge(address)
            self._enter(address, key)
            self.jobs_started += 1
            self.results.start(key, lambda: self._job(key, match_id, seat, model),
                               lambda: self._ended(key, address))
            await asyncio.sleep(0)  # let the job load its log and say what it will compute
        return self._progress(key, match_id, seat, model, complete=False)

    def _enter(self, address: str, key: ResultKey) -> None:
        mine = self._running.setdefault(address, [])
        while len(mine) >= JOBS_PER_ADDRESS:  # the page moved on: stop its older job
            older = self.results.computing(mine.pop(0))
            if older is not None:
                older.cancel()
            self.jobs_superseded += 1
        if sum(map(len, self._running.values())) >= JOBS_AT_ONCE:
            if not mine:
                del self._running[address]
            raise ReplayError(503, "the replay workers are busy: retry in a moment",
                              code="busy")
        mine.append(key)

    def _ended(self, key: ResultKey, address: str) -> None:
        self._decisions.pop(key, None)
        mine = self._running.get(address, [])
        if key in mine:
            mine.remove(key)
        if not mine:
            self._running.pop(address, None)

    async def _job(self, key: ResultKey, match_id: str, seat: str, model: str) -> Outcome:
        try:
            log = await asyncio.to_thread(load_log, self.advisor.store, match_id,
                                          self.advisor.games)
            if not is_finished(log.events):
                raise ReplayError(403, "verdicts are for finished matches only: the "
                                       "movers' hands stay hidden while the match is in play")
            seats = match_seats(log.game, log.events[0])
            if seat not in seats:  # a replay's `spectator` or `all` makes no moves to rank
                raise ReplayError(400, f"{seat!r} is not a seat of this match (its seats: "
                                       f"{', '.join(seats)})")
            self._decisions[key] = self.advisor.decisions(log, seat)
            for seq in self._decisions[key]:
                await self._one(log, match_id, seq, model)
        except ReplayError as stopped:
            self._failed[key] = stopped
            while len(self._failed) > MAX_FAILED:  # asks for many bad ids: forget the oldest
                del self._failed[next(iter(self._failed))]
            raise
        return self._progress(key, match_id, seat, model, complete=True)

    async def _one(self, log: MatchLog, match_id: str, seq: int, model: str) -> None:
        """One move's advice, kept under the per-move route's key (computed once)."""
        key = ResultKey("advice", match_id, seq, model)
        for _ in range(BUSY_RETRIES):
            if self.results.get(key) is not None:
                return
            task = self.results.computing(key) or self.results.start(
                key, lambda: self.advisor.compute_on(log, match_id, seq, model))
            try:
                await asyncio.shield(task)
                return
            except ReplayError as passing:  # the pool was busy: not kept, try again
                if passing.code != "busy":
                    raise
            await asyncio.sleep(1.0)
        raise ReplayError(503, "the replay workers stayed busy", code="busy")

    def _progress(self, key: ResultKey, match_id: str, seat: str, model: str,
                  complete: bool) -> bytes:
        seqs = self._decisions.get(key, [])
        verdicts: dict[str, Any] = {}
        for seq in seqs:
            kept = self._kept_advice(match_id, seq, model)
            if kept is not None:
                verdicts[str(seq)] = kept
        body = {"match_id": match_id, "seat": seat, "model": model, "complete": complete,
                "total": len(seqs) if seqs or complete else None, "done": len(verdicts),
                "verdicts": verdicts}
        return json.dumps(body, separators=(",", ":")).encode()

    def _kept_advice(self, match_id: str, seq: int, model: str) -> Any:
        try:
            kept = self.results.get(ResultKey("advice", match_id, seq, model))
        except ReplayError:  # a lasting refusal for that move: no verdict to show
            return None
        return None if kept is None else json.loads(kept)

"""`GET /api/matches/{id}/odds?seq=N&observer=O[&model=M]`: a behaviour layer at a replay step.

What the `odds` request would have answered observer O (a seat, or `spectator`) right after
event N: the log up to N redacted for O (`Game.view`), the behaviour model M its game declares
(games.behaviour; default: its first) computed in the strategy process pool (the replay
pool, as replay advice), never on the event loop. A game that declares none: 422. A seat's
view is only served once its match is over (403 before: its hand is its own while the match
is in play); the spectator's view any time. Answers are kept per (match, seq, observer,
model) (the events up to N never change: server/replay/results.py); new ones pass the
replay gate before the log is loaded (server/replay/gate.py) and run in the replay pool,
never the live bots'.

    {"match_id", "seq", "observer", "model", "label", "status", "exact", "marginals",
     "stderr", "error_95", "ess", "samples", "betas", "elapsed_ms", ...}
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from games.behaviour import odds_seed
from games.registry import GAMES
from games.registry import Registry as Games
from server import strategy_processes
from server.replay.build import ReplayError, is_finished, load_log
from server.replay.gate import ReplayGate, gated
from server.replay.results import Outcome, ReplayResults, ResultKey
from storage import EventStore

REPLAY_WAIT = 10.0
"""Seconds an admitted request waits for the replay pool's worker before 503 `busy`."""


class ReplayOdds:
    """One store's replay odds: answers kept per (match, seq, observer, model), new ones
    admitted by the gate (server/replay/gate.py) before the log is loaded, computed in the
    replay pool."""

    def __init__(self, store: EventStore, games: Games = GAMES, *,
                 gate: ReplayGate | None = None, results: ReplayResults | None = None,
                 deadline: float | None = None) -> None:
        """`deadline`: seconds an asker waits before 503 `busy` (the HTTP route's is below
        the handshake's timeout: server/replay/gate.py); None waits for the answer."""
        self.store = store
        self.games = games
        self.gate = gate if gate is not None else ReplayGate()
        self.results = results if results is not None else ReplayResults()
        self.deadline = deadline

    async def odds(self, match_id: str, seq_text: str | None, observer: str | None,
                   model_text: str | None = None, address: str = "-") -> bytes:
        """The JSON body for the route (raises ReplayError for a refusal)."""
        try:
            seq = int(seq_text or "")
        except ValueError:
            raise ReplayError(400, "give the step's seq: ?seq=N") from None
        if seq < 1:
            raise ReplayError(400, "seq starts at 1")
        seen_by = observer or "spectator"
        key = ResultKey("odds", match_id, seq, f"{seen_by}/{model_text or ''}")
        return await gated(self.gate, self.results, key, address,
                           lambda: self._compute(match_id, seq, seen_by, model_text), self.deadline)

    async def _compute(self, match_id: str, seq: int, observer: str,
                       model_text: str | None) -> Outcome:
        """The body, or a refusal that holds for good (returned); passing ones raised."""
        log = await asyncio.to_thread(load_log, self.store, match_id, self.games)
        game, events = log.game, log.events
        models = game.capabilities.behaviour
        if not models:
            return ReplayError(422, f"{game.name} declares no behaviour model")
        name = model_text or next(iter(models))
        model = models.get(name)
        if model is None:
            return ReplayError(422, f"no model {name!r} for {game.name} (its models: "
                                    f"{', '.join(models)})")
        seats = tuple(dict(getattr(events[0], "players", None) or {}))
        if observer != "spectator" and observer not in seats:
            return ReplayError(400, f"observer is a seat ({', '.join(seats)}) or spectator")
        if observer != "spectator" and not is_finished(events):
            raise ReplayError(403, "a seat's odds in a replay are for finished matches only: "
                                   "its hand stays its own while the match is in play")
        if seq > len(events):
            if is_finished(events):
                return ReplayError(404, f"match {match_id!r} has no seq {seq}")
            raise ReplayError(404, f"match {match_id!r} has no seq {seq} yet")
        seen = [game.event_to_dict(game.view(e, observer)) for e in events[:seq]]
        started = time.monotonic()
        pool = strategy_processes.REPLAYS
        try:
            async with pool.admitted((), REPLAY_WAIT):
                result: dict[str, Any] = await pool.run(
                    strategy_processes.odds_job, model, seen, observer,
                    odds_seed(match_id, seq, observer))
        except strategy_processes.PoolBusy as busy:
            raise ReplayError(503, "the odds workers are busy: retry in a moment",
                              code="busy") from busy
        elapsed = (time.monotonic() - started) * 1000.0
        if "error" in result:
            return ReplayError(422, f"seq {seq}: {result['error']}", seq=seq)
        return json.dumps({"match_id": match_id, **result, "elapsed_ms": round(elapsed, 1)},
                          separators=(",", ":")).encode()

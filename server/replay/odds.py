"""`GET /api/matches/{id}/odds?seq=N&observer=O`: the behaviour layer at a replay step.

What the `odds` request would have answered observer O (a seat, or `spectator`) right after
event N: the log up to N redacted for O (`Game.view`), the behaviour model computed in the
strategy process pool (calibration.live.odds_job, the bots' pool, as replay advice), never
on the event loop. A seat's view is only served once its match is over (403 before: its hand
is its own while the match is in play); the spectator's view any time. Answers are cached
(the events up to N never change); one is computed at a time, a short queue, then 503.

    {"match_id", "seq", "observer", "model", "label", "status", "exact", "marginals",
     "stderr", "error_95", "ess", "samples", "betas", "elapsed_ms", ...}
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import OrderedDict
from typing import Any

from calibration.live import odds_job
from games.registry import GAMES
from games.registry import Registry as Games
from server import strategy_processes
from server.replay.build import ReplayError, is_finished, load_log
from storage import EventStore

CACHE_SIZE = 512
MAX_WAITING = 4


def _seed(match_id: str, seq: int, observer: str) -> int:
    digest = hashlib.sha256(f"odds:{match_id}:{seq}:{observer}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class ReplayOdds:
    """One store's replay odds: answers cached, one computed at a time, a short queue."""

    def __init__(self, store: EventStore, games: Games = GAMES) -> None:
        self.store = store
        self.games = games
        self._cache: OrderedDict[tuple[str, int, str], bytes] = OrderedDict()
        self._lock = asyncio.Lock()
        self._waiting = 0

    async def odds(self, match_id: str, seq_text: str | None, observer: str | None) -> bytes:
        """The JSON body for the route (raises ReplayError for a refusal)."""
        try:
            seq = int(seq_text or "")
        except ValueError:
            raise ReplayError(400, "give the step's seq: ?seq=N") from None
        if seq < 1:
            raise ReplayError(400, "seq starts at 1")
        observer = observer or "spectator"
        key = (match_id, seq, observer)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        log = await asyncio.to_thread(load_log, self.store, match_id, self.games)
        game, events = log.game, log.events
        if game.name != "dominoes":
            raise ReplayError(422, f"the behaviour model covers dominoes, not {game.name}")
        seats = tuple(dict(getattr(events[0], "players", None) or {}))
        if observer != "spectator" and observer not in seats:
            raise ReplayError(400, f"observer is a seat ({', '.join(seats)}) or spectator")
        if observer != "spectator" and not is_finished(events):
            raise ReplayError(403, "a seat's odds in a replay are for finished matches only: "
                                   "its hand stays its own while the match is in play")
        if seq > len(events):
            raise ReplayError(404, f"match {match_id!r} has no seq {seq}")
        seen = [game.event_to_dict(game.view(e, observer)) for e in events[:seq]]
        if self._waiting >= MAX_WAITING:
            raise ReplayError(503, "the odds workers are busy: retry in a moment")
        self._waiting += 1
        try:
            async with self._lock:
                cached = self._cache.get(key)
                if cached is not None:
                    return cached
                started = time.monotonic()
                pool = strategy_processes.BOTS
                try:
                    async with pool.admitted(("replays",), 10.0):
                        result: dict[str, Any] = await pool.run(
                            odds_job, seen, observer, _seed(match_id, seq, observer))
                except strategy_processes.PoolBusy as busy:
                    raise ReplayError(503, "the odds workers are busy: retry in a moment") \
                        from busy
                elapsed = (time.monotonic() - started) * 1000.0
        finally:
            self._waiting -= 1
        if "error" in result:
            raise ReplayError(422, f"seq {seq}: {result['error']}", seq=seq)
        body = json.dumps({"match_id": match_id, **result, "elapsed_ms": round(elapsed, 1)},
                          separators=(",", ":")).encode()
        self._cache[key] = body
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return body

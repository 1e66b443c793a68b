"""`GET /api/matches/{id}/advice?seq=N[&model=M]`: the advisor's view of move N of a finished
match.

The answer is what `advise` would have told the mover just before it moved: the mover's own
view of the events before seq N (`Game.view`), the game's advisor (games.advice; dominoes'
is strategy's, server.strategy_processes.advisor_for) run in the strategy process pool, and
where the move actually made stands in it (`Advisor.verdict`). A seat's hand is only revealed
once its match is over, so this is served for finished matches only (403 otherwise). Answers
are cached (a finished match never changes); at most one is computed at a time, so replays
never take the live tables' advice workers.

    {"match_id", "seq", "hand", "seat", "played", "rank" (1 = the advisor's best; null if
     not ranked), "moves": [...], "label", "elapsed_ms"}

`model` (default `uniform`) is the model of the hidden hands, as `advise` takes it (dominoes
also `behaviour:greedy`; a model the game's advisor does not offer: 422); a dominoes body adds
`model`, `ess`, `pool` and `exact_pool` (strategy.advisor.Advised).

Dominoes' `moves` are [{tile, end, expected_points, p_win_hand, samples, ci, exact_share}];
another game's body adds `advice` (its advisor's whole payload) and the verdict's own fields
(Texas 42 at a bid: the oracle's `trump` and the `cell` of the bid made). Texas 42 is advised
at every bid, trump and play.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import OrderedDict
from typing import Any

from games.advice import UNIFORM, models_of
from games.registry import GAMES
from games.registry import Registry as Games
from server import strategy_processes
from server.replay.build import ReplayError, is_finished, load_log
from server.strategy_processes import STRATEGY_GAMES, advisor_for
from storage import EventStore

CACHE_SIZE = 512
MAX_WAITING = 4
"""Requests queued behind the one being computed before we answer 503 (retry later)."""

def _seed(match_id: str, seq: int, model: str = UNIFORM) -> int:
    text = f"{match_id}:{seq}" if model == UNIFORM else f"{match_id}:{seq}:{model}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _parse_seq(text: str | None) -> int:
    try:
        seq = int(text or "")
    except ValueError:
        raise ReplayError(400, "give the move's seq: ?seq=N") from None
    if seq < 1:
        raise ReplayError(400, "seq starts at 1")
    return seq


class ReplayAdvisor:
    """One store's replay advice: answers cached, one computed at a time, a short queue."""

    def __init__(self, store: EventStore, games: Games = GAMES) -> None:
        self.store = store
        self.games = games
        self._cache: OrderedDict[tuple[str, int, str], bytes] = OrderedDict()
        self._lock = asyncio.Lock()
        self._waiting = 0

    async def advice(self, match_id: str, seq_text: str | None,
                     model_text: str | None = None) -> bytes:
        """The JSON body for the route (raises ReplayError for a refusal)."""
        seq = _parse_seq(seq_text)
        model = model_text or UNIFORM
        key = (match_id, seq, model)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        log = await asyncio.to_thread(load_log, self.store, match_id, self.games)
        game = log.game
        advisor = advisor_for(game)
        if advisor is None:
            raise ReplayError(422, f"move advice is not available for {game.name}")
        if model not in models_of(advisor):
            raise ReplayError(422, f"no model {model!r} for {game.name}'s advice (offered: "
                                   f"{', '.join(models_of(advisor))})")
        events = log.events
        if not is_finished(events):
            raise ReplayError(403, "advice in a replay is for finished matches only: the "
                                   "mover's hand stays hidden while the match is in play")
        if seq > len(events):
            raise ReplayError(404, f"match {match_id!r} has no seq {seq}")
        move: Any = events[seq - 1]
        seat = advisor.decision(move)
        if seat is None:
            raise ReplayError(422, f"seq {seq} is not a move the advisor ranks ({move.type})",
                              seq=seq)
        seen = [game.event_to_dict(game.view(e, seat)) for e in events[: seq - 1]]
        if self._waiting >= MAX_WAITING:
            raise ReplayError(503, "the advisor is busy: retry in a moment")
        self._waiting += 1
        try:
            async with self._lock:
                cached = self._cache.get(key)  # computed while we waited
                if cached is not None:
                    return cached
                started = time.monotonic()
                try:
                    payload = await strategy_processes.game_advice(
                        advisor, seen, seat, _seed(match_id, seq, model),
                        getattr(advisor, "replay_seconds", advisor.seconds),
                        pool=strategy_processes.BOTS, owners=("replays",), wait=10.0,
                        model=model)
                except strategy_processes.PoolBusy as busy:
                    raise ReplayError(503, "the advisor is busy: retry in a moment") from busy
                elapsed = (time.monotonic() - started) * 1000.0
        finally:
            self._waiting -= 1
        hand = getattr(move, "hand", None)
        if hand is None:  # events without a hand number: the hands started before it
            hand = sum(1 for e in events[:seq] if e.type == "hand_started")
        body = _body(match_id, seq, hand, seat, advisor.verdict(payload, move), payload,
                     elapsed, game.name in STRATEGY_GAMES)
        self._cache[key] = body
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return body


def _body(match_id: str, seq: int, hand: int, seat: str, verdict: dict[str, Any],
          payload: dict[str, Any], elapsed: float, strategy_game: bool) -> bytes:
    """The answer: the advisor's moves and where the move actually made stood."""
    moves = [{k: v for k, v in r.items() if k != "label"} for r in payload.get("moves", [])]
    body: dict[str, Any] = {"match_id": match_id, "seq": seq, "hand": hand, "seat": seat,
                            **verdict, "moves": moves, "label": payload["label"],
                            "elapsed_ms": round(elapsed, 1)}
    if strategy_game:
        body.update({k: payload.get(k) for k in ("model", "ess", "pool", "exact_pool")})
    else:
        body["advice"] = payload
    return json.dumps(body, separators=(",", ":")).encode()

"""`GET /api/matches/{id}/advice?seq=N[&model=M]`: the advisor's view of move N of a finished
match.

The answer is what `advise` would have told the mover just before it moved: the mover's own
view of the events before seq N (`Game.view`), the advisor its game declares (games.advice,
`Capabilities.advisor`) run in the strategy process pool, and
where the move actually made stands in it (`Advisor.verdict`). A seat's hand is only revealed
once its match is over, so this is served for finished matches only (403 otherwise). Answers
are kept per (match, seq, model) (server/replay/results.py: a finished match never changes);
new ones pass the replay gate first (a rate and a few at a time per address, a bound
server-wide, all before the log is loaded: server/replay/gate.py) and run in the replay
pool, so replays never take the live tables' bot or advice workers.

    {"match_id", "seq", "hand", "seat", "played", "rank" (1 = the advisor's best; null if
     not ranked), "moves": [...], "label", "elapsed_ms"}

`model` (default `uniform`) is the model of the hidden hands, as `advise` takes it (a model
the game's advisor does not offer: 422). A `flat` advisor's body (games.advice) adds `model`,
`ess`, `pool` and `exact_pool`, its `moves` as the advisor ranked them (e.g. [{tile, end,
expected_points, p_win_hand, samples, ci, exact_share}]); another advisor's body adds
`advice` (its whole payload) and the verdict's own fields (e.g. at a bid: the oracle's `trump`
and the `cell` of the bid made).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace
from typing import Any

from games.advice import UNIFORM, advisor_of, flat, models_of, position_key
from games.registry import GAMES
from games.registry import Registry as Games
from server import strategy_processes
from server.advice_memo import AdviceMemo, KeptAdvice, advice_seed
from server.replay.build import MatchLog, ReplayError, is_finished, load_log
from server.replay.gate import ReplayGate, gated
from server.replay.results import Outcome, ReplayResults, ResultKey
from storage import EventStore

REPLAY_WAIT = 10.0
"""Seconds an admitted request waits for the replay pool's worker before 503 `busy`."""
PROGRESS_WAIT = 0.5
"""Seconds a request with `progress=1` waits for the answer before it is told 202
`computing` with the answer as it stands (an advisor that streams: the page asks again and
draws the table growing, as the live table's does)."""


def _parse_seq(text: str | None) -> int:
    try:
        seq = int(text or "")
    except ValueError:
        raise ReplayError(400, "give the move's seq: ?seq=N") from None
    if seq < 1:
        raise ReplayError(400, "seq starts at 1")
    return seq


class ReplayAdvisor:
    """One store's replay advice: answers kept per (match, seq, model), new ones admitted
    by the gate (server/replay/gate.py) before the log is loaded, computed in the replay
    pool."""

    def __init__(self, store: EventStore, games: Games = GAMES, *,
                 gate: ReplayGate | None = None, results: ReplayResults | None = None,
                 deadline: float | None = None, memo: AdviceMemo | None = None,
                 kept: KeptAdvice | None = None) -> None:
        """`deadline`: seconds an asker waits before 503 `busy` (the HTTP route's is below
        the handshake's timeout: server/replay/gate.py); None waits for the answer. `memo`:
        advice already computed for a move (live, at the table), read before solving.
        `kept`: answers named by position in the store's database (server/advice_memo.py),
        read before solving and written after: a replay after a restart, or on another
        server on the same database, shows them at once."""
        self.store = store
        self.games = games
        self.gate = gate if gate is not None else ReplayGate()
        self.results = results if results is not None else ReplayResults()
        self.deadline = deadline
        self.memo = memo if memo is not None else AdviceMemo()
        self.kept = kept
        self.partials: dict[ResultKey, dict[str, Any]] = {}
        """The latest partial body of each computation under way (gone when it ends, so
        bounded by the gate's computations at once)."""

    async def advice(self, match_id: str, seq_text: str | None,
                     model_text: str | None = None, address: str = "-",
                     progress: bool = False) -> bytes:
        """The JSON body for the route (raises ReplayError for a refusal). `progress`: wait
        at most PROGRESS_WAIT, then answer 202 `computing` with the partial body so far."""
        seq = _parse_seq(seq_text)
        model = model_text or UNIFORM
        key = ResultKey("advice", match_id, seq, model)
        deadline = self.deadline
        if progress:
            deadline = PROGRESS_WAIT if deadline is None else min(deadline, PROGRESS_WAIT)
        try:
            return await gated(self.gate, self.results, key, address,
                               lambda: self._compute(match_id, seq, model), deadline)
        except ReplayError as refusal:
            partial = self.partials.get(key)
            if refusal.status != 202 or partial is None:
                raise
            raise replace(refusal, partial=partial) from None

    async def _compute(self, match_id: str, seq: int, model: str) -> Outcome:
        """The body, or a refusal that holds for good (returned); passing ones raised."""
        log = await asyncio.to_thread(load_log, self.store, match_id, self.games)
        return await self.compute_on(log, match_id, seq, model)

    def decisions(self, log: MatchLog, seat: str) -> list[int]:
        """The seqs of `seat`'s moves that its game's advisor ranks (none: no advisor)."""
        advisor = advisor_of(log.game)
        if advisor is None:
            return []
        return [e.seq for e in log.events if advisor.decision(e) == seat]

    async def compute_on(self, log: MatchLog, match_id: str, seq: int, model: str) -> Outcome:
        """As `_compute`, on a log already loaded (a match's verdicts load it once)."""
        game = log.game
        advisor = advisor_of(game)
        if advisor is None:
            return ReplayError(422, f"move advice is not available for {game.name}")
        if model not in models_of(advisor):
            return ReplayError(422, f"no model {model!r} for {game.name}'s advice (offered: "
                                    f"{', '.join(models_of(advisor))})")
        events = log.events
        if not is_finished(events):
            raise ReplayError(403, "advice in a replay is for finished matches only: the "
                                   "mover's hand stays hidden while the match is in play")
        if seq > len(events):
            return ReplayError(404, f"match {match_id!r} has no seq {seq}")
        move: Any = events[seq - 1]
        seat = advisor.decision(move)
        if seat is None:
            return ReplayError(422, f"seq {seq} is not a move the advisor ranks "
                                    f"({move.type})", seq=seq)
        seen = [game.event_to_dict(game.view(e, seat)) for e in events[: seq - 1]]
        started = time.monotonic()
        payload = self.memo.get((match_id, seq, seat, model))
        position = (position_key(advisor, seen, seat, model)
                    if payload is None and self.kept is not None else None)
        if position is not None and self.kept is not None:
            payload = await self.kept.get(position)
            if payload is not None:
                self.memo.keep((match_id, seq, seat, model), payload)
        if payload is None:
            key = ResultKey("advice", match_id, seq, model)
            hand = _hand_of(events, seq)

            def grown(partial: dict[str, Any]) -> None:
                self.partials[key] = json.loads(_body(
                    match_id, seq, hand, seat, advisor.verdict(partial, move), partial,
                    (time.monotonic() - started) * 1000.0, flat(advisor)))

            try:
                payload = await strategy_processes.game_advice(
                    advisor, seen, seat, advice_seed(match_id, seq, model),
                    getattr(advisor, "replay_seconds", advisor.seconds),
                    pool=strategy_processes.REPLAYS, wait=REPLAY_WAIT, model=model,
                    progress=grown)
            except strategy_processes.PoolBusy as busy:
                raise ReplayError(503, "the advisor is busy: retry in a moment",
                                  code="busy") from busy
            finally:
                self.partials.pop(key, None)
            self.memo.keep((match_id, seq, seat, model), payload)
            if position is not None and self.kept is not None:
                await self.kept.put(position, payload)
        elapsed = (time.monotonic() - started) * 1000.0
        return _body(match_id, seq, _hand_of(events, seq), seat, advisor.verdict(payload, move),
                     payload, elapsed, flat(advisor))


def _hand_of(events: list[Any], seq: int) -> int:
    """The hand move `seq` is in: its own number, else the hands started before it."""
    hand = getattr(events[seq - 1], "hand", None)
    if hand is None:
        hand = sum(1 for e in events[:seq] if e.type == "hand_started")
    return int(hand)


def _body(match_id: str, seq: int, hand: int, seat: str, verdict: dict[str, Any],
          payload: dict[str, Any], elapsed: float, flat_advice: bool) -> bytes:
    """The answer: the advisor's moves and where the move actually made stood."""
    moves = [{k: v for k, v in r.items() if k != "label"} for r in payload.get("moves", [])]
    body: dict[str, Any] = {"match_id": match_id, "seq": seq, "hand": hand, "seat": seat,
                            **verdict, "moves": moves, "label": payload["label"],
                            "elapsed_ms": round(elapsed, 1)}
    if flat_advice:
        body.update({k: payload.get(k) for k in ("model", "ess", "pool", "exact_pool")})
    else:
        body["advice"] = payload
    return json.dumps(body, separators=(",", ":")).encode()

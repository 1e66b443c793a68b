"""Live advice: `advise {table_id}` from a seated player -> `advice {seq, ..., label}`.

Any game that declares an advisor (games.advice, `Capabilities.advisor`) answers. The
advisor sees exactly what the asking seat sees: the table's log redacted for that seat
(`Game.view`), sent as JSON-able dicts to a worker process (server/strategy_processes.py,
the `advice` pool, with its fair shares) under the advisor's own time budget, so the event
loop (every other table and socket) never waits for it. The request is checked at once
(typed errors: `unauthorized`, `advice_disabled`, `wrong_phase`, `not_your_turn`,
`no_choice`, `rate_limited`, `unknown_model`); the answer is sent when ready, without holding
up the connection's other messages. One request per seat may be in flight.

`model` picks the model of the hidden hands the advisor draws its deals from: `uniform`
(default; every advisor) or one its `models` lists (e.g. a behaviour model); anything else is
`unknown_model`. The reply names its `model` and the deals' `ess`.

`progress: true` asks for the answer as it grows: an advisor that streams
(games.advice.advise_steps; Texas 42's bidding oracle, its table every 25 completions) has
each partial payload sent as `advice_progress` (the request's id, at most MAX_PROGRESS) before
the `advice` frame, which is unchanged. An answer kept (the memo, or the store's database by
position: server/advice_memo.py) is sent at once, with no progress.

A `flat` advisor's payload fills the message's own fields (`moves`: every legal move ranked,
`model`, `ess`, `pool`, `exact_pool`: the message's first shape); another advisor's payload
travels whole in `advice` (e.g. a bidding oracle's table while bidding, ranked plays while
playing). Every figure is labelled with its model and evaluator (`label`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from games.advice import (
    UNIFORM,
    AdviceRefused,
    Advisor,
    advisor_of,
    flat,
    models_of,
    position_key,
)
from games.interface import Game
from games.registry import GAMES
from games.registry import Registry as Games
from protocol import (
    AdviceMessage,
    AdviceMove,
    AdviceProgress,
    Advise,
    ErrorMessage,
    ProtocolError,
)
from server import strategy_processes
from server.advice_memo import AdviceMemo, KeptAdvice, advice_seed
from server.logs import log
from server.tables.interface import TableHandle

TIMEOUT_MARGIN = 20.0
"""Give up (error `busy`) if the worker has not answered within its budget plus this: a
give-up bound for a stuck or starved worker (an advisor may overrun its budget by one unit of
work: a bidding oracle that always solves its first completion, a few seconds on a busy
machine)."""

Send = Callable[[str], None]
"""Queues one frame on the asking connection."""

_FIELDS = tuple(AdviceMove.model_fields)
MAX_PROGRESS = 8
"""`advice_progress` frames one request may get (Texas 42's oracle sends 5 at N = 150)."""


async def advice_offered(table: TableHandle) -> bool:
    """Whether `table` was created with `advice: true`."""
    config = await table.table_config()
    if config is not None and config.advice:
        strategy_processes.warm_up(strategy_processes.ADVICE)  # a seat will ask: have workers ready
        return True
    return False


def reply_of(advisor: Advisor, message: Advise, table_id: str, seat: str, seq: int,
             payload: dict[str, Any], elapsed: float) -> AdviceMessage:
    """The `advice` frame: a flat advisor's ranked moves in its fields, another's payload as
    is (games.advice)."""
    if flat(advisor):
        rows = payload["moves"]
        return AdviceMessage(
            id=message.id, table_id=table_id, seat=seat, seq=seq,
            moves=[AdviceMove(**{k: row[k] for k in _FIELDS}) for row in rows],
            label=payload["label"], elapsed_ms=round(elapsed, 1),
            model=payload.get("model", UNIFORM), ess=payload.get("ess"),
            pool=payload.get("pool"), exact_pool=payload.get("exact_pool"))
    return AdviceMessage(id=message.id, table_id=table_id, seat=seat, seq=seq, moves=[],
                         label=payload["label"], elapsed_ms=round(elapsed, 1), advice=payload)


def dump(reply: AdviceMessage) -> str:
    """The frame as JSON; a flat advisor's has no `advice` field, another's none of the flat
    shape's deal-model fields unless it set them."""
    unset = {"advice", "model", "ess", "pool", "exact_pool"}
    return reply.model_dump_json(exclude={k for k in unset if getattr(reply, k, None) is None}
                                 or None)


class AdviceDesk:
    """The server's advice requests in flight: one per (table, seat), answered by tasks."""

    def __init__(self, games: Games = GAMES, memo: AdviceMemo | None = None) -> None:
        self.games = games
        self.memo = memo if memo is not None else AdviceMemo()
        """Answers kept for the replay of the same move (the same seed: the same answer)."""
        self.kept: KeptAdvice | None = None
        """Answers named by their position, kept in the store's database (set once the
        server's store is open): read before computing, written after."""
        self.in_flight: set[tuple[str, str]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, audience: str | None, send: Send, message: Advise,
                    table: TableHandle, asker: str) -> None:
        """Check the request now (raising ProtocolError); compute and send the answer later.

        `audience` is what the asking connection is attached to this table as (None: not);
        `asker` names the connection among the workers' owners (Session.asker).
        """
        if audience is None or audience == "spectator":
            raise ProtocolError("unauthorized", "advice is for a seated player: join or "
                                                "resume a seat at this table first")
        if not await advice_offered(table):
            raise ProtocolError("advice_disabled", "this table was created without advice")
        config = await table.table_config()
        assert config is not None  # advice_offered read it
        game = self.games.game_of_variant(config.variant)
        advisor = advisor_of(game)
        if advisor is None:
            raise ProtocolError("advice_disabled", f"{game.name} offers no advice")
        model = getattr(message, "model", UNIFORM)
        if model not in models_of(advisor):
            raise ProtocolError("unknown_model", f"no model {model!r} for {game.name}'s "
                                f"advice (offered: {', '.join(models_of(advisor))})")
        events = await table.referee_log()
        state: Any = None
        for event in events:
            state = game.evolve(state, event)
        try:
            advisor.check(state, audience)
        except AdviceRefused as refused:
            raise ProtocolError(refused.code, refused.message) from None
        seat = audience
        key = (table.table_id, seat)
        if key in self.in_flight:
            raise ProtocolError("rate_limited",
                                "advice for this seat is already being computed")
        self.in_flight.add(key)
        seen = [game.event_to_dict(game.view(e, seat)) for e in events]
        task = asyncio.get_running_loop().create_task(
            self._answer(send, message, game, advisor, table.table_id, seat, len(events),
                         seen, asker)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    def _progress_sender(send: Send, message: Advise, table_id: str, seat: str, seq: int,
                         started: float) -> Callable[[dict[str, Any]], None]:
        """Sends each partial payload as an `advice_progress` frame, at most MAX_PROGRESS."""
        sent = 0

        def on_progress(payload: dict[str, Any]) -> None:
            nonlocal sent
            if sent >= MAX_PROGRESS:
                return
            sent += 1
            elapsed = (time.monotonic() - started) * 1000.0
            send(AdviceProgress(id=message.id, table_id=table_id, seat=seat, seq=seq,
                                step=sent, label=payload.get("label", ""),
                                elapsed_ms=round(elapsed, 1), advice=payload
                                ).model_dump_json())

        return on_progress

    async def _answer(self, send: Send, message: Advise, game: Game, advisor: Advisor,
                      table_id: str, seat: str, seq: int, events: list[dict[str, Any]],
                      asker: str = "-") -> None:
        started = time.monotonic()
        try:
            model = getattr(message, "model", UNIFORM)
            key = (table_id, seq + 1, seat, model)  # the move being decided is the next seq
            payload = self.memo.get(key)
            position = (position_key(advisor, events, seat, model)
                        if payload is None and self.kept is not None else None)
            if position is not None and self.kept is not None:
                payload = await self.kept.get(position)
                if payload is not None:
                    self.memo.keep(key, payload)
            if payload is None:
                progress = (self._progress_sender(send, message, table_id, seat, seq, started)
                            if getattr(message, "progress", False) and not flat(advisor)
                            else None)
                payload = await asyncio.wait_for(
                    strategy_processes.game_advice(advisor, events, seat,
                                                   advice_seed(table_id, seq + 1, model),
                                                   owners=(f"table:{table_id}", asker),
                                                   model=model, progress=progress),
                    advisor.seconds + TIMEOUT_MARGIN,
                )
                self.memo.keep(key, payload)
                if position is not None and self.kept is not None:
                    await self.kept.put(position, payload)
            elapsed = (time.monotonic() - started) * 1000.0
            reply = reply_of(advisor, message, table_id, seat, seq, payload, elapsed)
            log("advice", table=table_id, seat=seat, seq=seq, kind=payload.get("kind", "-"),
                model=payload.get("model", UNIFORM), ms=round(elapsed, 1))
            send(dump(reply))
        except (strategy_processes.PoolBusy, TimeoutError) as busy:  # shared workers
            log("advice_busy", table=table_id, seat=seat, reason=str(busy) or "timeout")
            send(ErrorMessage(id=message.id, code="busy", message="the advisor is busy with "
                              "other tables; ask again in a moment").model_dump_json())
        except Exception as error:
            log("advice_failed", table=table_id, seat=seat, error=repr(error))
            send(ErrorMessage(id=message.id, code="internal",
                              message="the advisor failed; try again").model_dump_json())
        finally:
            self.in_flight.discard((table_id, seat))

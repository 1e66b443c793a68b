"""Live advice: `advise {table_id}` from a seated player -> `advice {seq, ..., label}`.

Any game whose `advisor()` exists (games.advice; dominoes' is strategy's move advisor, see
server.strategy_processes.advisor_for) answers. The advisor sees exactly what the asking seat
sees: the table's log redacted for that seat (`Game.view`), sent as JSON-able dicts to a worker
process (server/strategy_processes.py, the `advice` pool, with its fair shares) under the
advisor's own time budget, so the event loop (every other table and socket) never waits for
it. The request is checked at once (typed errors: `unauthorized`, `advice_disabled`,
`wrong_phase`, `not_your_turn`, `no_choice`, `rate_limited`, `unknown_model`); the answer is
sent when ready, without holding up the connection's other messages. One request per seat may
be in flight.

`model` picks the model of the hidden hands the advisor draws its deals from: `uniform`
(default; every advisor) or one its `models` lists (dominoes: `behaviour:greedy`, pimc over
the behaviour posterior, the same weighting the pimc-behaviour bot uses); anything else is
`unknown_model`. The reply names its `model` and the deals' `ess`.

Dominoes' reply keeps its shape (`moves`: every legal move ranked); another game's advice
is its advisor's own JSON payload in `advice` (Texas 42: the bidding oracle's table while
bidding, ranked plays while playing). Every figure is labelled with its model and evaluator
(`label`).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

from games.advice import UNIFORM, AdviceRefused, Advisor, models_of
from games.interface import Game
from games.registry import GAMES
from games.registry import Registry as Games
from server import strategy_processes
from server.logs import log
from server.protocol import (
    AdviceMessage,
    AdviceMove,
    Advise,
    ErrorMessage,
    ProtocolError,
)
from server.tables.interface import TableHandle

TIMEOUT_MARGIN = 20.0
"""Give up (error `busy`) if the worker has not answered within its budget plus this: a
give-up bound for a stuck or starved worker (an advisor may overrun its budget by one unit of
work: Texas 42's oracle always solves its first completion, a few seconds on a busy machine)."""

Send = Callable[[str], None]
"""Queues one frame on the asking connection."""

_FIELDS = tuple(AdviceMove.model_fields)


async def advice_offered(table: TableHandle) -> bool:
    """Whether `table` was created with `advice: true`."""
    config = await table.table_config()
    if config is not None and config.advice:
        strategy_processes.warm_up(strategy_processes.ADVICE)  # a seat will ask: have workers ready
        return True
    return False


def reply_of(game: Game, message: Advise, table_id: str, seat: str, seq: int,
             payload: dict[str, Any], elapsed: float) -> AdviceMessage:
    """The `advice` frame: dominoes' ranked moves as before, another game's payload as is."""
    if game.name in strategy_processes.STRATEGY_GAMES:
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
    """The frame as JSON; dominoes' has no `advice` field, another game's none of dominoes'
    deal-model fields unless it set them."""
    unset = {"advice", "model", "ess", "pool", "exact_pool"}
    return reply.model_dump_json(exclude={k for k in unset if getattr(reply, k, None) is None}
                                 or None)


class AdviceDesk:
    """The server's advice requests in flight: one per (table, seat), answered by tasks."""

    def __init__(self, games: Games = GAMES) -> None:
        self.games = games
        self.in_flight: set[tuple[str, str]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, audience: str | None, send: Send, message: Advise,
                    table: TableHandle) -> None:
        """Check the request now (raising ProtocolError); compute and send the answer later.

        `audience` is what the asking connection is attached to this table as (None: not).
        """
        if audience is None or audience == "spectator":
            raise ProtocolError("unauthorized", "advice is for a seated player: join or "
                                                "resume a seat at this table first")
        if not await advice_offered(table):
            raise ProtocolError("advice_disabled", "this table was created without advice")
        config = await table.table_config()
        assert config is not None  # advice_offered read it
        game = self.games.game_of_variant(config.variant)
        advisor = strategy_processes.advisor_for(game)
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
            raise ProtocolError(refused.code, refused.message) from None  # type: ignore[arg-type]
        seat = audience
        key = (table.table_id, seat)
        if key in self.in_flight:
            raise ProtocolError("rate_limited",
                                "advice for this seat is already being computed")
        self.in_flight.add(key)
        seen = [game.event_to_dict(game.view(e, seat)) for e in events]
        asker = f"connection:{id(getattr(send, '__self__', send))}"
        task = asyncio.get_running_loop().create_task(
            self._answer(send, message, game, advisor, table.table_id, seat, len(events),
                         seen, asker)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, send: Send, message: Advise, game: Game, advisor: Advisor,
                      table_id: str, seat: str, seq: int, events: list[dict[str, Any]],
                      asker: str = "-") -> None:
        started = time.monotonic()
        try:
            payload = await asyncio.wait_for(
                strategy_processes.game_advice(advisor, events, seat, secrets.randbits(62),
                                               owners=(f"table:{table_id}", asker),
                                               model=getattr(message, "model", UNIFORM)),
                advisor.seconds + TIMEOUT_MARGIN,
            )
            elapsed = (time.monotonic() - started) * 1000.0
            reply = reply_of(game, message, table_id, seat, seq, payload, elapsed)
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

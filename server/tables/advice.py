"""Live move advice: `advise {table_id}` from a seated player -> `advice {seq, moves, label}`.

The advisor (strategy.advisor.advise) sees exactly what the asking seat sees: the table's log
redacted for that seat (games.dominoes.audience.view), sent as JSON-able dicts to a worker process
(server/strategy_processes.py, the `advice` pool) with a 0.8 s budget, so the answer comes in about
a second and the event loop (every other table and socket) never waits for it. The request
is checked at once (typed errors: `unauthorized`, `advice_disabled`, `wrong_phase`,
`not_your_turn`, `no_choice`, `rate_limited`); the answer is sent when ready, without holding
up the connection's other messages. One request per seat may be in flight.

The figures are an optimistic perfect-information estimate (each sampled deal is solved with
every hand open) and the reply says so in `label`.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

from games.dominoes.audience import view
from games.dominoes.events import event_to_dict
from games.dominoes.rules import evolve, legal_moves
from games.dominoes.state import MatchState
from games.dominoes.tiles import Seat
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
from strategy.advisor import LABEL

TIMEOUT = 10.0
"""Give up (error `busy`) if the worker has not answered by then."""

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


class AdviceDesk:
    """The server's advice requests in flight: one per (table, seat), answered by tasks."""

    def __init__(self) -> None:
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
        events = await table.referee_log()
        state: MatchState | None = None
        for event in events:
            state = evolve(state, event)
        if state is None or state.phase != "playing" or state.hand is None:
            raise ProtocolError("wrong_phase", "no hand is in play")
        seat = state.hand.turn
        if seat != audience:
            raise ProtocolError("not_your_turn", f"advice is for the seat to play ({seat})")
        if not legal_moves(state, seat):
            raise ProtocolError("no_choice", "you have no tile that fits: pass")
        key = (table.table_id, seat)
        if key in self.in_flight:
            raise ProtocolError("rate_limited",
                                "advice for this seat is already being computed")
        self.in_flight.add(key)
        seen = [event_to_dict(view(e, seat)) for e in events]
        asker = f"connection:{id(getattr(send, '__self__', send))}"
        task = asyncio.get_running_loop().create_task(
            self._answer(send, message, table.table_id, seat, len(events), seen, asker)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, send: Send, message: Advise, table_id: str, seat: Seat, seq: int,
                      events: list[dict[str, Any]], asker: str = "-") -> None:
        started = time.monotonic()
        try:
            rows = await asyncio.wait_for(
                strategy_processes.advise_rows(events, seat, secrets.randbits(62),
                                               owners=(f"table:{table_id}", asker)), TIMEOUT
            )
            elapsed = (time.monotonic() - started) * 1000.0
            reply = AdviceMessage(
                id=message.id, table_id=table_id, seat=seat, seq=seq,
                moves=[AdviceMove(**{k: row[k] for k in _FIELDS}) for row in rows],
                label=LABEL, elapsed_ms=round(elapsed, 1),
            )
            log("advice", table=table_id, seat=seat, seq=seq, moves=len(rows),
                ms=round(elapsed, 1))
            send(reply.model_dump_json())
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

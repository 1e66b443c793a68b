"""Live move advice: `advise {table_id}` from a seated player -> `advice {seq, moves, label}`.

The advisor (strategy.advisor.advise) sees exactly what the asking seat sees: the table's log
redacted for that seat (games.dominoes.audience.view), sent as JSON-able dicts to a worker process
(server/strategy_pool.py, the `advice` pool) with a 0.8 s budget, so the answer comes in about
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
from typing import TYPE_CHECKING, Any

from games.dominoes.audience import view
from games.dominoes.events import Event, event_to_dict, parse_event
from games.dominoes.rules import evolve, legal_moves
from games.dominoes.state import MatchState
from server import strategy_pool
from server.logs import log
from server.protocol import (
    AdviceMessage,
    AdviceMove,
    Advise,
    ErrorMessage,
    ProtocolError,
)
from strategy.advisor import LABEL

if TYPE_CHECKING:
    from server.session import Session, TableHandle

TIMEOUT = 10.0
"""Give up (error `internal`) if the worker has not answered by then."""

_in_flight: set[tuple[str, str]] = set()
_tasks: set[asyncio.Task[None]] = set()
_FIELDS = tuple(AdviceMove.model_fields)


async def _table_config(table: TableHandle) -> Any:
    config = getattr(table, "config", None)
    if config is not None:
        return config
    cluster = getattr(table, "cluster", None)  # a RemoteTable: the config is in the store
    if cluster is None:
        return None
    from server.table import TableConfig, seats_stream

    stored = await asyncio.to_thread(cluster.store.read, seats_stream(table.table_id), 0, 1)
    if not stored or stored[0].payload.get("type") != "table_created":
        return None
    return TableConfig.from_record(stored[0].payload)


async def advice_offered(table: TableHandle) -> bool:
    """Whether `table` was created with `advice: true`."""
    config = await _table_config(table)
    if config is not None and config.advice:
        strategy_pool.warm_up(strategy_pool.ADVICE)  # a seat will ask: have workers ready
        return True
    return False


async def _snapshot(table: TableHandle) -> tuple[list[Event], MatchState | None]:
    """The referee's log and state now (a RemoteTable's from the store)."""
    if hasattr(table, "log"):
        return list(table.log), table.state  # type: ignore[union-attr]
    cluster = table.cluster  # type: ignore[union-attr]

    def read() -> tuple[list[Event], MatchState | None]:
        events = [parse_event(e.payload) for e in cluster.store.read(table.table_id)]
        state = None
        for event in events:
            state = evolve(state, event)
        return events, state

    return await asyncio.to_thread(read)


async def start_advice(session: Session, message: Advise, table: TableHandle) -> None:
    """Check the request now (raising ProtocolError); compute and send the answer later."""
    attachment = session.attachments.get(table.table_id)
    if attachment is None or attachment.audience == "spectator":
        raise ProtocolError("unauthorized", "advice is for a seated player: join or resume "
                                            "a seat at this table first")
    seat = attachment.audience
    if not await advice_offered(table):
        raise ProtocolError("advice_disabled", "this table was created without advice")
    events, state = await _snapshot(table)
    if state is None or state.phase != "playing" or state.hand is None:
        raise ProtocolError("wrong_phase", "no hand is in play")
    if state.hand.turn != seat:
        raise ProtocolError("not_your_turn", f"advice is for the seat to play ({state.hand.turn})")
    if not legal_moves(state, seat):  # type: ignore[arg-type]
        raise ProtocolError("no_choice", "you have no tile that fits: pass")
    key = (table.table_id, seat)
    if key in _in_flight:
        raise ProtocolError("rate_limited", "advice for this seat is already being computed")
    _in_flight.add(key)
    seen = [event_to_dict(view(e, seat)) for e in events]  # type: ignore[arg-type]
    task = asyncio.get_running_loop().create_task(
        _answer(session, message, table.table_id, seat, len(events), seen)
    )
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def _answer(session: Session, message: Advise, table_id: str, seat: str, seq: int,
                  events: list[dict[str, Any]]) -> None:
    started = time.monotonic()
    try:
        rows = await asyncio.wait_for(
            strategy_pool.advise_rows(events, seat, secrets.randbits(62)), TIMEOUT
        )
        elapsed = (time.monotonic() - started) * 1000.0
        reply = AdviceMessage(
            id=message.id, table_id=table_id, seat=seat, seq=seq,  # type: ignore[arg-type]
            moves=[AdviceMove(**{k: row[k] for k in _FIELDS}) for row in rows],
            label=LABEL, elapsed_ms=round(elapsed, 1),
        )
        log("advice", table=table_id, seat=seat, seq=seq, moves=len(rows),
            ms=round(elapsed, 1))
        session.send(reply.model_dump_json())
    except Exception as error:
        log("advice_failed", table=table_id, seat=seat, error=repr(error))
        session.send(ErrorMessage(id=message.id, code="internal",
                                  message="the advisor failed; try again").model_dump_json())
    finally:
        _in_flight.discard((table_id, seat))

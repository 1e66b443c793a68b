"""The `odds` request: the asker's own view under the behaviour model, beside the exact belief.

`odds {table_id, model: "behaviour:greedy"}` from a connection attached to a dominoes table
(as a seat, or watching) -> `odds_belief {seq, observer, model, label, marginals, stderr,
error_95, ess, ...}` (calibration.live.behaviour_odds). It never replaces the `belief` feed
(the exact uniform belief); it is a second, labelled layer a client asks for.

What crosses to the worker is the table's log redacted for the asker's audience (its seat's
view, or the spectator's), exactly what that connection is sent, so the answer cannot hold
a tile it may not see. The work runs in the live advice pool (server/strategy_processes.py)
under the same admission as advice: one job per connection, one per table for odds, a
bounded wait, `busy` when no worker comes; the event loop never computes it. Typed errors:
`unknown_model`, `unauthorized` (not attached), `wrong_phase` (no hand in play),
`rate_limited` (this connection already has one in flight), `busy`.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

from calibration.live import MODELS, odds_job
from games.dominoes.audience import view
from games.dominoes.events import event_to_dict
from games.dominoes.rules import evolve
from games.dominoes.state import MatchState
from games.dominoes.variants import VARIANTS as DOMINO_VARIANTS
from server import strategy_processes
from server.logs import log
from server.protocol import ErrorMessage, Odds, OddsBelief, ProtocolError
from server.tables.interface import TableHandle

TIMEOUT = 10.0
"""Give up (error `busy`) if the worker has not answered by then."""

Send = Callable[[str], None]


class OddsDesk:
    """The server's odds requests in flight: one per connection and table, answered by tasks."""

    def __init__(self) -> None:
        self.in_flight: set[tuple[str, str]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, audience: str | None, send: Send, message: Odds,
                    table: TableHandle) -> None:
        """Check the request now (raising ProtocolError); compute and send the answer later.
        `audience`: the asking connection's seat at this table, 'spectator', or None."""
        if message.model not in MODELS:
            raise ProtocolError("unknown_model", f"no model {message.model!r} (offered: "
                                f"{', '.join(MODELS)}; the exact uniform belief is the "
                                "`belief` feed)")
        if audience is None:
            raise ProtocolError("unauthorized", "join, resume or watch this table first")
        config = await table.table_config()
        if config is None or config.variant not in DOMINO_VARIANTS:
            raise ProtocolError("unknown_model", f"{message.model} models dominoes players "
                                                 "only")
        events = await table.referee_log()
        state: MatchState | None = None
        for event in events:
            state = evolve(state, event)
        if state is None or state.phase != "playing" or state.hand is None:
            raise ProtocolError("wrong_phase", "no hand is in play")
        asker = f"connection:{id(getattr(send, '__self__', send))}"
        key = (table.table_id, asker)
        if key in self.in_flight:
            raise ProtocolError("rate_limited", "your odds for this table are already being "
                                                "computed")
        self.in_flight.add(key)
        seen = [event_to_dict(view(e, audience)) for e in events]  # type: ignore[arg-type]
        task = asyncio.get_running_loop().create_task(
            self._answer(send, message, table.table_id, audience, seen, asker))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, send: Send, message: Odds, table_id: str, audience: str,
                      events: list[dict[str, Any]], asker: str) -> None:
        started = time.monotonic()
        pool = strategy_processes.ADVICE
        try:
            async with pool.admitted((f"odds:{table_id}", asker), strategy_processes.ADVICE_WAIT):
                result = await asyncio.wait_for(
                    pool.run(odds_job, events, audience, secrets.randbits(62)), TIMEOUT)
            if "error" in result:
                send(ErrorMessage(id=message.id, code="wrong_phase",
                                  message=str(result["error"])).model_dump_json())
                return
            elapsed = round((time.monotonic() - started) * 1000.0, 1)
            reply = OddsBelief(id=message.id, table_id=table_id, elapsed_ms=elapsed,
                               **{k: v for k, v in result.items()
                                  if k in OddsBelief.model_fields})
            log("odds", table=table_id, observer=audience, seq=reply.seq, ess=reply.ess,
                exact=reply.exact, ms=elapsed)
            send(reply.model_dump_json())
        except (strategy_processes.PoolBusy, TimeoutError) as busy:
            log("odds_busy", table=table_id, observer=audience, reason=str(busy) or "timeout")
            send(ErrorMessage(id=message.id, code="busy", message="the odds workers are busy "
                              "with other tables; ask again in a moment").model_dump_json())
        except Exception as error:
            log("odds_failed", table=table_id, observer=audience, error=repr(error))
            send(ErrorMessage(id=message.id, code="internal",
                              message="the odds failed; try again").model_dump_json())
        finally:
            self.in_flight.discard((table_id, asker))

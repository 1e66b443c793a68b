"""The `odds` request: the asker's own view under a behaviour model, beside the exact belief.

`odds {table_id, model}` from a connection attached to a table (as a seat, or watching) whose
game declares that behaviour model (games.behaviour, `Capabilities.behaviour`, e.g.
`behaviour:greedy`) -> `odds_belief {seq, observer, model, label, marginals, stderr,
error_95, ess, ...}`. It never replaces the `belief` feed (the exact uniform belief); it is a
second, labelled layer a client asks for.

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
import time
from collections.abc import Callable
from typing import Any

from games.behaviour import BehaviourModel, NotModelled, models_named, odds_seed
from games.registry import GAMES
from games.registry import Registry as Games
from protocol import ErrorMessage, Odds, OddsBelief, ProtocolError
from server import strategy_processes
from server.logs import log
from server.tables.interface import TableHandle

TIMEOUT = 10.0
"""Give up (error `busy`) if the worker has not answered by then."""

Send = Callable[[str], None]


class OddsDesk:
    """The server's odds requests in flight: one per connection and table, answered by tasks."""

    def __init__(self, games: Games = GAMES) -> None:
        self.games = games
        self.in_flight: set[tuple[str, str]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, audience: str | None, send: Send, message: Odds,
                    table: TableHandle, asker: str) -> None:
        """Check the request now (raising ProtocolError); compute and send the answer later.
        `audience`: the asking connection's seat at this table, 'spectator', or None;
        `asker` names the connection (Session.asker)."""
        offered = self._offered()
        if message.model not in offered:
            raise ProtocolError("unknown_model", f"no model {message.model!r} (offered: "
                                f"{models_named(offered)}; the exact uniform belief is the "
                                "`belief` feed)")
        if audience is None:
            raise ProtocolError("unauthorized", "join, resume or watch this table first")
        config = await table.table_config()
        game = self.games.game_of_variant(config.variant) if config is not None else None
        model = game.capabilities.behaviour.get(message.model) if game is not None else None
        if game is None or model is None:
            raise ProtocolError("unknown_model", f"{message.model} models no player of this "
                                "table's game (its models: "
                                f"{models_named(game.capabilities.behaviour if game else {})})")
        events = await table.referee_log()
        state: Any = None
        for event in events:
            state = game.evolve(state, event)
        try:
            model.check(state)
        except NotModelled as refused:
            raise ProtocolError("wrong_phase", str(refused)) from None
        key = (table.table_id, asker)
        if key in self.in_flight:
            raise ProtocolError("rate_limited", "your odds for this table are already being "
                                                "computed")
        self.in_flight.add(key)
        seen = [game.event_to_dict(game.view(e, audience)) for e in events]
        task = asyncio.get_running_loop().create_task(
            self._answer(send, message, model, table.table_id, audience, seen, asker))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _offered(self) -> dict[str, BehaviourModel]:
        """Every behaviour model some registered game declares, by name."""
        return {name: model for game in self.games.games()
                for name, model in game.capabilities.behaviour.items()}

    async def _answer(self, send: Send, message: Odds, model: BehaviourModel, table_id: str,
                      audience: str, events: list[dict[str, Any]], asker: str) -> None:
        started = time.monotonic()
        pool = strategy_processes.ADVICE
        try:
            async with pool.admitted((f"odds:{table_id}", asker), strategy_processes.ADVICE_WAIT):
                result = await asyncio.wait_for(
                    pool.run(strategy_processes.odds_job, model, events, audience,
                             odds_seed(table_id, _seq_of(events), audience)), TIMEOUT)
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


def _seq_of(events: list[dict[str, Any]]) -> int:
    """The seq of the position the asker's view reaches (its last event's)."""
    return int(events[-1]["seq"]) if events else 0

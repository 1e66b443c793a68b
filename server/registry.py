"""The tables a server hosts: creation, lookup, listing, retirement and crash recovery.

Recovery folds each unfinished match from its stream: the store is the truth, the
in-memory tables are a projection that a restart throws away and rebuilds.
"""

from __future__ import annotations

import asyncio
import secrets

from domino.events import Event, parse_event
from domino.tiles import SEATS
from domino.variants import VARIANTS
from server.bots import BOTS
from server.bus import Bus
from server.inference_worker import InferencePool
from server.logs import log
from server.metrics import Metrics
from server.protocol import CreateTable, ProtocolError, TableInfo
from server.table import Table, TableConfig, TableOptions, commands_stream, seats_stream
from storage import AsyncEventStore


def new_table_id() -> str:
    return "t" + secrets.token_hex(6)


class Registry:
    def __init__(
        self,
        store: AsyncEventStore,
        bus: Bus,
        pool: InferencePool,
        metrics: Metrics,
        options: TableOptions,
    ) -> None:
        self.store = store
        self.bus = bus
        self.pool = pool
        self.metrics = metrics
        self.options = options
        self.tables: dict[str, Table] = {}

    def _new(self, config: TableConfig) -> Table:
        table = Table(
            config,
            store=self.store,
            bus=self.bus,
            pool=self.pool,
            metrics=self.metrics,
            options=self.options,
            on_retire=self._retire,
        )
        self.tables[config.table_id] = table
        return table

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("unknown_table", f"no table {table_id!r} here")
        return table

    async def create(self, request: CreateTable) -> Table:
        if request.variant not in VARIANTS:
            known = ", ".join(VARIANTS)
            raise ProtocolError("bad_request", f"unknown variant {request.variant!r} ({known})")
        for seat, name in request.bots.items():
            if name not in BOTS:
                known = ", ".join(BOTS)
                raise ProtocolError("unknown_bot", f"no bot {name!r} for {seat} (known: {known})")
        config = TableConfig(
            table_id=new_table_id(),
            variant=request.variant,
            target=request.target,
            scoring=request.scoring,
            bots=dict(request.bots),
            advice=request.advice,
        )
        await self.store.append(seats_stream(config.table_id), 0, [config.record()])
        table = self._new(config)
        table.side_seq = 1
        await table.start()
        log("table_created", table=config.table_id, bots=",".join(sorted(config.bots)))
        return table

    def listing(self) -> list[TableInfo]:
        return [
            TableInfo(
                table_id=table.table_id,
                variant=table.config.variant,
                target=table.config.target,
                seats={s: (r.name if (r := table.seats.get(s)) else None) for s in SEATS},
                status=table.status,  # type: ignore[arg-type]
                spectators=table.spectators,
            )
            for table in self.tables.values()
        ]

    def _retire(self, table: Table) -> None:
        if self.tables.get(table.table_id) is table:
            del self.tables[table.table_id]
            asyncio.get_running_loop().create_task(table.close())
            self.bus.forget(table.table_id)

    async def recover(self) -> int:
        """Rebuild every unfinished table from the store; returns how many came back."""
        infos = await self.store.streams(prefix="seats:")
        recovered = 0
        for info in infos:
            table_id = info.stream.split(":", 1)[1]
            if table_id in self.tables:
                continue
            loaded = await asyncio.to_thread(self._read, table_id)
            if loaded is None:
                continue
            side, events, commands = loaded
            table = self._new(TableConfig.from_record(side[0]))
            table.restore(side, events, commands)
            await table.start()
            recovered += 1
            log("table_recovered", table=table_id, seq=table.last_seq, status=table.status)
        return recovered

    def _read(self, table_id: str) -> tuple[list[dict], list[Event], list[dict]] | None:
        """A table's three streams (read in a worker thread); None if it needs no recovery."""
        store = self.store.store
        side = [e.payload for e in store.read(seats_stream(table_id))]
        if not side or side[0].get("type") != "table_created":
            log("recovery_skipped", table=table_id, reason="no table_created record")
            return None
        events = [parse_event(e.payload) for e in store.read(table_id)]
        if events and events[-1].type == "match_ended":
            return None
        keep = 4 * self.options.recent_commands
        last = store.last_seq(commands_stream(table_id))
        commands = [e.payload for e in store.read(commands_stream(table_id), max(0, last - keep))]
        return side, events, commands

    async def close(self) -> None:
        tables = list(self.tables.values())
        await asyncio.gather(*(table.close() for table in tables), return_exceptions=True)

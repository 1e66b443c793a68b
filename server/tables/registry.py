"""The tables a server hosts: creation, lookup, listing, retirement and crash recovery.

Recovery folds each unfinished match from its stream: the store is the truth, the
in-memory tables are a projection that a restart throws away and rebuilds. With a Cluster
(--mqtt), only tables whose lease this server holds are hosted; others are reached through
RemoteTable handles, and the connections attached here are counted per table (`book`) so a
table taken over starts with the right presence.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import Counter, OrderedDict
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol

from sqlalchemy.exc import SQLAlchemyError

from archive.streams import commands_stream, seats_stream, table_of_seats_stream
from archive.tables import StoredTable, TableConfig, read_table
from games.advice import advisor_of
from games.interface import Game, Seat, UnknownGame, VariantInfo, table_seats
from games.registry import GAMES
from games.registry import Registry as Games
from protocol import (
    CreateTable,
    ProtocolError,
    StandInMove,
    TableInfo,
    TableOptionInfo,
    Tables,
    VariantListing,
    requested_options,
)
from server.feeds.bus import Bus
from server.logs import log
from server.metrics import Metrics
from server.table_game import TableGame
from server.tables.archived import ArchivedTable
from server.tables.bots import bot_names
from server.tables.interface import TableHandle
from server.tables.listing import ListingCache, Versioned
from server.tables.local import Inference, Table, TableOptions
from server.tables.remote import RemoteTable
from server.tables.seats import ABANDONED
from storage import AsyncEventStore


class Locator(Protocol):
    """Where tables live in a cluster (server/cluster/ownership.py): what the registry asks of it.

    Declared here, by its user, so the registry needs no cluster and the cluster (which is
    given the registry) imports this module one way only.
    """

    @property
    def remote(self) -> Mapping[str, RemoteTable]:
        """Handles on tables other servers own, by table id (those something holds)."""

    async def start(self, registry: Registry) -> int: ...

    async def locate(self, table_id: str) -> TableHandle: ...

    async def claim_new(self, table_id: str) -> None: ...

    async def finish(self, table_id: str) -> None: ...

    async def take_over(self, table_id: str) -> Table | None: ...

    async def open_tables(self) -> list[str]: ...


class Unproven(Exception):
    """A table's stored streams fail verification (chain, head or the key's seal).

    `kind` says which failure ("seal", "prev_hash", ...: storage.records.ChainProblem) in
    which of the table's streams at which seq, and nothing of what the stream holds: it is
    what /healthz shows anyone. The exception's text (the chain's detail) goes to the log."""

    def __init__(self, text: str, kind: str) -> None:
        super().__init__(text)
        self.kind = kind


ARCHIVE_CACHE = 32
"""Retired finished matches kept loaded (a resumed player sends a few more messages)."""


def _stream_kind(stream: str, table_id: str) -> str:
    """Which of a table's streams this is: "seats", "commands" or "events"."""
    if stream == seats_stream(table_id):
        return "seats"
    return "commands" if stream == commands_stream(table_id) else "events"


def new_table_id() -> str:
    return "t" + secrets.token_hex(6)


async def _idle() -> None:
    return None


async def settled(handle: TableHandle) -> None:
    """Wait until the jobs a local table has queued so far are done: a join (or a create)
    that seats everyone queues the match's start, and the reply must not come before
    `match_started` is stored (a replay asked for right after `joined` found no match: 404,
    where 403 was due). Remote tables answer after their owner's commit anyway."""
    if isinstance(handle, Table):
        with contextlib.suppress(Exception):  # a failed start is retried by the table
            await handle.call(_idle)


def _variant_listing(game: Game, info: VariantInfo) -> VariantListing:
    seats_by = {
        option.name: {value if isinstance(value, str) else json.dumps(value):
                      list(table_seats(game, info.name, {option.name: value}))
                      for value in option.values()}
        for option in info.declared if option.decides_seats
    }
    declared = game.capabilities.to_dict()
    return VariantListing(game=game.name, name=info.name, title=info.title,
                          description=info.description, seats=list(info.seats),
                          options=[TableOptionInfo(**o.to_dict()) for o in info.declared],
                          seats_by=seats_by, bots=list(game.bots()),
                          **{k: declared[k] for k in ("renderer", "advice", "advice_models",
                                                      "beliefs", "fair_dealing")})


class Registry:
    def __init__(
        self,
        store: AsyncEventStore,
        bus: Bus,
        inference: Inference,
        metrics: Metrics,
        options: TableOptions,
        cluster: Locator | None = None,
        games: Games = GAMES,
    ) -> None:
        self.store = store
        self.bus = bus
        self.inference = inference
        self.metrics = metrics
        self.options = options
        self.cluster = cluster
        self.games = games
        """The games this server hosts (games.registry.GAMES unless a test adds its own)."""
        self.tables: Versioned[Table] = Versioned()
        """Hosted tables by id (a dict that counts additions and removals)."""
        self.listing_cache = ListingCache(self.tables, self.info)
        """`list_tables` pages spliced from entries encoded once per change (listing.py)."""
        self.book: dict[str, Counter[str]] = {}
        """Connections attached here, per table and audience (seats and "spectator")."""
        self.archived: OrderedDict[str, ArchivedTable] = OrderedDict()
        self.quarantined: dict[str, str] = {}
        """Tables whose stored history failed verification or folding: id -> the kind of
        failure (shown on /healthz: no stored value in it)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._variants: list[VariantListing] | None = None

    def game_of(self, variant: str, options: dict[str, Any] | None = None) -> TableGame:
        """The table game of `variant` with `options` (typed bad_request / bad_option)."""
        return TableGame.of(variant, self.games, options)

    def _declared(self, variant: str) -> Callable[[str], bool]:
        """Whether `variant` declares an option of this name (False for every name when the
        variant is unknown: TableGame.of then refuses it, typed)."""
        try:
            info = self.games.variant(variant)
        except UnknownGame:
            return lambda name: False
        return lambda name: info.option(name) is not None

    def _new(self, config: TableConfig) -> Table:
        table = Table(
            config,
            game=TableGame.of_config(config, self.games),
            store=self.store,
            bus=self.bus,
            inference=self.inference,
            metrics=self.metrics,
            options=self.options,
            on_retire=self._retire,
            on_conflict=self._conflict,
        )
        self.tables[config.table_id] = table
        return table

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("unknown_table", f"no table {table_id!r} here")
        return table

    async def find(self, table_id: str) -> TableHandle:
        """The table here, or (in a cluster) a handle on the one another server owns, or a
        retired finished match read from the store (resume and watch still work on it)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.quarantined:
            raise ProtocolError("unavailable", f"table {table_id} is quarantined: its stored "
                                               "history failed verification")
        if self.cluster is not None:
            return await self.cluster.locate(table_id)
        archived = await self.find_archived(table_id)
        if archived is None:
            raise ProtocolError("unknown_table", f"no table {table_id!r} here")
        return archived

    async def find_archived(self, table_id: str) -> ArchivedTable | None:
        """A finished (or abandoned) match nobody hosts, from the store (None if there is no
        such match)."""
        found = self.archived.get(table_id)
        if found is None:
            try:
                await asyncio.to_thread(self._prove, table_id,
                                        (seats_stream(table_id), table_id))
            except Unproven as error:
                self.quarantine(table_id, error.kind, str(error))
                raise ProtocolError("unavailable", f"match {table_id} failed verification"
                                    ) from None
            found = await asyncio.to_thread(ArchivedTable.load, self.store.store, table_id,
                                            self.games)
            if found is None:
                return None
            self.archived[table_id] = found
            while len(self.archived) > ARCHIVE_CACHE:
                self.archived.popitem(last=False)
        self.archived.move_to_end(table_id)
        return found

    def presence(self, table_id: str, audience: str, delta: int) -> None:
        """A connection here attached to (+1) or left (-1) a table as `audience`."""
        counts = self.book.setdefault(table_id, Counter())
        counts[audience] += delta
        if counts[audience] <= 0:
            del counts[audience]
            if not counts:
                del self.book[table_id]
        handle: Table | RemoteTable | None = self.tables.get(table_id)
        if handle is None and self.cluster is not None:
            handle = self.cluster.remote.get(table_id)
        if handle is None:
            return
        if audience == "spectator":
            handle.spectators += delta
        else:
            handle.presence(audience, delta)

    async def create(self, request: CreateTable) -> Table:
        # a typed bad_request for an unknown variant, bad_option for an option it refuses:
        # both before anything is stored
        variant = request.variant or self.games.default_variant()
        game = self.game_of(variant, requested_options(request, self._declared(variant)))
        if request.advice and advisor_of(game.game) is None:
            raise ProtocolError("bad_request", f"move advice is not available for {game.name}")
        known = bot_names(game)
        for seat, name in request.bots.items():
            if seat not in game.seats:
                raise ProtocolError("bad_request", f"{variant} has no seat {seat} "
                                    f"(seats: {', '.join(game.seats)})")
            if name not in known:
                raise ProtocolError("unknown_bot", f"no bot {name!r} for {seat} "
                                    f"(known: {', '.join(known)})")
        config = TableConfig(
            table_id=new_table_id(),
            variant=variant,
            bots=dict(request.bots),
            advice=request.advice,
            turn_clock=request.turn_clock,
            options=dict(game.chosen),
        )
        if self.cluster is not None:
            await self.cluster.claim_new(config.table_id)
        await self.store.append(seats_stream(config.table_id), 0, [config.record()])
        table = self._new(config)
        table.side_seq = 1
        await table.start()
        await settled(table)
        if request.rematch_of is not None and request.rematch_of in self.tables:
            self.tables[request.rematch_of].rematch = table.table_id  # its people follow
        log("table_created", table=config.table_id, bots=",".join(sorted(config.bots)))
        return table

    def info(self, table: Table) -> TableInfo:
        return TableInfo(
            table_id=table.table_id,
            variant=table.config.variant,
            target=table.game.chosen.get("target"),
            seats={s: (r.name if (r := table.seats.get(s)) else None)
                   for s in table.game.seats},
            game=table.game.name,
            status=table.status,
            spectators=table.spectators,
            turn_clock=table.turn_clock,
            clocks=dict(table.clock_started),
            stand_ins=[StandInMove(seq=m.seq, seat=m.seat, reason=m.reason)
                       for m in table.stood_in],
            rematch=table.rematch,
            ended_at=table.ended_at,
            options=dict(table.game.chosen),
        )

    def variant_listing(self) -> list[VariantListing]:
        """Every variant new tables may have (aliases left out) and its declared options,
        with the seats per value of an option that decides them (the lobby's form)."""
        if self._variants is None:
            self._variants = [_variant_listing(game, info) for game in self.games.games()
                              for info in game.variants().values() if info.alias_of is None]
        return self._variants

    def listing(self) -> list[TableInfo]:
        return [self.info(table) for table in self.tables.values()]

    async def listing_all(self) -> list[TableInfo]:
        """This server's tables and (in a cluster) the open tables the others own."""
        return (await self.listing_page(None, None))[0]

    async def listing_page(self, after: str | None, limit: int | None
                           ) -> tuple[list[TableInfo], str | None]:
        """Up to `limit` tables with ids above `after`, in id order, and the id to continue
        after (None: this was the last page). Bounded so that one `list_tables` costs the
        same with ten tables or ten thousand (finding: 356 KB replies at 45/s)."""
        ids = set(self.tables)
        if self.cluster is not None:
            ids.update(await self.cluster.open_tables())
        ordered = sorted(t for t in ids if after is None or t > after)
        page = ordered if limit is None else ordered[:limit]
        more = page[-1] if limit is not None and len(ordered) > limit else None
        others = [t for t in page if t not in self.tables]
        remote = {i.table_id: i for i in await asyncio.to_thread(self._remote_infos, others)} \
            if others else {}
        out = [self.info(self.tables[t]) if t in self.tables else remote[t]
               for t in page if t in self.tables or t in remote]
        return out, more

    async def listing_reply(self, command_id: Any, after: str | None, limit: int) -> str:
        """The `tables` frame for one page: from the snapshot of encoded entries when this
        server hosts every table there is (no cluster), else built as `listing_page`."""
        if self.cluster is None:
            return self.listing_cache.reply(command_id, after, limit)
        listing, more = await self.listing_page(after, limit)
        return Tables(id=command_id, tables=listing, next=more).model_dump_json()

    def _remote_infos(self, table_ids: list[str]) -> list[TableInfo]:
        out = []
        for table_id in table_ids:
            stored = read_table(self.store.store, table_id)
            if stored is None:
                continue
            config = stored.config
            game = TableGame.of_config(config, self.games)
            seats: dict[Seat, str | None] = dict.fromkeys(game.seats)
            seats.update({s: f"bot:{b}" for s, b in config.bots.items()})
            seats.update({s: r["name"] for s, r in stored.latest_claims().items()})
            remote = self.cluster.remote.get(table_id) if self.cluster else None
            out.append(TableInfo(
                table_id=table_id, variant=config.variant, target=game.chosen.get("target"),
                seats=seats, game=game.name,
                status=("abandoned" if any(r.get("type") == ABANDONED for r in stored.records)
                        else "playing" if all(seats.values()) else "waiting"),
                spectators=remote.spectators if remote else 0,
                options=dict(game.chosen),
            ))
        return out

    def _retire(self, table: Table) -> None:
        if self.tables.get(table.table_id) is table:
            del self.tables[table.table_id]
            self.book.pop(table.table_id, None)
            self._spawn(table.close())
            self.bus.forget(table.table_id, table.game.audiences)
            if self.cluster is not None:
                self._spawn(self.cluster.finish(table.table_id))

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _conflict(self, table: Table) -> None:
        """Someone else appended to this table's stream: fold it again from the store."""
        self._spawn(self._reload(table.table_id))

    async def _reload(self, table_id: str) -> None:
        await self.drop(table_id)
        if self.cluster is not None:
            await self.cluster.take_over(table_id)
        else:
            await self.restore(table_id)

    async def drop(self, table_id: str) -> None:
        """Stop hosting a table (its lease went elsewhere); its connections stay subscribed."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            await table.close()

    async def recover(self) -> int:
        """Rebuild every unfinished table from the store; returns how many came back."""
        if self.cluster is not None:  # only what our leases allow
            return await self.cluster.start(self)
        infos = await self.store.streams(prefix=seats_stream(""))
        recovered = 0
        for info in infos:
            table_id = table_of_seats_stream(info.stream)
            if table_id not in self.tables and await self.restore(table_id) is not None:
                recovered += 1
        return recovered

    async def restore(self, table_id: str) -> Table | None:
        """Fold one unfinished table from its streams and start it (None: nothing to run).

        Its streams are verified first (chain, head and, in a sealed store, the key's
        seal); a table that fails that, or does not fold, is quarantined — logged, listed
        on /healthz, refused to clients — and every other table is served as usual."""
        if table_id in self.quarantined:
            return None
        try:
            loaded = await asyncio.to_thread(self._read, table_id)
            if loaded is None or table_id in self.tables:
                return self.tables.get(table_id)
            stored, events, commands = loaded
            table = self._new(stored.config)
            try:
                table.restore(stored, events, commands)
            except BaseException:
                self.tables.pop(table_id, None)
                raise
        except SQLAlchemyError:
            raise  # the database itself failed: not this table's fault
        except Exception as error:
            if isinstance(error, Unproven):
                self.quarantine(table_id, error.kind, str(error))
            else:
                self.quarantine(table_id, f"does_not_fold ({type(error).__name__})",
                                f"does not fold: {error!r}"[:2000])
            return None
        counts = self.book.get(table_id, Counter())
        table.connected.update({s: n for s, n in counts.items() if s != "spectator"})
        table.spectators = counts.get("spectator", 0)
        await table.start()
        log("table_recovered", table=table_id, seq=table.last_seq, status=table.status)
        return table

    def quarantine(self, table_id: str, kind: str, detail: str) -> None:
        """Refuse a table from now on: `kind` (a code, the stream's kind, a seq: never the
        stored values) is what /healthz lists; `detail` goes to the log only."""
        self.quarantined[table_id] = kind
        log("table_quarantined", table=table_id, reason=kind, detail=detail)

    def _prove(self, table_id: str, streams: tuple[str, ...]) -> None:
        """Raise Unproven unless each stream's chain, head and seal verify (blocking)."""
        store = self.store.store
        for stream in streams:
            report = store.verify_chain(stream)
            if not report.ok:
                raise Unproven(f"{stream}: {report.reason} at seq {report.first_bad_seq} "
                               f"({report.detail})",
                               f"{report.reason} at seq {report.first_bad_seq} of the "
                               f"{_stream_kind(stream, table_id)} stream")

    def _read(self, table_id: str) -> tuple[StoredTable, list[Any], list[dict]] | None:
        """A table's three streams (read in a worker thread); None if it needs no recovery."""
        store = self.store.store
        self._prove(table_id, (seats_stream(table_id), table_id, commands_stream(table_id)))
        stored = read_table(store, table_id)
        if stored is None:
            log("recovery_skipped", table=table_id, reason="no table_created record")
            return None
        game = TableGame.of_config(stored.config, self.games).game
        events = [game.parse_event(e.payload) for e in store.read(table_id)]
        if events and events[-1].type == "match_ended":
            return None
        if any(r.get("type") == ABANDONED for r in stored.records):
            return None  # stopped unfinished: served from the store (ArchivedTable)
        keep = 4 * self.options.recent_commands
        last = store.last_seq(commands_stream(table_id))
        commands = [e.payload for e in store.read(commands_stream(table_id), max(0, last - keep))]
        return stored, events, commands

    async def close(self) -> None:
        tables = list(self.tables.values())
        await asyncio.gather(*(table.close() for table in tables), return_exceptions=True)

"""Several servers, one deployment: who owns which table, taking over, forwarding commands.

Ownership is a lease row per table (server/cluster/leases.py). Every `ttl / 3` seconds a server
renews its leases (dropping any table whose lease another server took) and sweeps for
expired ones, which it takes over by folding the table's streams from the store, exactly
as a restart does. A connection asking for a table this server does not own gets a
RemoteTable (served from the store and the bus; commands forwarded to the owner); if the
owner's lease has run out, this server takes the table over on the spot instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import weakref
from typing import Any

from archive.reader import Archive
from games.registry import GAMES
from games.registry import Registry as Games
from protocol import ProtocolError
from server.cluster.forwarding import Forwarder
from server.cluster.leases import Leases
from server.feeds.mqtt_bus import MqttBus
from server.feeds.mqtt_link import MqttLink
from server.feeds.topics import Topics
from server.logs import log
from server.tables.interface import TableHandle
from server.tables.local import Table
from server.tables.registry import Registry
from server.tables.remote import RemoteTable
from storage import EventStore


def client_id(node: str) -> str:
    """This server's MQTT client id: its node name and a suffix drawn once per process. A
    broker drops the older of two clients with one id, so two servers named alike (two
    clusters sharing a broker, or test runs side by side) took each other's connection over
    and over (each reconnecting every 0.1 s), and one then hung in its shutdown."""
    return f"server-{node}-{secrets.token_hex(4)}"


class Cluster:
    def __init__(self, *, mqtt: str, db: str, node: str, topics: Topics, store: EventStore,
                 lease_seconds: float = 10.0, forward_timeout: float = 5.0,
                 games: Games = GAMES) -> None:
        self.node = node
        self.games = games
        self.topics = topics
        self.store = store
        self.archive = Archive(store, games)
        self.lease_seconds = lease_seconds
        self.link = MqttLink(mqtt, client_id(node), self._on_message)
        self.bus = MqttBus(self.link, topics, node)
        self.forwarder = Forwarder(self.link, topics, node, forward_timeout)
        self.leases = Leases(db, node, lease_seconds)
        self.registry: Registry | None = None
        self.remote: weakref.WeakValueDictionary[str, RemoteTable] = (
            weakref.WeakValueDictionary())
        """Handles on tables other servers own, while something holds them (a feed, a command
        under way): one per table for all its connections here, gone with the last of them."""
        self.takeovers = 0
        self.lost = 0
        self._taking: dict[str, asyncio.Task[Table | None]] = {}
        self._loop_task: asyncio.Task[None] | None = None

    def _on_message(self, topic: str, payload: bytes) -> None:
        if self.forwarder.owns_topic(topic):
            self.forwarder.on_message(topic, payload)
        else:
            self.bus.on_message(topic, payload)

    async def connect(self) -> None:
        await self.link.start()
        self.forwarder.execute = self.execute
        await self.forwarder.start()

    async def start(self, registry: Registry) -> int:
        """Take back our own tables (a restart under the same node name), then the orphans."""
        self.registry = registry
        mine = await asyncio.to_thread(self.leases.mine)
        taken = [t for t in [await self.take_over(t) for t in mine] if t is not None]
        taken += await self.sweep()
        self._loop_task = asyncio.create_task(self._lease_loop(), name="leases")
        return len(taken)

    async def stop(self) -> None:
        if self._loop_task is not None:
            self._loop_task.cancel()
            await asyncio.gather(self._loop_task, return_exceptions=True)

    async def release(self) -> None:
        """After our tables drained: let the other servers take them over now."""
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.leases.release_all)
        await self.link.stop()
        self.leases.close()

    # -- ownership -----------------------------------------------------------------------

    async def claim_new(self, table_id: str) -> None:
        await asyncio.to_thread(self.leases.claim_new, table_id)

    async def finish(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.leases.finish, table_id)

    async def _lease_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self._renew()
                await self.sweep()
            except Exception as error:  # the database is away: keep trying
                log("lease_loop_failed", error=repr(error))

    async def _renew(self) -> None:
        assert self.registry is not None
        held = list(self.registry.tables)
        kept = await asyncio.to_thread(self.leases.renew)
        for table_id in held:
            if table_id not in kept and table_id in self.registry.tables:
                self.lost += 1
                log("lease_lost", table=table_id, node=self.node)
                await self.registry.drop(table_id)

    async def sweep(self) -> list[Table]:
        expired = await asyncio.to_thread(self.leases.expired)
        taken = [await self.take_over(table_id) for table_id in expired]
        return [t for t in taken if t is not None]

    async def take_over(self, table_id: str) -> Table | None:
        """Take the lease if it ran out and rebuild the table from the store (once at a time)."""
        task = self._taking.get(table_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._take_over(table_id))
            self._taking[table_id] = task
            task.add_done_callback(lambda _t: self._taking.pop(table_id, None))
        return await asyncio.shield(task)

    async def _take_over(self, table_id: str) -> Table | None:
        assert self.registry is not None
        if table_id in self.registry.tables:
            return self.registry.tables[table_id]
        epoch = await asyncio.to_thread(self.leases.take, table_id)
        if epoch is None:
            return None
        table = await self.registry.restore(table_id)
        if table is None:  # nothing to run: the match had ended
            await self.finish(table_id)
            return None
        self.remote.pop(table_id, None)
        self.takeovers += 1
        log("table_taken_over", table=table_id, node=self.node, epoch=epoch,
            seq=table.last_seq)
        return table

    async def open_tables(self) -> list[str]:
        """The tables some server holds a live lease on (not finished)."""
        leases = await asyncio.to_thread(self.leases.open_tables)
        return [lease.table_id for lease in leases]

    async def locate(self, table_id: str) -> TableHandle:
        """The handle for a table we do not hold: take it over if orphaned, else remote."""
        assert self.registry is not None
        lease = await asyncio.to_thread(self.leases.lookup, table_id)
        if lease is None:
            raise ProtocolError("unknown_table", f"no table {table_id!r}")
        if lease.finished:  # retired: served from the store, as on a single server
            archived = await self.registry.find_archived(table_id)
            if archived is not None:
                return archived
        if not lease.finished and (lease.expired or lease.owner == self.node):
            table = await self.take_over(table_id)
            if table is not None:
                return table
            lease = await asyncio.to_thread(self.leases.lookup, table_id) or lease
        remote = self.remote.get(table_id)
        if remote is None:
            remote = self.remote[table_id] = RemoteTable(
                table_id, lease.owner, archive=self.archive, bus=self.bus, forward=self.forward,
                tell=self.forwarder.tell, games=self.games)
        remote.owner = lease.owner
        return remote

    # -- forwarding ----------------------------------------------------------------------

    async def forward(self, remote: RemoteTable, op: dict[str, Any]) -> dict[str, Any]:
        """Run a command on the owner; if it is gone or moved, look again once."""
        try:
            return await self.forwarder.request(remote.owner, op)
        except ProtocolError as error:
            if error.code not in ("internal", "unknown_table"):
                raise
            handle = await self.locate(remote.table_id)
            if isinstance(handle, RemoteTable):
                if handle.owner == remote.owner and error.code == "internal":
                    raise
                return await self.forwarder.request(handle.owner, op)
            return await self.execute(op)

    async def execute(self, op: dict[str, Any]) -> dict[str, Any]:
        """A forwarded command, run on the table we own (the same path as a local one)."""
        assert self.registry is not None
        table = self.registry.tables.get(op["table_id"])
        if table is None:
            raise ProtocolError("unknown_table", f"{self.node} does not own {op['table_id']}")
        seat = op["seat"]
        if op["op"] == "join":
            token, last_seq = await table.join_seat(seat, op.get("name", ""))
            return {"token": token, "last_seq": last_seq}
        if op["op"] == "move":
            move = op.get("move")
            if not isinstance(move, dict):
                raise ProtocolError("bad_request", "a forwarded move carries the move payload")
            return {"seq": await table.move(seat, move, op.get("id"))}
        if op["op"] == "presence":
            table.presence(seat, int(op["delta"]))
            return {}
        raise ProtocolError("bad_request", f"unknown forwarded op {op['op']!r}")

    def health(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "mqtt_connected": self.link.connected.is_set(),
            "mqtt_connections": self.link.connections,
            "mqtt_dropped": self.link.dropped,
            "mqtt_backlog": self.link.backlog,
            **self.link.guard_health(),
            "bus_out_of_window": self.bus.out_of_window,
            "bus_mismatched": self.bus.mismatched,
            "bus_duplicates_dropped": self.bus.duplicates,
            "bus_published": self.bus.published,
            "bus_withheld": self.bus.withheld,
            "forwarded_served": self.forwarder.served,
            "takeovers": self.takeovers,
            "leases_lost": self.lost,
        }

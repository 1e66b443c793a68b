"""A table owned by another server, as seen from this one: read from the store and the bus,
commands forwarded to the owner.

A connection here may watch, resume or sit at such a table. Its feed is the store (history
after `after_seq`) joined to the bus (live events and beliefs arriving over MQTT), through a
gate that delivers each seq once, in order: it subscribes before reading the store (so
nothing falls between the two), drops what it already delivered, and fills any gap (a
message lost in a broker reconnection, or an event QoS 0 dropped) from the store, including
the tail: a belief newer than the last event delivered also sends it to the store. Beliefs
only move forward and wait for their event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from archive.reader import Archive
from archive.tables import TableConfig
from games.interface import Seat
from games.registry import GAMES
from games.registry import Registry as Games
from protocol import ProtocolError
from server.feeds.bus import Envelope, Handler, Unsubscribe
from server.feeds.fanout import backlog
from server.feeds.mqtt_bus import MqttBus
from server.table_game import TableGame
from server.tables.seats import ABANDONED, token_matches

Reply = Callable[[int, int], None]
"""Sends the attach reply, given (after_seq, last_seq), before the first event."""

Forward = Callable[["RemoteTable", dict[str, Any]], Awaitable[dict[str, Any]]]
"""Runs a command on the table's owner (looking the owner up again if it moved)."""

Tell = Callable[[str, dict[str, Any]], None]
"""Sends a node a one-way notice (no answer awaited)."""


class FeedGate:
    """One connection's view of a remote table: each seq once, in order, gaps filled."""

    def __init__(self, deliver: Handler, after_seq: int,
                 fill: Callable[[int], Awaitable[list[Envelope]]]) -> None:
        self.deliver = deliver
        self.last = after_seq
        self.fill = fill
        self.open = False
        self.closed = False
        self._held: dict[int, Envelope] = {}
        self._belief: Envelope | None = None
        self._belief_seq = -1
        self._filling: asyncio.Task[None] | None = None

    def on_event(self, envelope: Envelope) -> None:
        if self.closed or envelope.seq <= self.last:
            return
        self._held[envelope.seq] = envelope
        if self.open:
            self._flush()

    def on_belief(self, envelope: Envelope) -> None:
        if self.closed or envelope.seq <= self._belief_seq:
            return
        self._belief = envelope
        if self.open:
            self._flush()

    def start(self, history: list[Envelope]) -> None:
        for envelope in history:
            self._held.setdefault(envelope.seq, envelope)
        self.open = True
        self._flush()

    def _flush(self) -> None:
        while self.last + 1 in self._held:
            envelope = self._held.pop(self.last + 1)
            self.last = envelope.seq
            self.deliver(envelope)
        for seq in [s for s in self._held if s <= self.last]:
            del self._held[seq]
        belief = self._belief
        if belief is not None and belief.seq <= self.last and belief.seq > self._belief_seq:
            self._belief_seq = belief.seq
            self._belief = None
            self.deliver(belief)
        ahead = self._belief is not None and self._belief.seq > self.last
        if (self._held or ahead) and self._filling is None:  # a gap: fetch it from the store
            self._filling = asyncio.get_running_loop().create_task(self._fill())

    async def _fill(self) -> None:
        try:
            for envelope in await self.fill(self.last):
                self._held.setdefault(envelope.seq, envelope)
        finally:
            self._filling = None
        if not self.closed:
            self._flush()


class RemoteTable:
    """The handle a Session uses for a table another node owns."""

    def __init__(self, table_id: str, owner: str, *, archive: Archive, bus: MqttBus,
                 forward: Forward, tell: Tell, games: Games = GAMES) -> None:
        self.table_id = table_id
        self.games = games
        self.owner = owner
        self.archive = archive
        self.bus = bus
        self._forward = forward
        self._tell = tell
        self.spectators = 0
        self.finished = False
        self.abandoned = False
        """The owner abandoned the table (its people all left): read with the seat claims."""
        """Whether the last event read from the store was match_ended (set by open_feed)."""
        self._game: TableGame | None = None

    async def game(self) -> TableGame:
        """The table's game, from its stored config (read once)."""
        if self._game is None:
            stored = await self.archive.table(self.table_id, config_only=True)
            if stored is None:
                raise ProtocolError("unknown_table", f"no table {self.table_id}")
            self._game = TableGame.of_config(stored.config, self.games)
        return self._game

    # -- feeds ---------------------------------------------------------------------------

    async def history(self, audience: str, after_seq: int) -> list[Envelope]:
        game = await self.game()
        if audience not in game.seats:
            events = await self.archive.events(self.table_id, after_seq)
            return backlog(self.table_id, events, audience, 0, game)
        # a seat's history ends with its legal moves when it is to act: the whole match is
        # folded for them (the owner's live frames carry them too; this serves a resume)
        events = await self.archive.events(self.table_id)
        state = None
        for event in events:
            state = game.game.evolve(state, event)
        to_act = () if state is None or game.game.is_over(state) else game.game.to_act(state)
        offer = game.offered_moves(state, audience) if audience in to_act else None
        return backlog(self.table_id, events, audience, after_seq, game, offer)

    async def open_feed(self, audience: str, deliver: Handler, after_seq: int,
                        reply: Reply) -> Unsubscribe:
        bus = self.bus
        bus.host(self.table_id, (await self.game()).game)

        async def fill(last: int) -> list[Envelope]:
            return await self.history(audience, last)

        gate = FeedGate(deliver, after_seq, fill)
        unsubscribers = [bus.subscribe(self.table_id, audience, "event", gate.on_event),
                         bus.subscribe(self.table_id, audience, "belief", gate.on_belief)]

        def detach() -> None:
            gate.closed = True
            for unsubscribe in unsubscribers:
                unsubscribe()

        try:
            await bus.ensure_subscribed(self.table_id)  # live first, then history: no hole
            head = await self.archive.last_seq(self.table_id)
            after = min(after_seq, head)
            gate.last = after
            history = await self.history(audience, max(0, min(after, head - 1)))
            if history and history[-1].event is not None:
                self.finished = self.finished or history[-1].event.type == "match_ended"
            history = [envelope for envelope in history if envelope.seq > after]
        except BaseException:  # a store error, or the connection went away: let go of the bus
            detach()
            raise
        reply(after, max(head, after + len(history)))
        gate.start(history)
        return detach

    async def find_seat(self, token: str) -> Seat | None:
        stored = await self.archive.table(self.table_id)
        claims = stored.latest_claims() if stored is not None else {}
        self.abandoned = stored is not None and any(r.get("type") == ABANDONED
                                                    for r in stored.records)
        for seat, claim in claims.items():  # the latest claim of a seat wins, as in restore
            if token_matches(token, claim.get("token_sha256")):
                return seat
        return None

    async def table_config(self) -> TableConfig | None:
        """The config record, from the store (the owner holds the table itself)."""
        stored = await self.archive.table(self.table_id, config_only=True)
        return stored.config if stored is not None else None

    async def referee_log(self) -> list[Any]:
        """The owner's log as committed to the store (what it had acked by now)."""
        return await self.archive.events(self.table_id)

    # -- forwarded commands --------------------------------------------------------------

    async def join_seat(self, seat: Seat, name: str) -> tuple[str, int]:
        """Claim a seat on the owner; the token and the seq the seat's feed starts from."""
        result = await self._forward(self, {"op": "join", "table_id": self.table_id,
                                                   "seat": seat, "name": name})
        return result["token"], int(result["last_seq"])

    async def move(self, seat: Seat, move: dict[str, Any], command_id: str | int | None) -> int:
        op: dict[str, Any] = {"op": "move", "table_id": self.table_id, "seat": seat,
                              "id": command_id, "move": move}
        result = await self._forward(self, op)
        return int(result["seq"])

    def presence(self, seat: Seat, delta: int) -> None:
        self._tell(self.owner, {"op": "presence", "table_id": self.table_id,
                                                 "seat": seat, "delta": delta})

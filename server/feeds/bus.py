"""The bus: per-audience events and beliefs, published once, delivered to every subscriber.

Everything that leaves a table goes through here, addressed by (table, audience, kind), so the
connections, the inference workers and the bots never touch the table's referee state. The
in-process implementation calls subscribers synchronously, in publish order; a later MQTT
implementation keeps the same interface (topics map to `tables/<id>/<audience>/<kind>`,
`retain` to MQTT retained messages).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from games.interface import Game

Kind = Literal["event", "belief"]


@dataclass(frozen=True, slots=True)
class Envelope:
    """One published message: the frame as sent on the wire, plus in-process conveniences."""

    table_id: str
    audience: str
    kind: Kind
    seq: int
    frame: str
    """The server message's JSON text, ready for a WebSocket."""
    event: Any = None
    """For kind "event": the event as this audience sees it (already redacted)."""
    stamp: float = field(default_factory=time.monotonic)
    """When it was published (monotonic), for lag measurements."""


Handler = Callable[[Envelope], None]
Unsubscribe = Callable[[], None]


class Publisher(Protocol):
    """What belief workers need of a bus: publish, and whether anyone listens (the inference
    child's pipe is only this)."""

    def publish(self, envelope: Envelope, *, retain: bool = False) -> None: ...

    def has_subscribers(self, table_id: str, audience: str, kind: Kind) -> bool:
        """Whether anyone listens (so a producer may skip work nobody would receive)."""
        ...


class Bus(Publisher, Protocol):
    def subscribe(self, table_id: str, audience: str, kind: Kind, handler: Handler) -> Unsubscribe:
        """Deliver future envelopes of this topic to `handler` (and the retained one, now)."""
        ...

    def host(self, table_id: str, game: Game) -> None:
        """Name the game of a table followed here: a bus that carries frames between
        processes turns them back into that game's events (kept while anyone follows)."""
        ...

    def forget(self, table_id: str, audiences: tuple[str, ...]) -> None:
        """Drop every subscription and retained message of a retired table (its audiences
        named: a bus between processes clears their retained beliefs too)."""
        ...


class InProcessBus:
    """Synchronous fan-out inside one event loop: publish returns after every handler ran."""

    def __init__(self) -> None:
        self._subscribers: dict[tuple[str, str, str], dict[int, Handler]] = {}
        self._retained: dict[tuple[str, str, str], Envelope] = {}
        self._next_id = 0

    def publish(self, envelope: Envelope, *, retain: bool = False) -> None:
        topic = (envelope.table_id, envelope.audience, envelope.kind)
        if retain:
            self._retained[topic] = envelope
        handlers = self._subscribers.get(topic)
        if handlers:
            for handler in list(handlers.values()):
                handler(envelope)

    def subscribe(self, table_id: str, audience: str, kind: Kind, handler: Handler) -> Unsubscribe:
        topic = (table_id, audience, kind)
        self._next_id += 1
        key = self._next_id
        self._subscribers.setdefault(topic, {})[key] = handler
        retained = self._retained.get(topic)
        if retained is not None:
            handler(retained)

        def unsubscribe() -> None:
            handlers = self._subscribers.get(topic)
            if handlers is not None:
                handlers.pop(key, None)
                if not handlers:
                    del self._subscribers[topic]

        return unsubscribe

    def has_subscribers(self, table_id: str, audience: str, kind: Kind) -> bool:
        return bool(self._subscribers.get((table_id, audience, kind)))

    def retained(self, table_id: str, audience: str, kind: Kind) -> Envelope | None:
        return self._retained.get((table_id, audience, kind))

    def host(self, table_id: str, game: Game) -> None:
        """In one process every envelope carries its typed event already: nothing to learn."""

    def forget(self, table_id: str, audiences: tuple[str, ...]) -> None:
        for topics in (self._subscribers, self._retained):
            for topic in [t for t in topics if t[0] == table_id]:
                del topics[topic]

"""Project each committed event to every audience and publish it: the only exit for events.

The game's `view(event, audience)` does the redaction; frames are built once per distinct
view (most events look the same to everyone, so one JSON encoding serves every audience).
The event after which a seat is to act also carries, in that seat's frame only, the seat's
legal moves as wire payloads (`offers`: seat -> payloads), so a client sends one back as it
is and never needs the rules; every other audience's frame is the shared one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from protocol import frames
from server.feeds.bus import Bus, Envelope
from server.stages import CLOCK
from server.table_game import TableGame

Offers = Mapping[str, list[dict[str, Any]]]
"""Seat -> its legal moves as wire payloads (`Game.command_to_wire`), for the seats to act."""

def event_frame(table_id: str, event: Any, game: TableGame,
                legal_moves: list[dict[str, Any]] | None = None) -> str:
    """The `event` server message for an already-redacted event (with the seat's legal
    moves when it is to act after it)."""
    return frames.event_frame(table_id, event.seq, game.game.event_to_dict(event), legal_moves)


def audience_envelopes(table_id: str, event: Any, game: TableGame,
                       offers: Offers | None = None) -> list[Envelope]:
    """One envelope per audience, sharing the frame whenever the views are identical (a
    seat offered moves gets a frame of its own)."""
    shared: dict[int, str] = {}
    out = []
    for audience in game.audiences:
        seen = game.game.view(event, audience)
        if offers and audience in offers:
            frame = event_frame(table_id, seen, game, offers[audience])
        elif id(seen) in shared:
            frame = shared[id(seen)]
        else:
            frame = shared[id(seen)] = event_frame(table_id, seen, game)
        out.append(Envelope(table_id, audience, "event", event.seq, frame, seen))
    return out


def publish_events(bus: Bus, table_id: str, events: list[Any], game: TableGame,
                   offers: Offers | None = None) -> None:
    """Publish a commit's events in order; `offers` ride on the last (the position the
    seats act in)."""
    CLOCK.enter("fanout")
    try:
        last = len(events) - 1
        for i, event in enumerate(events):
            for envelope in audience_envelopes(table_id, event, game,
                                               offers if i == last else None):
                bus.publish(envelope)
    finally:
        CLOCK.leave()


def backlog(table_id: str, log: list[Any], audience: str, after_seq: int,
            game: TableGame, offer: list[dict[str, Any]] | None = None) -> list[Envelope]:
    """What `audience` missed after `after_seq`, exactly as it would have been published;
    `offer`, the audience's legal moves now, rides on the log's last event."""
    out = []
    tail = log[after_seq:]
    for i, event in enumerate(tail):
        seen = game.game.view(event, audience)
        frame = event_frame(table_id, seen, game, offer if i == len(tail) - 1 else None)
        out.append(Envelope(table_id, audience, "event", seen.seq, frame, seen))
    return out

"""Project each committed event to every audience and publish it: the only exit for events.

The game's `view(event, audience)` does the redaction; frames are built once per distinct
view (most events look the same to everyone, so one JSON encoding serves every audience).
"""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json

from server.feeds.bus import Bus, Envelope
from server.table_game import TableGame


def event_frame(table_id: str, event: Any, game: TableGame) -> str:
    """The `event` server message for an already-redacted event."""
    data = game.game.event_to_dict(event)
    message = {"type": "event", "table_id": table_id, "seq": event.seq, "event": data}
    return to_json(message).decode()


def audience_envelopes(table_id: str, event: Any, game: TableGame) -> list[Envelope]:
    """One envelope per audience, sharing the frame whenever the views are identical."""
    frames: dict[int, str] = {}
    out = []
    for audience in game.audiences:
        seen = game.game.view(event, audience)
        frame = frames.get(id(seen))
        if frame is None:
            frame = frames[id(seen)] = event_frame(table_id, seen, game)
        out.append(Envelope(table_id, audience, "event", event.seq, frame, seen))
    return out


def publish_events(bus: Bus, table_id: str, events: list[Any], game: TableGame) -> None:
    for event in events:
        for envelope in audience_envelopes(table_id, event, game):
            bus.publish(envelope)


def backlog(table_id: str, log: list[Any], audience: str, after_seq: int,
            game: TableGame) -> list[Envelope]:
    """What `audience` missed after `after_seq`, exactly as it would have been published."""
    out = []
    for event in log[after_seq:]:
        seen = game.game.view(event, audience)
        frame = event_frame(table_id, seen, game)
        out.append(Envelope(table_id, audience, "event", seen.seq, frame, seen))
    return out

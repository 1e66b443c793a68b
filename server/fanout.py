"""Project each committed event to every audience and publish it: the only exit for events.

`games.dominoes.audience.view` does the redaction; frames are built once per distinct view (most
events look the same to everyone, so one JSON encoding serves all five audiences).
"""

from __future__ import annotations

from pydantic_core import to_json

from games.dominoes.audience import view
from games.dominoes.events import Event, event_to_dict
from games.dominoes.tiles import SEATS
from server.bus import Bus, Envelope

AUDIENCES: tuple[str, ...] = (*SEATS, "spectator")


def event_frame(table_id: str, event: Event) -> str:
    """The `event` server message for an already-redacted event."""
    data = event_to_dict(event)
    message = {"type": "event", "table_id": table_id, "seq": event.seq, "event": data}
    return to_json(message).decode()


def audience_envelopes(table_id: str, event: Event) -> list[Envelope]:
    """One envelope per audience, sharing the frame whenever the views are identical."""
    frames: dict[int, str] = {}
    out = []
    for audience in AUDIENCES:
        seen = view(event, audience)  # type: ignore[arg-type]
        frame = frames.get(id(seen))
        if frame is None:
            frame = frames[id(seen)] = event_frame(table_id, seen)
        out.append(Envelope(table_id, audience, "event", event.seq, frame, seen))
    return out


def publish_events(bus: Bus, table_id: str, events: list[Event]) -> None:
    for event in events:
        for envelope in audience_envelopes(table_id, event):
            bus.publish(envelope)


def backlog(table_id: str, log: list[Event], audience: str, after_seq: int) -> list[Envelope]:
    """What `audience` missed after `after_seq`, exactly as it would have been published."""
    out = []
    for event in log[after_seq:]:
        seen = view(event, audience)  # type: ignore[arg-type]
        frame = event_frame(table_id, seen)
        out.append(Envelope(table_id, audience, "event", seen.seq, frame, seen))
    return out

"""A table's chat as stored: one record per line in its own stream, `chat:<table_id>`.

The lines live beside the match, never in it: the match's stream (its chain of moves, what
`verify` re-decides) is the same with or without chat. The chat stream has a hash chain of
its own like every stream, so a rewritten line shows in `verify` too.
"""

from __future__ import annotations

from typing import Any

from archive.streams import chat_stream
from storage import EventStore

CHAT_SAID = "chat_said"
"""The record type of one line."""


def chat_record(seat: str | None, name: str, text: str, at: float) -> dict[str, Any]:
    """A line as it is appended (the store gives it its seq)."""
    return {"type": CHAT_SAID, "seat": seat, "name": name, "text": text, "at": at}


def line_of(payload: dict[str, Any]) -> dict[str, Any]:
    """A stored record in the shape of the wire's `ChatLine` (protocol/chat.py)."""
    return {"seq": int(payload["seq"]), "seat": payload.get("seat"),
            "name": str(payload["name"]), "text": str(payload["text"]),
            "at": float(payload["at"])}


def read_chat(store: EventStore, table_id: str, last: int | None = None
              ) -> list[dict[str, Any]]:
    """The table's chat lines, oldest first: all, or the `last` ones (blocking)."""
    stream = chat_stream(table_id)
    after = 0
    if last is not None:
        after = max(0, store.last_seq(stream) - last)
    return [line_of(e.payload) for e in store.read(stream, after)
            if e.payload.get("type") == CHAT_SAID]

"""What the store hands back: immutable records, never live rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from storage.frozen import maker

ChainProblem = Literal["gap", "prev_hash", "hash", "payload", "head", "seal"]


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One committed event. `payload` is the stored JSON object, including "seq" and "type".

    `payload` is exactly what a later `read` returns (JSON round-tripped); do not mutate it.
    """

    stream: str
    seq: int
    type: str
    payload: dict[str, Any]
    recorded_at: datetime
    hash: str
    prev_hash: str


stored_event = maker(StoredEvent)
"""StoredEvent(...) at about half the cost (storage/frozen.py): one per event written."""


@dataclass(frozen=True, slots=True)
class StreamInfo:
    stream: str
    last_seq: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class ChainReport:
    """Result of re-checking one stream's hash chain; `first_bad_seq` is where it first breaks.

    reason: "gap" (seq not contiguous), "prev_hash" (link to the previous event broken),
    "hash" (payload no longer matches its hash), "payload" (payload unreadable or its seq/type
    disagree with the row), "head" (the streams table's last seq/hash disagree with the events:
    a truncated tail or rows added behind the store's back), "seal" (a sealed store's head
    HMAC is missing or wrong: written without the key; storage/keys.py).
    """

    stream: str
    ok: bool
    events_checked: int
    last_seq: int
    first_bad_seq: int | None = None
    reason: ChainProblem | None = None
    detail: str | None = None

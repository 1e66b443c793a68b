"""Validate and encode an append before any database work, so a bad event fails alone.

Encoding needs only the caller's expected seq (seq n+1, n+2, ...), not the database, so it
happens in the caller's thread; the writer is left with hashing and SQL.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from storage.chain import canonical_json
from storage.errors import InvalidEvent
from storage.schema import STREAM_MAX, TYPE_MAX


@dataclass(frozen=True, slots=True)
class EncodedEvent:
    seq: int
    type: str
    text: str  # canonical JSON of the payload: what is stored and hashed
    payload: dict[str, Any]  # json.loads(text): what readers will get back


@dataclass(frozen=True, slots=True)
class PreparedAppend:
    stream: str
    expected_seq: int
    events: tuple[EncodedEvent, ...]


def check_stream(stream: object) -> str:
    if not isinstance(stream, str) or not stream:
        raise InvalidEvent(f"stream must be a non-empty string, not {stream!r}")
    if len(stream) > STREAM_MAX:
        raise InvalidEvent(f"stream name longer than {STREAM_MAX} characters")
    if "\x00" in stream:
        raise InvalidEvent("stream name contains NUL (PostgreSQL text cannot hold it)")
    return stream


def check_seq(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidEvent(f"{name} must be an int >= 0, not {value!r}")
    return value


def prepare_append(
    stream: str, expected_seq: int, events: Sequence[Mapping[str, Any]]
) -> PreparedAppend:
    """Assign seqs expected_seq+1, ... and encode each event; raise InvalidEvent if any is bad.

    An event's own "seq" may be absent, 0 or None (it is filled in) or already the seq it will
    get; any other value means the caller is confused about the stream and is refused.
    """
    check_stream(stream)
    check_seq(expected_seq, "expected_seq")
    if isinstance(events, Mapping) or not isinstance(events, Sequence) or not events:
        raise InvalidEvent("append needs a non-empty list of events")
    encoded = []
    for offset, event in enumerate(events, start=1):
        seq = expected_seq + offset
        if not isinstance(event, Mapping):
            raise InvalidEvent(f"event {offset} is a {type(event).__name__}, not a dict")
        kind = event.get("type")
        if not isinstance(kind, str) or not kind or len(kind) > TYPE_MAX or "\x00" in kind:
            raise InvalidEvent(f"event {offset} needs a 'type' string of 1..{TYPE_MAX} chars")
        own_seq = event.get("seq")
        if own_seq not in (None, 0, seq):
            raise InvalidEvent(f"event {offset} carries seq {own_seq!r} but would get {seq}")
        try:
            text = canonical_json({**event, "seq": seq})
        except (TypeError, ValueError) as error:
            raise InvalidEvent(f"event {offset} is not JSON: {error}") from error
        encoded.append(EncodedEvent(seq, kind, text, json.loads(text)))
    return PreparedAppend(stream, expected_seq, tuple(encoded))

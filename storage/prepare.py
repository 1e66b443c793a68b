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
from storage.frozen import maker
from storage.schema import STREAM_MAX, TYPE_MAX


@dataclass(frozen=True, slots=True)
class EncodedEvent:
    seq: int
    type: str
    text: str  # canonical JSON of the payload: what is stored and hashed
    payload: dict[str, Any]  # json.loads(text): what readers will get back


encoded_event = maker(EncodedEvent)
"""EncodedEvent(...) at about half the cost (storage/frozen.py): one per event appended."""


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
    if type(stream) is not str or not 0 < len(stream) <= STREAM_MAX or "\x00" in stream:
        check_stream(stream)  # raises, saying why
    if type(expected_seq) is not int or expected_seq < 0:
        check_seq(expected_seq, "expected_seq")  # raises, unless an int subclass (not bool)
    if type(events) is not list and (isinstance(events, Mapping)
                                     or not isinstance(events, Sequence)):
        raise InvalidEvent("append needs a non-empty list of events")
    if not events:
        raise InvalidEvent("append needs a non-empty list of events")
    encoded = []
    seq = expected_seq
    for event in events:
        seq += 1
        offset = seq - expected_seq
        if type(event) is not dict and not isinstance(event, Mapping):
            raise InvalidEvent(f"event {offset} is a {type(event).__name__}, not a dict")
        kind = event.get("type")
        if type(kind) is not str or not kind or len(kind) > TYPE_MAX or "\x00" in kind:
            raise InvalidEvent(f"event {offset} needs a 'type' string of 1..{TYPE_MAX} chars")
        own_seq = event.get("seq")
        if own_seq is not None and own_seq != 0 and own_seq != seq:
            raise InvalidEvent(f"event {offset} carries seq {own_seq!r} but would get {seq}")
        payload = {**event, "seq": seq}
        try:
            text = canonical_json(payload)
        except (TypeError, ValueError) as error:
            raise InvalidEvent(f"event {offset} is not JSON: {error}") from error
        if not _round_trips(payload):
            payload = json.loads(text)
        encoded.append(encoded_event(seq, kind, text, payload))
    return PreparedAppend(stream, expected_seq, tuple(encoded))


_PLAIN = frozenset({str, int, float, bool, type(None)})
"""Values JSON gives back as themselves (exactly these types: a subclass, an IntEnum say,
comes back as its base)."""


def _round_trips(payload: dict[str, Any]) -> bool:
    """Whether json.loads(canonical_json(payload)) == payload, value for value and type for
    type, so the encoded text need not be parsed back: string keys, plain values (the
    encoder has refused NaN and the infinities). Most events are flat; others are parsed."""
    plain = _PLAIN
    for name, value in payload.items():
        if type(name) is not str or type(value) not in plain:
            return False
    return True

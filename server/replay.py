"""Replays for the browser: a stored (or uploaded) match as one audience saw it, with beliefs.

A replay is {match_id, perspective, finished, events, beliefs}: the events redacted for the
perspective (`games.dominoes.audience.view`) and the perspective's exact belief after every event
(`inference.Belief`, the same fold the live workers run). Perspective "all" is the referee's
log with every hand open, so it carries no beliefs, and like any seat's perspective it is
only given for a finished match: while a match is in play, only the public (spectator)
replay is served, since a seat's would show its hand.

This module builds replays; server/replay_http.py serves them (and replay advice, from
server/replay_advice.py) over HTTP and the upload WebSocket.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from archive.matches import ArchiveError, UnknownMatch, load_match
from games.dominoes.audience import view
from games.dominoes.events import Event, event_to_dict
from games.dominoes.jsonl import LogFormatError, parse_lines
from games.dominoes.validate import LogProblem, check_log
from inference import Belief, InconsistentLog, ObserverError
from server.belief_message import belief_body
from storage import AsyncEventStore, EventStore

PERSPECTIVES: tuple[str, ...] = ("S", "W", "N", "E", "spectator", "all")
MAX_UPLOAD = 2 * 1024 * 1024
"""Largest accepted JSONL upload (bytes)."""
MAX_MATCH_ID = 64
CACHE_SIZE = 32

Json = dict[str, Any]


@dataclass(frozen=True)
class ReplayError(Exception):
    """A request we refuse, with its HTTP status and where in a log the problem is."""

    status: int
    message: str
    line: int | None = None
    seq: int | None = None

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> Json:
        data: Json = {"error": self.message}
        if self.line is not None:
            data["line"] = self.line
        if self.seq is not None:
            data["seq"] = self.seq
        return data


# -- building a replay ------------------------------------------------------------------------


def check_perspective(perspective: str) -> str:
    if perspective not in PERSPECTIVES:
        raise ReplayError(400, f"unknown perspective {perspective!r} "
                               f"(one of {', '.join(PERSPECTIVES)})")
    return perspective


def belief_series(events: Sequence[Event], observer: str) -> list[Json]:
    """The observer's belief after each event of its (already redacted) view."""
    belief = Belief(observer)
    out = []
    for event in events:
        try:
            belief.apply(event)
        except (InconsistentLog, ObserverError) as error:
            raise ReplayError(422, f"no belief after seq {event.seq}: {error}",
                              seq=event.seq) from error
        out.append(belief_body(belief.snapshot().to_json_dict()))
    return out


def is_finished(events: Sequence[Event]) -> bool:
    return bool(events) and events[-1].type == "match_ended"


def build_replay(events: Sequence[Event], perspective: str) -> Json:
    """The replay of a referee's log for `perspective` (see the module docstring)."""
    check_perspective(perspective)
    if not events or events[0].type != "match_started":
        raise ReplayError(422, "a match log starts with match_started", seq=1)
    finished = is_finished(events)
    if not finished and perspective != "spectator":
        raise ReplayError(403, "this match is still in play: only the spectator perspective "
                               "is available until it ends")
    audience = "referee" if perspective == "all" else perspective
    seen = [view(e, audience) for e in events]  # type: ignore[arg-type]
    return {
        "match_id": events[0].match_id,  # type: ignore[union-attr]
        "perspective": perspective,
        "finished": finished,
        "events": [event_to_dict(e) for e in seen],
        "beliefs": [] if perspective == "all" else belief_series(seen, perspective),
    }


def parse_upload(body: bytes) -> list[Event]:
    """A referee's JSONL log from an upload, proven legal; errors name the line or the seq."""
    if len(body) > MAX_UPLOAD:
        raise ReplayError(413, f"the log is larger than {MAX_UPLOAD // (1024 * 1024)} MiB")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ReplayError(400, f"the log is not UTF-8 text (byte {error.start})") from error
    try:
        events = parse_lines(text.splitlines())
    except LogFormatError as error:
        raise ReplayError(400, f"line {error.line}: {error.reason}", line=error.line) from error
    if not events:
        raise ReplayError(400, "the log holds no events")
    try:
        check_log(events)
    except LogProblem as error:
        raise ReplayError(400, str(error), seq=error.seq) from error
    return events


# -- the store --------------------------------------------------------------------------------

StoreLike = AsyncEventStore | EventStore


def sync_store(store: StoreLike) -> EventStore:
    return store.store if isinstance(store, AsyncEventStore) else store


def check_match_id(match_id: str) -> str:
    if not 0 < len(match_id) <= MAX_MATCH_ID or ":" in match_id or not match_id.isprintable():
        raise ReplayError(400, "not a match id")
    return match_id


def load_events(store: EventStore, match_id: str) -> list[Event]:
    """A stored match for a replay (blocking); refusals as ReplayError (404, 500)."""
    try:
        return load_match(store, check_match_id(match_id))
    except UnknownMatch as error:
        raise ReplayError(404, f"no match {match_id!r} here") from error
    except ArchiveError as error:
        raise ReplayError(500, f"match {match_id!r} holds an unreadable event") from error


_cache: OrderedDict[tuple[str, str], bytes] = OrderedDict()


def stored_replay(store: EventStore, match_id: str, perspective: str) -> bytes:
    """The JSON of a stored match's replay; finished matches are cached (they never change)."""
    check_perspective(perspective)
    key = (f"{id(store)}:{match_id}", perspective)
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return cached
    events = load_events(store, match_id)
    body = json.dumps(build_replay(events, perspective), separators=(",", ":")).encode()
    if is_finished(events):
        _cache[key] = body
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return body


def uploaded_replay(body: bytes, perspective: str) -> bytes:
    check_perspective(perspective)
    replay = build_replay(parse_upload(body), perspective)
    return json.dumps(replay, separators=(",", ":")).encode()

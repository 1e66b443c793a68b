"""Matches in the event store: one stream per match, named by its match id.

The store knows nothing of dominoes; this is where typed game events meet stored JSON.
Loading and listing live here once, for the tools and the replay routes alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from archive.streams import SIDE_STREAM_MARK, is_match_stream
from games.dominoes.events import Event, event_to_dict, parse_event
from games.dominoes.validate import check_log
from storage.store import EventStore


class ArchiveError(Exception):
    """A stored or imported match that is unusable, with the reason for a person."""


class UnknownMatch(ArchiveError):
    """No match by that id in the store (as opposed to one that is there but unreadable)."""


@dataclass(frozen=True)
class MatchSummary:
    match_id: str
    variant: str
    status: str
    scores: dict[str, int]
    events: int


def load_match(store: EventStore, match_id: str, upto_seq: int | None = None) -> list[Event]:
    """The match's events as typed events (the referee's view), up to `upto_seq` if given."""
    stored = store.read(match_id, limit=upto_seq)
    if not stored or stored[0].type != "match_started":
        raise UnknownMatch(f"no match {match_id!r} in this store")
    try:
        return [parse_event(e.payload) for e in stored]
    except (ValidationError, ValueError) as error:
        raise ArchiveError(f"match {match_id!r} holds an unreadable event: {error}") from error


def save_match(store: EventStore, events: Sequence[Event]) -> None:
    """Store a whole match as a new stream, all or nothing, after proving it legal."""
    store_checked_match(store, check_match(events), events)


def check_match(events: Sequence[Event]) -> str:
    """Prove a match legal and fit to store; its id. Needs no store, so a tool can refuse a
    bad log before it opens (and perhaps creates) one."""
    check_log(events)
    return _match_id(events)


def store_checked_match(store: EventStore, match_id: str, events: Sequence[Event]) -> None:
    """Append a match that `check_match` accepted as the new stream `match_id`, all or nothing."""
    store.append(match_id, 0, [event_to_dict(e) for e in events])


def save_matches(store: EventStore, matches: Iterable[Sequence[Event]]) -> int:
    """Store many new matches in one group commit; returns how many."""
    batch = [(_match_id(m), 0, [event_to_dict(e) for e in m]) for m in matches]
    for result in store.append_batch(batch):
        if isinstance(result, Exception):
            raise ArchiveError(str(result))
    return len(batch)


def _match_id(events: Sequence[Event]) -> str:
    first = events[0] if events else None
    if first is None or first.type != "match_started":
        raise ArchiveError("a match log starts with match_started")
    match_id: str = first.match_id  # type: ignore[union-attr]
    if SIDE_STREAM_MARK in match_id:
        raise ArchiveError(f"match id {match_id!r}: {SIDE_STREAM_MARK!r} is reserved for the "
                           "server's side records (seats, commands)")
    return match_id


def match_ids(store: EventStore) -> list[str]:
    return [s.stream for s in store.streams() if is_match_stream(s.stream)]


def list_matches(store: EventStore, limit: int = 200) -> list[dict[str, Any]]:
    """Matches in the store, most recently changed first: id, variant, players, status,
    scores (JSON-able, for the replay picker)."""
    infos = [s for s in store.streams() if is_match_stream(s.stream)]
    infos.sort(key=lambda s: s.updated_at, reverse=True)
    out = []
    for info in infos[:limit]:
        first = store.read(info.stream, limit=1)
        if not first or first[0].type != "match_started":
            continue
        last = store.read(info.stream, after_seq=info.last_seq - 1)[0]
        finished = last.type == "match_ended"
        scores = last.payload.get("scores") if last.type in ("hand_ended", "match_ended") \
            else None
        out.append({
            "match_id": info.stream,
            "variant": first[0].payload.get("variant"),
            "players": first[0].payload.get("players"),
            "finished": finished,
            "winner": last.payload.get("winner") if finished else None,
            "scores": scores,
            "events": info.last_seq,
            "updated_at": info.updated_at.isoformat(),
        })
    return out


def summarize(store: EventStore, match_id: str) -> MatchSummary:
    """Variant, status and score from the first and last events (cheap for finished matches)."""
    first = store.read(match_id, limit=1)
    if not first or first[0].type != "match_started":
        raise ArchiveError(f"stream {match_id!r} is not a match")
    last_seq = store.last_seq(match_id)
    last = store.read(match_id, after_seq=last_seq - 1)[0]
    scores = {"NS": 0, "EW": 0}
    status = "in progress"
    if last.type == "match_ended":
        status = f"finished, {last.payload['winner']} won"
        scores = dict(last.payload["scores"])
    else:
        for event in reversed(store.read(match_id)):
            if event.type == "hand_ended":
                scores = dict(event.payload["scores"])
                break
    return MatchSummary(match_id, first[0].payload["variant"], status, scores, last_seq)

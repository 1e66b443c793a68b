"""Matches in the event store: one stream per match, named by its match id.

The store knows no game; this is where typed game events meet stored JSON. Which game a match is
comes from its `match_started.game` (absent in logs older than the field: the registry's default
game, whose every log was written before games were plug-ins), looked up in a
`games.registry.Registry` (the real `GAMES` unless a caller passes another). Loading and listing
live here once, for the tools and the replay routes alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from archive.streams import SIDE_STREAM_MARK, is_match_stream
from games.interface import Game, UnknownGame
from games.registry import GAMES, Registry
from storage.store import EventStore

Event = Any
"""A typed event of whichever game the match is (the game's own event model)."""


class ArchiveError(Exception):
    """A stored or imported match that is unusable, with the reason for a person."""


class UnknownMatch(ArchiveError):
    """No match by that id in the store (as opposed to one that is there but unreadable)."""


@dataclass(frozen=True)
class MatchLog:
    """A whole match log and the game whose events they are (the typed events need it)."""

    game: Game
    events: list[Event]


@dataclass(frozen=True)
class MatchSummary:
    match_id: str
    variant: str
    status: str
    scores: dict[str, int]
    events: int


def game_of_payload(first: dict[str, Any], games: Registry = GAMES) -> Game:
    """The game a log is, from its first event as JSON: `match_started.game`, and the
    registry's default game when it names none (or does not start with match_started: the
    rules then refuse it)."""
    name = first.get("game") if first.get("type") == "match_started" else None
    return games.game(name if isinstance(name, str) or name is None else str(name))


def game_of_events(events: Sequence[Event], games: Registry = GAMES) -> Game:
    """The game typed events belong to, from their match_started (the default if none)."""
    first = events[0] if events else None
    name = getattr(first, "game", None) if getattr(first, "type", None) == "match_started" \
        else None
    return games.game(name)


def load_match(store: EventStore, match_id: str, upto_seq: int | None = None,
               games: Registry = GAMES) -> list[Event]:
    """The match's events as typed events (the referee's view), up to `upto_seq` if given."""
    return load_match_log(store, match_id, upto_seq, games).events


def load_match_log(store: EventStore, match_id: str, upto_seq: int | None = None,
                   games: Registry = GAMES) -> MatchLog:
    """The match's game and its typed events (the referee's view), up to `upto_seq`."""
    stored = store.read(match_id, limit=upto_seq)
    if not stored or stored[0].type != "match_started":
        raise UnknownMatch(f"no match {match_id!r} in this store")
    try:
        game = game_of_payload(stored[0].payload, games)
    except UnknownGame as error:
        raise ArchiveError(f"match {match_id!r}: {error}") from error
    try:
        return MatchLog(game, [game.parse_event(e.payload) for e in stored])
    except (ValidationError, ValueError) as error:
        raise ArchiveError(f"match {match_id!r} holds an unreadable event: {error}") from error


def save_match(store: EventStore, events: Sequence[Event], games: Registry = GAMES) -> None:
    """Store a whole match as a new stream, all or nothing, after proving it legal."""
    game = game_of_events(events, games)
    store_checked_match(store, check_match(events, game), events, game)


def check_match(events: Sequence[Event], game: Game) -> str:
    """Prove a match legal by `game`'s rules (raises games.interface.LogProblem) and fit to
    store; its id. Needs no store, so a tool can refuse a bad log before it opens (and
    perhaps creates) one."""
    game.check_log(events)
    return _match_id(events)


def store_checked_match(store: EventStore, match_id: str, events: Sequence[Event],
                        game: Game) -> None:
    """Append a match that `check_match` accepted as the new stream `match_id`, all or nothing."""
    store.append(match_id, 0, [game.event_to_dict(e) for e in events])


def save_matches(store: EventStore, matches: Iterable[Sequence[Event]],
                 games: Registry = GAMES) -> int:
    """Store many new matches in one group commit; returns how many."""
    batch = []
    for match in matches:
        game = game_of_events(match, games)
        batch.append((_match_id(match), 0, [game.event_to_dict(e) for e in match]))
    for result in store.append_batch(batch):
        if isinstance(result, Exception):
            raise ArchiveError(str(result))
    return len(batch)


def _match_id(events: Sequence[Event]) -> str:
    first = events[0] if events else None
    if first is None or first.type != "match_started":
        raise ArchiveError("a match log starts with match_started")
    match_id = getattr(first, "match_id", None)
    if not isinstance(match_id, str) or not match_id:
        raise ArchiveError("match_started names no match_id")
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
            else _latest_scores(store, info.stream, first[0].payload.get("variant"), info.last_seq)
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
    """Variant, status and score from the first and last events (cheap for finished matches).

    Any game: `scores` is the latest event's `scores` field ({side: points}); none yet is
    every side its variant declares at 0 (`VariantInfo.sides`; none declared: {})."""
    first = store.read(match_id, limit=1)
    if not first or first[0].type != "match_started":
        raise ArchiveError(f"stream {match_id!r} is not a match")
    variant = str(first[0].payload.get("variant"))
    last_seq = store.last_seq(match_id)
    last = store.read(match_id, after_seq=last_seq - 1)[0]
    status = "in progress"
    if last.type == "match_ended":
        winner = last.payload.get("winner")
        status = f"finished, {winner} won" if winner is not None else "finished, nobody won"
    scores = dict(last.payload["scores"]) if isinstance(last.payload.get("scores"), dict) \
        else _latest_scores(store, match_id, variant, last_seq)
    return MatchSummary(match_id, variant, status, scores, last_seq)


def _latest_scores(store: EventStore, match_id: str, variant: Any, upto: int) -> dict[str, int]:
    """A match in play: the scores of its latest event up to seq `upto` that has them (the
    events counted beside them; moves may land meanwhile), else every side at 0."""
    scored = next((e for e in reversed(store.read(match_id, limit=upto))
                   if isinstance(e.payload.get("scores"), dict)), None)
    return dict(scored.payload["scores"]) if scored is not None else _no_scores(str(variant))


def _no_scores(variant: str, games: Registry = GAMES) -> dict[str, int]:
    """The score before any is recorded: each side the variant declares at 0."""
    try:
        return dict.fromkeys(games.variant(variant).sides, 0)
    except UnknownGame:
        return {}

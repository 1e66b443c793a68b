"""Replays for the browser: a stored (or uploaded) match as one audience saw it, with beliefs.

A replay is {match_id, game, perspective, finished, events, beliefs} (and `options`, the
table options a stored table was created with, when it has any), for any registered
game: the events redacted for the perspective (the game's `view`) and the perspective's exact
belief after every event (the game's `belief`, the same fold the live workers run).
Perspective "all" is the referee's log with every hand open, so it carries no beliefs, and
like any seat's perspective it is only given for a finished match: while a match is in
play, only the public (spectator) replay is served, since a seat's would show its hand.

This module builds replays; server/replay/http.py serves them (and replay advice, from
server/replay/advice.py) over HTTP and the upload WebSocket.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from archive.jsonl import LogFormatError, parse_log_lines
from archive.matches import ArchiveError, MatchLog, UnknownMatch, game_of_events, load_match_log
from archive.tables import read_table
from games.advice import advisor_of, models_of
from games.interface import REFEREE, SPECTATOR, Game, LogProblem, UnknownGame, match_seats
from games.registry import GAMES
from games.registry import Registry as Games
from protocol.frames import belief_body
from storage import AsyncEventStore, EventStore

ALL = "all"
"""The referee's perspective: every hand open (finished matches only, no beliefs)."""
Event = Any
MAX_UPLOAD = 2 * 1024 * 1024
"""Largest accepted JSONL upload (bytes)."""
MAX_UPLOAD_EVENTS = 4000
"""Most events in an upload (a 100-point match has about 260): the reply carries a belief
per event, ~100x the log's size, so the log's length is what bounds the work."""
MAX_DEPTH = 16
"""Deepest nesting of arrays and objects in an upload (events nest 3-4 deep); checked
before any JSON parsing, which recurses (a 100,000-deep line raised RecursionError)."""
STREAM_CHUNK = 64
"""Events (or beliefs) per fragment of a streamed replay."""
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
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
    code: str | None = None
    """A refusal's kind for clients to branch on (`rate_limited`, `busy`), as on /ws."""
    partial: Json | None = None
    """With 202 `computing`: the answer as it stands so far (an advisor that streams)."""

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> Json:
        data: Json = {"error": self.message}
        if self.code is not None:
            data["code"] = self.code
        if self.partial is not None:
            data["partial"] = self.partial
        if self.line is not None:
            data["line"] = self.line
        if self.seq is not None:
            data["seq"] = self.seq
        return data


# -- building a replay ------------------------------------------------------------------------


def perspectives(game: Game, first: Event) -> tuple[str, ...]:
    """Each seat the match was played at (its match_started's players: a table option may
    have changed them), the spectator, and `all`."""
    variant = first.variant
    if variant not in game.variants():
        raise ReplayError(422, f"{game.name} has no variant {variant!r}")
    return (*match_seats(game, first), SPECTATOR, ALL)


def check_perspective(perspective: str, allowed: Sequence[str] | None = None) -> str:
    """A perspective name (checked against the match's seats once its game is known)."""
    if not 0 < len(perspective) <= 16 or not perspective.isidentifier() or (
            allowed is not None and perspective not in allowed):
        known = f" (one of {', '.join(allowed)})" if allowed else ""
        raise ReplayError(400, f"unknown perspective {perspective!r}{known}")
    return perspective


def belief_series(events: Sequence[Event], observer: str, game: Game,
                  variant: str) -> list[Json]:
    """The observer's belief after each event of its (already redacted) view."""
    belief = game.belief(observer, variant)
    out = []
    for event in events:
        try:
            belief.apply(event)
        except ValueError as error:  # the game's belief refuses an inconsistent view
            raise ReplayError(422, f"no belief after seq {event.seq}: {error}",
                              seq=event.seq) from error
        out.append(belief_body(belief.snapshot_dict()))
    return out


def is_finished(events: Sequence[Event]) -> bool:
    return bool(events) and events[-1].type == "match_ended"


def build_replay(events: Sequence[Event], perspective: str, game: Game | None = None) -> Json:
    """The replay of a referee's log for `perspective` (see the module docstring)."""
    if not events or events[0].type != "match_started":
        raise ReplayError(422, "a match log starts with match_started", seq=1)
    if game is None:
        try:
            game = game_of_events(events)
        except UnknownGame as error:
            raise ReplayError(422, str(error), seq=1) from error
    variant = events[0].variant
    check_perspective(perspective, perspectives(game, events[0]))
    finished = is_finished(events)
    if not finished and perspective != SPECTATOR:
        raise ReplayError(403, "this match is still in play: only the spectator perspective "
                               "is available until it ends")
    audience = REFEREE if perspective == ALL else perspective
    seen = [game.view(e, audience) for e in events]
    return {
        "match_id": events[0].match_id,
        "game": game.name,
        "perspective": perspective,
        "finished": finished,
        **advice_offer(game),
        "events": [game.event_to_dict(e) for e in seen],
        "beliefs": [] if perspective == ALL else belief_series(seen, perspective, game,
                                                                variant),
    }


def advice_offer(game: Game) -> dict[str, Any]:
    """What a replay's advisor panel may ask: whether the game has an advisor, and the models
    of the hidden hands it offers (the viewer draws a switch when there are several)."""
    advisor = advisor_of(game)
    return {"advice": advisor is not None,
            "advice_models": list(models_of(advisor)) if advisor is not None else []}


def parse_upload(body: bytes, games: Games = GAMES) -> list[Event]:
    """A referee's JSONL log from an upload, proven legal (see `parse_upload_log`)."""
    return parse_upload_log(body, games).events


def parse_upload_log(body: bytes, games: Games = GAMES) -> MatchLog:
    """A referee's JSONL log from an upload, proven legal; errors name the line or the seq."""
    if len(body) > MAX_UPLOAD:
        raise ReplayError(413, f"the log is larger than {MAX_UPLOAD // (1024 * 1024)} MiB")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ReplayError(400, f"the log is not UTF-8 text (byte {error.start})") from error
    if sum(1 for line in text.splitlines() if line.strip()) > MAX_UPLOAD_EVENTS:
        raise ReplayError(413, f"the log holds more than {MAX_UPLOAD_EVENTS} events")
    depth = nesting_depth(body)
    if depth > MAX_DEPTH:
        raise ReplayError(400, f"the log nests {depth} deep (at most {MAX_DEPTH})")
    try:
        log = parse_log_lines(text.splitlines(), games)
    except LogFormatError as error:
        raise ReplayError(400, f"line {error.line}: {error.reason}", line=error.line) from error
    if not log.events:
        raise ReplayError(400, "the log holds no events")
    try:
        log.game.check_log(log.events)
    except LogProblem as error:
        raise ReplayError(400, str(error), seq=error.seq) from error
    return log


def nesting_depth(body: bytes) -> int:
    """The deepest nesting of [ and { in a JSON text, strings skipped; no parsing (and no
    recursion), linear in the text. Brackets that do not balance only make it larger."""
    brackets = _STRINGS.sub(b"", body).translate(None, _NOT_BRACKETS)
    steps = (1 if c in (0x5B, 0x7B) else -1 for c in brackets)
    return max(itertools.accumulate(steps, initial=0))


def replay_fragments(events: Sequence[Event], perspective: str, game: Game) -> Iterator[str]:
    """The JSON of `build_replay` in pieces (each at most STREAM_CHUNK events or beliefs),
    so a long replay is never one string in memory; concatenated, the same document."""
    if not events or events[0].type != "match_started":
        raise ReplayError(422, "a match log starts with match_started", seq=1)
    variant = events[0].variant
    check_perspective(perspective, perspectives(game, events[0]))
    finished = is_finished(events)
    if not finished and perspective != SPECTATOR:
        raise ReplayError(403, "this match is still in play: only the spectator perspective "
                               "is available until it ends")
    audience = REFEREE if perspective == ALL else perspective
    head = {"match_id": events[0].match_id, "game": game.name, "perspective": perspective,
            "finished": finished, **advice_offer(game)}
    yield json.dumps(head, separators=(",", ":"))[:-1] + ',"events":['
    seen = [game.view(e, audience) for e in events]
    for start in range(0, len(seen), STREAM_CHUNK):
        part = [json.dumps(game.event_to_dict(e), separators=(",", ":"))
                for e in seen[start:start + STREAM_CHUNK]]
        yield ("," if start else "") + ",".join(part)
    yield '],"beliefs":['
    if perspective != ALL:
        belief = game.belief(perspective, variant)
        for start in range(0, len(seen), STREAM_CHUNK):
            part = []
            for event in seen[start:start + STREAM_CHUNK]:
                try:
                    belief.apply(event)
                except ValueError as error:
                    raise ReplayError(422, f"no belief after seq {event.seq}: {error}",
                                      seq=event.seq) from error
                part.append(json.dumps(belief_body(belief.snapshot_dict()),
                                       separators=(",", ":")))
            yield ("," if start else "") + ",".join(part)
    yield "]}"


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
    return load_log(store, match_id).events


def load_log(store: EventStore, match_id: str, games: Games = GAMES) -> MatchLog:
    """A stored match and its game (blocking); refusals as ReplayError (404, 500)."""
    try:
        return load_match_log(store, check_match_id(match_id), games=games)
    except UnknownMatch as error:
        raise ReplayError(404, f"no match {match_id!r} here") from error
    except ArchiveError as error:
        raise ReplayError(500, f"match {match_id!r} holds an unreadable event") from error


class StoredReplays:
    """One store's replays; finished matches' are cached (they never change)."""

    def __init__(self, store: EventStore, games: Games = GAMES) -> None:
        self.store = store
        self.games = games
        self._cache: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    def replay(self, match_id: str, perspective: str) -> bytes:
        """The JSON of a stored match's replay (blocking: call it in a thread)."""
        check_perspective(perspective)
        key = (match_id, perspective)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        log = load_log(self.store, match_id, self.games)
        report = self.store.verify_chain(match_id)  # a rewritten history is not served
        if not report.ok:
            raise ReplayError(409, f"match {match_id!r} fails verification ({report.reason} "
                                   f"at seq {report.first_bad_seq})", seq=report.first_bad_seq)
        replay = build_replay(log.events, perspective, log.game)
        table = read_table(self.store, match_id, config_only=True)
        if table is not None and table.config.options:  # a table's: the options it was set
            replay["options"] = table.config.options
        body = json.dumps(replay, separators=(",", ":")).encode()
        if is_finished(log.events):
            self._cache[key] = body
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return body


def uploaded_replay(body: bytes, perspective: str, games: Games = GAMES) -> bytes:
    check_perspective(perspective)
    log = parse_upload_log(body, games)
    replay = build_replay(log.events, perspective, log.game)
    return json.dumps(replay, separators=(",", ":")).encode()

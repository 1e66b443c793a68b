"""The replay routes over HTTP, and uploads over a WebSocket: the one module that serves both
replay parts (server/replay/build.py builds replays, server/replay/advice.py ranks a move).

`handle_replay_http` answers the JSON routes; `wrap_process_request` puts them in front of
the server's websockets `process_request` hook, and `replay_upload_ws` takes uploads over a
WebSocket at UPLOAD_PATH (websockets reads no HTTP bodies): two lines in server/app.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from websockets.exceptions import ConnectionClosed

from archive.chat import read_chat
from archive.reader import Archive
from games.registry import GAMES
from games.registry import Registry as Games
from server.advice_memo import AdviceMemo, KeptAdvice
from server.http import response
from server.logs import log
from server.ratelimit import TokenBucket
from server.replay.advice import ReplayAdvisor
from server.replay.build import (
    MatchLog,
    ReplayError,
    StoredReplays,
    StoreLike,
    check_perspective,
    parse_upload_log,
    replay_fragments,
    sync_store,
)
from server.replay.gate import ANSWER_DEADLINE, ReplayGate
from server.replay.odds import ReplayOdds
from server.replay.results import ReplayResults
from server.replay.verdicts import ReplayVerdicts
from storage import EventStore

Reply = tuple[int, dict[str, str], bytes]

# -- HTTP -------------------------------------------------------------------------------------

_JSON = {"Content-Type": "application/json", "Cache-Control": "no-cache"}


def _reply(status: int, body: bytes) -> Reply:
    return status, dict(_JSON), body


def _error(error: ReplayError) -> Reply:
    return _reply(error.status, json.dumps(error.to_json()).encode())


class ReplayDesk:
    """What the replay routes serve one store with: its replays and its replay advisor, each
    with its own cache (owned here, not module state)."""

    def __init__(self, store: StoreLike, games: Games = GAMES,
                 memo: AdviceMemo | None = None, kept: KeptAdvice | None = None) -> None:
        """`memo`: the live tables' advice, which the replay of the same move shows at once;
        `kept`: advice kept in the store's database by position (server/advice_memo.py)."""
        self.store = sync_store(store)
        self.games = games
        self.replays = StoredReplays(self.store, games)
        self.gate = ReplayGate()
        """One gate and one store of answers for advice and odds alike."""
        self.results = ReplayResults()
        self.advisor = ReplayAdvisor(self.store, games, gate=self.gate, results=self.results,
                                     deadline=ANSWER_DEADLINE, memo=memo,
                                     kept=kept)
        self.verdicts = ReplayVerdicts(self.advisor, self.gate, self.results)
        self.odds = ReplayOdds(self.store, games, gate=self.gate, results=self.results,
                               deadline=ANSWER_DEADLINE)


async def handle_replay_http(
    method: str, path: str, query: dict[str, str], desk: ReplayDesk, address: str = "-"
) -> Reply | None:
    """Answer `GET /api/matches`, `GET /api/matches/{id}/replay?perspective=P` and
    `GET /api/matches/{id}/advice?seq=N[&model=M]` (server/replay/advice.py),
    `GET /api/matches/{id}/verdicts?seat=S[&model=M]` (server/replay/verdicts.py) and
    `GET /api/matches/{id}/odds?seq=N&observer=O` (server/replay/odds.py) and
    `GET /api/matches/{id}/chat` (the table's chat lines); None for other paths.
    Uploads come over the WebSocket (`replay_upload_ws`): websockets reads no HTTP bodies."""
    if not path.startswith("/api/"):
        return None
    sync = desk.store
    perspective = query.get("perspective", "spectator")
    parts = [urllib.parse.unquote(p) for p in path.split("/")[2:]]
    try:
        if parts == ["matches"]:
            if method != "GET":
                raise ReplayError(405, "use GET")
            data = await Archive(sync, desk.games).listing()
            return _reply(200, json.dumps({"matches": data}).encode())
        if len(parts) == 3 and parts[0] == "matches" and parts[2] == "replay":
            if method != "GET":
                raise ReplayError(405, "use GET")
            return _reply(200, await asyncio.to_thread(desk.replays.replay, parts[1],
                                                       perspective))
        if len(parts) == 3 and parts[0] == "matches" and parts[2] == "advice":
            if method != "GET":
                raise ReplayError(405, "use GET")
            return _reply(200, await desk.advisor.advice(parts[1], query.get("seq"),
                                                         query.get("model"), address,
                                                         progress=query.get("progress") == "1"))
        if len(parts) == 3 and parts[0] == "matches" and parts[2] == "verdicts":
            if method != "GET":
                raise ReplayError(405, "use GET")
            return _reply(200, await desk.verdicts.verdicts(parts[1], query.get("seat"),
                                                            query.get("model"), address))
        if len(parts) == 3 and parts[0] == "matches" and parts[2] == "chat":
            if method != "GET":
                raise ReplayError(405, "use GET")
            return _reply(200, await asyncio.to_thread(match_chat, sync, parts[1]))
        if len(parts) == 3 and parts[0] == "matches" and parts[2] == "odds":
            if method != "GET":
                raise ReplayError(405, "use GET")
            return _reply(200, await desk.odds.odds(parts[1], query.get("seq"),
                                                    query.get("observer"), query.get("model"),
                                                    address))
        raise ReplayError(404, f"no route {path}")
    except ReplayError as error:
        return _error(error)


_MATCH_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def match_chat(store: EventStore, match_id: str) -> bytes:
    """`{match_id, lines}`: every chat line said at the match's table, oldest first (public
    to the table as it was played: a spectator saw each line live). 404: no such match."""
    if not _MATCH_ID.match(match_id) or store.last_seq(match_id) == 0:
        raise ReplayError(404, f"no match {match_id!r}")
    return json.dumps({"match_id": match_id, "lines": read_chat(store, match_id)}).encode()


UPLOAD_PATH = "/api/replay/upload"
"""WebSocket path for uploads: websockets' HTTP side reads no request bodies."""


class UploadGuard:
    """Uploads are open to anyone (no account, no seat), and each costs a belief per event:
    a rate per address (a token bucket each), and a ceiling on uploads built at once."""

    def __init__(self, per_minute: float = 20.0, burst: float = 20.0, at_once: int = 2,
                 wait: float = 30.0) -> None:
        self.per_minute = per_minute
        self.burst = burst
        self.wait = wait
        self.slots = asyncio.Semaphore(at_once)
        self._buckets: dict[str, TokenBucket] = {}

    def allow(self, address: str) -> bool:
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= 10_000:  # forget the addresses that are full again
                self._buckets = {a: b for a, b in self._buckets.items() if not _full(b)}
            bucket = self._buckets[address] = TokenBucket(self.per_minute / 60.0, self.burst)
        return bucket.take()


def _full(bucket: TokenBucket) -> bool:
    bucket.take(cost=0.0)  # brings its count up to now
    return bucket.tokens >= bucket.burst


def _address(ws: Any) -> str:
    peer = getattr(ws, "remote_address", None)
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)


async def replay_upload_ws(ws: Any, games: Games = GAMES,
                           guard: UploadGuard | None = None) -> None:
    """One upload per connection on UPLOAD_PATH?perspective=P: the client sends the JSONL log
    as one text frame; the reply is one message (sent in fragments, built as it goes), the
    replay JSON or {"error", "status", "line"|"seq"}. Nothing raised here reaches the log
    as a traceback: an unexpected failure is logged in one line and answered with 500."""
    guard = guard or UploadGuard()
    raw_query = ws.request.path.partition("?")[2]
    perspective = dict(urllib.parse.parse_qsl(raw_query)).get("perspective", "spectator")
    try:
        try:
            if not guard.allow(_address(ws)):
                raise ReplayError(429, "too many uploads from your address; wait a minute")
            check_perspective(perspective)
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=60)
            except TimeoutError as error:
                raise ReplayError(408, "no log received") from error
            body = text.encode() if isinstance(text, str) else bytes(text)
            try:
                await asyncio.wait_for(guard.slots.acquire(), guard.wait)
            except TimeoutError as error:
                raise ReplayError(503, "the server is busy with other uploads") from error
            try:
                log_ = await asyncio.to_thread(parse_upload_log, body, games)
                await ws.send(_fragments(log_, perspective))
            finally:
                guard.slots.release()
        except ReplayError as error:
            await ws.send(json.dumps({**error.to_json(), "status": error.status}))
        except RecursionError:
            await ws.send(json.dumps({"error": "the log nests too deeply", "status": 400}))
    except ConnectionClosed:
        pass
    except Exception as error:  # a bug: one line in the log, a 500 to the client
        log("replay_upload_failed", error=repr(error)[:300])
        with contextlib.suppress(Exception):
            await ws.send(json.dumps({"error": "the server failed on this log", "status": 500}))
    finally:
        with contextlib.suppress(Exception):
            await ws.close()


async def _fragments(log_: MatchLog, perspective: str) -> AsyncIterator[str]:
    """The replay's JSON in pieces, each built in a worker thread (the loop stays free)."""
    parts = replay_fragments(log_.events, perspective, log_.game)
    first = await asyncio.to_thread(next, parts)  # a refusal (403, 422) comes before any byte
    yield first
    while (part := await asyncio.to_thread(next, parts, None)) is not None:
        yield part


def wrap_process_request(
    inner: Callable[[Any, Any], Any], get_desk: Callable[[], ReplayDesk | None],
    admit: Callable[[Any], Any] | None = None,
) -> Callable[[Any, Any], Awaitable[Any]]:
    """A websockets `process_request` that answers /api/ itself and hands the rest to `inner`.

    websockets reads no request bodies (its handshake parser refuses a Content-Length), so
    through it only the GET routes work; uploads come over the WebSocket at UPLOAD_PATH
    (`replay_upload_ws`). `admit(connection)`, first, may refuse the connection itself (a
    response) or let it through (None): its address's connection count.
    """
    async def process_request(connection: Any, request: Any) -> Any:
        refused = admit(connection) if admit is not None else None
        if refused is not None:  # before anything else: the connection's own admission
            return refused
        path, _, raw_query = request.path.partition("?")
        if path == UPLOAD_PATH:
            return None  # on to the WebSocket handshake: replay_upload_ws answers it
        desk = get_desk()
        if path.startswith("/api/") and desk is not None:
            query = dict(urllib.parse.parse_qsl(raw_query))
            method = getattr(request, "method", "GET")
            reply = await handle_replay_http(method, path, query, desk, _address(connection))
            if reply is not None:
                status, headers, body = reply
                return response(status, body, headers["Content-Type"])
        result = inner(connection, request)
        if asyncio.iscoroutine(result):
            result = await result
        return result

    return process_request

"""Hostile input: malformed, oversized and mutated messages thrown at a running server.

Every frame gets exactly one typed reply (an `error` with a known code for the bad ones),
the server stays up, and afterwards every stored stream is a valid log with an intact chain.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from games.dominoes.events import parse_event
from games.dominoes.validate import check_log
from protocol import ErrorMessage, parse_server
from server.app import DominoServer
from storage import EventStore
from tests.conftest import make_config

TYPES = ["create_table", "list_tables", "join", "resume", "watch", "play", "pass", "leave"]
CODES = {"bad_request", "unknown_table", "seat_taken", "unauthorized", "not_your_turn",
         "illegal_move", "wrong_phase", "rate_limited", "too_large", "unknown_bot"}


class Live:
    def __init__(self, tmp: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = DominoServer(make_config(tmp))
        self.run(self.server.start())
        self.url = f"ws://127.0.0.1:{self.server.port}/ws"

    def run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def close(self) -> None:
        self.run(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    instance = Live(tmp_path_factory.mktemp("fuzz"))
    with connect(instance.url) as ws:
        ws.send(json.dumps({"type": "create_table", "id": 1,
                            "bots": {"W": "random", "N": "random", "E": "greedy"}}))
        table_id = json.loads(ws.recv(5))["table_id"]
        ws.send(json.dumps({"type": "join", "id": 2, "table_id": table_id, "seat": "S"}))
        while (reply := json.loads(ws.recv(5)))["type"] != "joined":
            pass
    instance.table_id = table_id  # type: ignore[attr-defined]
    instance.token = reply["token"]  # type: ignore[attr-defined]
    yield instance
    instance.close()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=4),
    max_leaves=12,
)
field_names = st.sampled_from(["id", "table_id", "seat", "tile", "end", "token", "after_seq",
                               "variant", "target", "bots", "name", "scoring", "advice", "x"])


@st.composite
def hostile(draw: st.DrawFn) -> str | bytes:
    kind = draw(st.sampled_from(["text", "bytes", "json", "command", "huge", "deep"]))
    if kind == "text":
        return draw(st.text(max_size=200))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "json":
        return json.dumps(draw(json_values))
    if kind == "huge":
        return json.dumps({"type": draw(st.sampled_from(TYPES)),
                           "pad": "x" * draw(st.integers(65_537, 300_000))})
    if kind == "deep":
        depth = draw(st.integers(100, 5000))
        return "[" * depth + "]" * depth
    message: dict[str, object] = {"type": draw(st.sampled_from([*TYPES, "nope", 3, None]))}
    message.update(draw(st.dictionaries(field_names, json_values, max_size=5)))
    if draw(st.booleans()):
        message["table_id"] = "LIVE"
    if draw(st.booleans()):
        message["tile"] = draw(st.sampled_from(["0-0", "6-6", "3-5", "9-9", "1-2", "-1-2", "a-b"]))
    return json.dumps(message)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(frames=st.lists(hostile(), min_size=1, max_size=3))
def test_hostile_frames_get_typed_errors_and_the_server_survives(live: Live, frames) -> None:
    table_id = live.table_id  # type: ignore[attr-defined]
    with connect(live.url, max_size=None, compression=None) as ws:
        ws.send(json.dumps({"type": "resume", "id": "r", "table_id": table_id,
                            "token": live.token, "after_seq": 10**9}))  # type: ignore[attr-defined]
        while parse_server(ws.recv(5)).type != "resumed":
            pass
        for frame in frames:
            if isinstance(frame, str):
                frame = frame.replace('"LIVE"', json.dumps(table_id))
            ws.send(frame)
            while True:  # events and beliefs of our seat may interleave; one reply comes
                reply = parse_server(ws.recv(10))
                if reply.type not in ("event", "belief"):
                    break
            if isinstance(reply, ErrorMessage):
                assert reply.code in CODES, reply
    with connect(live.url) as ws:  # still up
        ws.send('{"type":"list_tables","id":9}')
        assert json.loads(ws.recv(5))["type"] == "tables"


def test_stored_logs_stay_valid_after_the_fuzz(live: Live) -> None:
    assert live.server.store is not None
    store: EventStore = live.server.store.store
    streams = store.streams()
    assert streams
    for info in streams:
        assert store.verify_chain(info.stream).ok, info.stream
        if ":" not in info.stream:  # a match stream (side streams are seats:/commands:)
            check_log([parse_event(e.payload) for e in store.read(info.stream)])

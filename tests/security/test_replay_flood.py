"""Issue 30, finding 4: replay advice and odds must not drain the live bots' pool.

Before: four unauthenticated loops on `/api/matches/{id}/advice` and `/odds` made 72 live
pimc decisions fall back to greedy (the replays ran in the bots' pool), and every request
reloaded the whole match log before its queue was looked at. Now replays run in a pool of
their own, behind a gate checked before anything is loaded (a rate and one computation per
address, a bound server-wide), with typed refusals, and answers are kept per (match, seq).

The real server on loopback, a stored finished match, a live table of four pimc bots, and
raw HTTP clients. The bots' pool is sized to one worker, so that a single replay job in it
would make a pimc decision wait past its second (on any machine).
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from archive.matches import save_match
from games.dominoes.selfplay import random_match_events
from server import strategy_processes
from server.app import DominoServer
from server.replay.build import ReplayError
from server.replay.gate import ReplayGate, gated
from server.replay.results import ReplayResults, ResultKey
from storage import EventStore
from tests.conftest import make_config
from tests.server.helpers import wait_for

MATCH = "m-flood"


async def http_get(port: int, path: str) -> tuple[int, dict]:
    """One GET on a fresh connection, as a stranger's script would: (status, JSON body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), None)
        body = await (reader.readexactly(length) if length is not None else reader.read())
        return status, json.loads(body) if body else {}
    finally:
        writer.close()


async def test_a_replay_flood_leaves_live_pimc_decisions_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    match = random_match_events(random.Random(5), target=30, match_id=MATCH)
    with EventStore(tmp_path / "server.sqlite3", key=None) as store:
        save_match(store, match)
    moves = [e.seq for e in match if e.type == "tile_played"]
    monkeypatch.setattr(strategy_processes.BOTS, "workers", 1)
    server = DominoServer(make_config(tmp_path))
    await server.start()
    try:
        async with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
            await ws.send(json.dumps({"type": "create_table", "id": 1,
                                      "bots": dict.fromkeys("SWNE", "pimc")}))
            table_id = json.loads(await ws.recv())["table_id"]
        table = server.registry.tables[table_id]
        answers: list[tuple[int, dict]] = []

        async def flood(n: int) -> None:
            rng = random.Random(n)
            while table.last_seq < start + 12:  # until a dozen live moves were made
                route = rng.choice(["advice", "odds"])
                query = f"seq={rng.choice(moves)}" + ("&observer=N" if route == "odds" else "")
                answers.append(await http_get(server.port, f"/api/matches/{MATCH}/{route}?"
                                              f"{query}"))
                await asyncio.sleep(0.01)

        await wait_for(lambda: table.last_seq > 3, 60)
        start = table.last_seq
        with caplog.at_level("INFO", logger="domino"):
            await asyncio.wait_for(asyncio.gather(*(flood(n) for n in range(6))), 300)
        admission = strategy_processes.BOTS.admission()
    finally:
        await server.stop()
    assert "pimc_fell_back" not in caplog.text and "pooled_bot_failed" not in caplog.text
    assert admission.timed_out == 0 and admission.refused == 0
    statuses = {status for status, _ in answers}
    assert statuses <= {200, 202, 429, 503}, statuses  # 202: admitted, still computing
    refused = [body for status, body in answers if status in (429, 503)]
    assert refused, "the flood was never refused"
    assert all(body.get("code") in ("rate_limited", "busy") and body.get("error")
               for body in refused), refused[:3]
    assert any(status == 200 for status, _ in answers)


async def test_the_gate_refuses_before_anything_is_loaded() -> None:
    """A refused request never reaches the computation (the log load is its first step);
    a kept answer passes no gate and costs no computation."""
    gate = ReplayGate(per_minute=60, burst=2, at_once=1, per_address=1)
    results = ReplayResults()
    loads: list[int] = []
    release = asyncio.Event()

    async def compute(seq: int) -> bytes:
        loads.append(seq)
        await release.wait()
        return b'{"seq":%d}' % seq

    first = asyncio.create_task(gated(gate, results, ResultKey("advice", "m", 1), "a",
                                      lambda: compute(1)))
    await asyncio.sleep(0)
    with pytest.raises(ReplayError) as same_address:
        await gated(gate, results, ResultKey("advice", "m", 2), "a", lambda: compute(2))
    with pytest.raises(ReplayError) as server_wide:
        await gated(gate, results, ResultKey("advice", "m", 3), "b", lambda: compute(3))
    joined = asyncio.create_task(gated(gate, results, ResultKey("advice", "m", 1), "c",
                                       lambda: compute(1)))  # shares the one under way
    await asyncio.sleep(0)
    release.set()
    assert await first == await joined == b'{"seq":1}'
    assert (same_address.value.status, same_address.value.code) == (429, "rate_limited")
    assert (server_wide.value.status, server_wide.value.code) == (503, "busy")
    assert loads == [1]
    for _ in range(5):  # kept: no gate, no load, whatever the address's rate
        assert await gated(gate, results, ResultKey("advice", "m", 1), "a",
                           lambda: compute(1)) == b'{"seq":1}'
    assert loads == [1]
    with pytest.raises(ReplayError) as rate:
        await gated(gate, results, ResultKey("advice", "m", 4), "a", lambda: compute(4))
    assert (rate.value.status, rate.value.code) == (429, "rate_limited")
    assert loads == [1] and gate.refused == {"rate_limited": 2, "busy": 1}


async def test_a_lasting_refusal_is_kept_a_passing_one_is_not() -> None:
    results = ReplayResults(max_entries=2)
    calls: list[str] = []

    async def lasting() -> ReplayError:
        calls.append("lasting")
        return ReplayError(404, "no seq 999")

    async def passing() -> bytes:
        calls.append("passing")
        raise ReplayError(403, "still in play")

    async def run(key: ResultKey, compute) -> bytes:
        return await results.wait(results.start(key, compute), 5)

    kept, passed = ResultKey("advice", "m", 999), ResultKey("advice", "m", 5)
    with pytest.raises(ReplayError):
        await run(kept, lasting)
    for _ in range(2):
        with pytest.raises(ReplayError, match="no seq 999"):
            results.get(kept)  # raised from what is kept, not computed again
        with pytest.raises(ReplayError):
            await run(passed, passing)
        assert results.get(passed) is None
    assert calls == ["lasting", "passing", "passing"]
    for seq in range(10):  # bounded: the oldest go
        await run(ResultKey("odds", "m", seq), _body)
    assert len(results) == 2


async def test_an_asker_who_gives_up_leaves_the_answer_to_be_kept() -> None:
    """A request has a deadline (a handshake's 10 s): past it, 202 `computing` (accepted,
    not a failure); the computation goes on, and the retry finds its answer."""
    results = ReplayResults()
    release = asyncio.Event()

    async def slow() -> bytes:
        await release.wait()
        return b'{"late":true}'

    key = ResultKey("advice", "m", 7)
    task = results.start(key, slow)
    with pytest.raises(ReplayError) as gave_up:
        await results.wait(task, 0.01)
    assert (gave_up.value.status, gave_up.value.code) == (202, "computing")
    release.set()
    await task
    assert results.get(key) == b'{"late":true}'


async def _body() -> bytes:
    return b"{}"

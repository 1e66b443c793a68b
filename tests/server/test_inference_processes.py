"""Beliefs in an inference process (`serve --inference-processes 1`, issue 15): the same
frames in-process inference would publish, for every audience, at every seq published; a
killed process is replaced and every belief reaches the head; a late spectator gets the
head's belief; and the process is sent exactly what each audience gets over its socket.
Real server, real WebSockets, real SQLite file, a real child process."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from clients.python import DominoClient, SeatView, play_until_finished
from protocol import BeliefMessage, EventMessage, ServerMessage
from protocol.frames import belief_frame
from server.app import DominoServer
from server.beliefs.processes import ProcessInference
from server.feeds.bus import Envelope
from server.tables.local import TableOptions
from tests.conftest import make_config, serving
from tests.players import until_my_turn_with_a_belief
from tests.server.helpers import wait_for

SEATS = ("S", "W", "N", "E")
AUDIENCES = (*SEATS, "spectator")


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[DominoServer]:
    async with serving(make_config(tmp_path, inference_processes=1)) as instance:
        yield instance


def _inference(server: DominoServer) -> ProcessInference:
    assert isinstance(server.inference, ProcessInference)
    return server.inference


def in_process_frames(table: Any, audience: str, seqs: set[int]) -> dict[int, dict[str, Any]]:
    """What in-process inference publishes at each of `seqs`: the game's belief for the
    audience folded over its views of the log, snapshotted, framed (BeliefWorker's steps)."""
    game = table.game
    belief = game.game.belief(audience, game.variant.name)
    out = {}
    for event in table.log[:max(seqs)]:
        belief.apply(game.game.view(event, audience))
        if event.seq in seqs:
            out[event.seq] = json.loads(belief_frame(table.table_id, belief.snapshot_dict()))
    return out


def tap(server: DominoServer, table_id: str) -> dict[str, list[Envelope]]:
    """Every audience's published beliefs, as the exact frames (and every audience watched)."""
    taps: dict[str, list[Envelope]] = {a: [] for a in AUDIENCES}
    for audience in AUDIENCES:
        server.bus.subscribe(table_id, audience, "belief", taps[audience].append)
    return taps


def check_equal(table: Any, taps: dict[str, list[Envelope]]) -> None:
    """Each audience: seqs never go back, end at the head, every frame equals in-process's."""
    head = table.last_seq
    for audience, envelopes in taps.items():
        seqs = [e.seq for e in envelopes]
        assert seqs and seqs == sorted(seqs) and seqs[-1] == head, (audience, seqs[-5:], head)
        expected = in_process_frames(table, audience, set(seqs))
        for envelope in envelopes:
            assert json.loads(envelope.frame) == expected[envelope.seq], (audience, envelope.seq)


async def seat_four(url: str, table_id: str) -> list[DominoClient]:
    clients = [await DominoClient.connect(url) for _ in SEATS]
    for seat, client in zip(SEATS, clients, strict=True):
        await client.join(table_id, seat, name=f"p{seat}")
    return clients


async def test_beliefs_from_the_process_equal_in_process_ones_for_a_whole_match(
    tmp_path: Path
) -> None:
    """Bots at every seat (a short delay, so beliefs are published along the way, not only
    coalesced at the end), every audience watched: each frame published equals the one
    in-process inference computes at its seq, and the spectator's socket gets those frames."""
    config = make_config(tmp_path, inference_processes=1,
                         tables=TableOptions(grace=30.0, bot_delay=0.03, hand_pause=0.0))
    server = DominoServer(config)
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}/ws"
        watcher = await DominoClient.connect(url)
        table_id = await watcher.create_table(target=30, bots=dict.fromkeys(SEATS, "random"))
        taps = tap(server, table_id)
        table = server.registry.tables[table_id]  # type: ignore[union-attr]
        await watcher.watch(table_id)
        got: list[BeliefMessage] = []
        async with asyncio.timeout(120):
            while not (table.finished and got and got[-1].seq == table.last_seq):
                message = await watcher.next_message(60)
                if isinstance(message, BeliefMessage):
                    got.append(message)
        await wait_for(lambda: all(t and t[-1].seq == table.last_seq for t in taps.values()), 30)
        check_equal(table, taps)
        assert all(len(t) > table.last_seq // 3 for t in taps.values())  # along the way
        assert _inference(server).shards[0].pid not in (None, os.getpid())
        published = {e.seq: json.loads(e.frame) for e in taps["spectator"]}
        assert [m.model_dump(mode="json") for m in got] == [
            BeliefMessage.model_validate(published[m.seq]).model_dump(mode="json") for m in got]
        await watcher.close()
    finally:
        await server.stop()


async def play_while_the_process_is(disturbed: Callable[[int], None], server: DominoServer,
                                    url: str) -> tuple[Any, dict[str, list[Envelope]], int]:
    """Four players play a match to its end, every audience tapped, with `disturbed(pid)`
    done to the inference process at seq 25; returns once every audience's belief is at the
    head: the table, the taps and the disturbed process's pid."""
    creator = await DominoClient.connect(url)
    table_id = await creator.create_table(target=60)
    taps = tap(server, table_id)
    clients = await seat_four(url, table_id)
    table = server.registry.tables[table_id]  # type: ignore[union-attr]
    shard = _inference(server).shards[0]
    await wait_for(lambda: shard.pid is not None and table.last_seq >= 3, 30)
    players = [asyncio.create_task(play_until_finished(
        client, table_id, SeatView(seat), random.Random(i)))
        for i, (seat, client) in enumerate(zip(SEATS, clients, strict=True))]
    await wait_for(lambda: table.last_seq >= 25, 60)
    first = shard.pid
    assert first is not None
    disturbed(first)  # mid-match
    await asyncio.gather(*players)
    assert table.finished
    await wait_for(lambda: all(t and t[-1].seq == table.last_seq for t in taps.values()), 60)
    for client in [creator, *clients]:
        await client.close()
    return table, taps, first


async def test_a_killed_process_is_replaced_and_beliefs_reach_the_head(
    server: DominoServer, url: str
) -> None:
    table, taps, first = await play_while_the_process_is(
        lambda pid: os.kill(pid, signal.SIGKILL), server, url)
    shard = _inference(server).shards[0]
    assert shard.restarts >= 1 and shard.pid != first
    check_equal(table, taps)
    for audience in AUDIENCES:  # nothing older than the head is left retained
        retained = server.bus.retained(table.table_id, audience,  # type: ignore[attr-defined]
                                       "belief")
        assert retained is not None and retained.seq == table.last_seq, audience


async def test_a_hung_process_is_killed_and_replaced_and_beliefs_reach_the_head(
    tmp_path: Path
) -> None:
    """A process that stops answering (SIGSTOP: alive, silent) while holding a batch is taken
    for hung after `inference_hang_after` seconds, killed and started again, and every
    audience's belief comes back at the head. Without the watchdog they stay where the
    process stopped."""
    stopped: list[int] = []

    def stop(pid: int) -> None:
        stopped.append(pid)
        os.kill(pid, signal.SIGSTOP)

    config = make_config(tmp_path, inference_processes=1, inference_hang_after=5.0)
    async with serving(config) as server:
        try:
            table, taps, first = await play_while_the_process_is(
                stop, server, f"ws://127.0.0.1:{server.port}/ws")
        finally:
            for pid in stopped:  # never left behind, stopped
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        shard = _inference(server).shards[0]
        # at least once: a replacement slowed by a busy machine past 5 s is taken for hung too
        assert shard.hangs >= 1 and shard.restarts >= 1 and shard.pid != first
        check_equal(table, taps)
        assert server.health()["inference_processes"][0]["hangs"] == shard.hangs


async def test_a_late_spectator_gets_the_heads_belief(server: DominoServer, url: str) -> None:
    south = await DominoClient.connect(url)
    table_id = await south.create_table(target=100, bots=dict.fromkeys("WNE", "random"))
    await south.join(table_id, "S")
    table = server.registry.tables[table_id]  # type: ignore[union-attr]
    view, _ = await until_my_turn_with_a_belief(south, "S")  # South waits there
    head = table.last_seq
    assert head == view.last_seq > 1
    assert table.workers["spectator"].stale  # folded in the process, never published
    spectator = await DominoClient.connect(url)
    last, belief = 0, None
    await spectator.watch(table_id)
    async with asyncio.timeout(30):
        while belief is None:
            message = await spectator.next_message(30)
            if isinstance(message, EventMessage):
                last = message.seq
            elif isinstance(message, BeliefMessage):
                belief = message
    assert (last, belief.seq) == (head, head)  # the head's, not an older one
    expected = in_process_frames(table, "spectator", {head})[head]
    assert belief.model_dump(mode="json") == BeliefMessage.model_validate(
        expected).model_dump(mode="json")
    for client in (south, spectator):
        await client.close()


async def test_the_process_gets_exactly_what_each_audience_gets_over_its_socket(
    server: DominoServer, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing hidden: per audience, the events sent to the process are the very frames that
    audience's socket receives (a seat's own tiles to that seat only, none to the public)."""
    shard = _inference(server).shards[0]
    sent: dict[tuple[str, str], list[dict[str, Any]]] = {}
    queue = shard.queue

    def spy(item: tuple[Any, ...], key: tuple[str, str] | None = None) -> None:
        if item[0] == "event":
            sent.setdefault((item[1], item[2]), []).append(json.loads(item[3]))
        queue(item, key)

    monkeypatch.setattr(shard, "queue", spy)
    creator = await DominoClient.connect(url)
    table_id = await creator.create_table(target=30)
    watcher = await DominoClient.connect(url)
    await watcher.watch(table_id)
    clients = await seat_four(url, table_id)
    received: dict[str, list[ServerMessage]] = {s: [] for s in SEATS}
    await asyncio.gather(*(
        play_until_finished(client, table_id, SeatView(seat), random.Random(10 + i),
                            on_message=received[seat].append)
        for i, (seat, client) in enumerate(zip(SEATS, clients, strict=True))))
    table = server.registry.tables[table_id]  # type: ignore[union-attr]
    seen_public: list[dict[str, Any]] = []
    while len(seen_public) < table.last_seq:
        message = await watcher.next_message(10)
        if isinstance(message, EventMessage):
            seen_public.append(message.model_dump(mode="json"))
    assert {k[0] for k in sent} == {table_id}
    assert sorted(k[1] for k in sent) == sorted(AUDIENCES)
    for seat in SEATS:
        socket_frames = [m.model_dump(mode="json") for m in received[seat]
                         if isinstance(m, EventMessage)]
        assert [EventMessage.model_validate(f).model_dump(mode="json")
                for f in sent[(table_id, seat)]] == socket_frames, seat
    assert [EventMessage.model_validate(f).model_dump(mode="json")
            for f in sent[(table_id, "spectator")]] == seen_public
    for seat in SEATS:  # and each seat's beliefs are the in-process ones at their seqs
        beliefs = [m for m in received[seat] if isinstance(m, BeliefMessage)]
        expected = in_process_frames(table, seat, {m.seq for m in beliefs})
        assert beliefs and all(m.observer == seat for m in beliefs)
        assert [m.model_dump(mode="json") for m in beliefs] == [
            BeliefMessage.model_validate(expected[m.seq]).model_dump(mode="json")
            for m in beliefs]
    dealt = [f["event"] for f in sent[(table_id, "spectator")]
             if f["event"]["type"] == "hand_dealt"]
    assert dealt and all(d.get("tiles") is None for d in dealt)
    for client in [creator, watcher, *clients]:
        await client.close()


def test_the_default_number_of_processes_follows_the_cores() -> None:
    """`serve`'s default (issue 31, measured in docs/operations.md): in-process on a single
    core, where a process cannot run beside the loop; one process from two cores."""
    from server.app import default_inference_processes

    assert [default_inference_processes(n) for n in (1, 2, 3, 4, 16)] == [0, 1, 1, 1, 1]
    assert default_inference_processes() in (0, 1)

"""Strategy bots as remote clients: whole matches over real sockets, a drop and a resume.

The server runs in-process (no table bots: every seat is a runner), one runner runs as the
`domino-oracle bot` command in a subprocess. Every runner must end up holding exactly its
seat's projection of the stored referee log — no more (nothing hidden leaked to it) and no
less (no gap, no duplicate after a resume).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from clients.cli import main
from clients.python import DominoClient, ServerError
from clients.python.bot_runner import BotRunner, RunnerResult
from games.dominoes.audience import view
from games.dominoes.events import Event, Passed, TilePlayed, parse_event
from games.dominoes.strategy.bots import make_bot
from games.dominoes.tiles import Seat
from games.dominoes.validate import check_log
from protocol import Ack
from server.app import DominoServer
from storage import EventStore

ROOT = Path(__file__).resolve().parents[2]
TARGET = 30


def _url(server: DominoServer) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


def _stored(server: DominoServer, table_id: str) -> list[Event]:
    """The referee's log of the table, after checking its chain and every rule."""
    assert server.store is not None
    store: EventStore = server.store.store
    assert store.verify_chain(table_id).ok
    events = [parse_event(e.payload) for e in store.read(table_id)]
    check_log(events)
    assert events[-1].type == "match_ended"
    return events


def _assert_saw_only_its_seat(result: RunnerResult, log: list[Event]) -> None:
    assert result.events == [view(e, result.seat) for e in log]
    hidden = [e for e in result.events if e.type == "hand_dealt" and e.seat != result.seat]
    assert hidden and all(e.tiles is None for e in hidden)


def _moves_by(seat: Seat, log: list[Event]) -> int:
    return sum(1 for e in log if isinstance(e, TilePlayed | Passed) and e.seat == seat)


async def _cli_bot(url: str, table_id: str, seat: Seat, bot: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "clients.cli", "bot", "--url", url, "--table", table_id,
        "--seat", seat, "--bot", bot, "--seed", "4", "--name", "cli-bot",
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    return process.returncode or 0, out.decode(), err.decode()


async def test_three_runners_and_the_bot_command_play_a_whole_match(
    server: DominoServer,
) -> None:
    url = _url(server)
    async with await DominoClient.connect(url) as creator:
        table_id = await creator.create_table(target=TARGET)  # no table bots
    runners = [
        BotRunner(url, table_id, seat, make_bot(bot, seed=seat), idle_timeout=30)
        for seat, bot in (("S", "greedy"), ("W", "random"), ("N", "greedy"))
    ]
    *results, (code, out, err) = await asyncio.gather(
        *(r.run() for r in runners), _cli_bot(url, table_id, "E", "random")
    )

    assert code == 0, err
    log = _stored(server, table_id)
    final = log[-1]
    assert final.type == "match_ended" and max(final.scores.values()) >= TARGET
    assert f"E (random) at {table_id}: match over" in out and f"winner {final.winner}" in out
    assert f"{_moves_by('E', log)} moves" in out  # every E move in the log was the command's
    started = log[0]
    assert started.type == "match_started"
    assert started.players == {"S": "remote-greedy", "W": "remote-random",
                               "N": "remote-greedy", "E": "cli-bot"}
    for result in results:
        assert result.winner == final.winner and result.scores == final.scores
        assert result.moves == _moves_by(result.seat, log) > 0  # it played every turn itself
        assert result.resumes == 0
        _assert_saw_only_its_seat(result, log)


class FlakyRunner(BotRunner):
    """A runner whose connection fails at the three moments a drop can hit a move.

    Its 1st send finds the connection dead (the move was never sent: sent again, same id);
    its 3rd send is applied but the ack is lost (after resuming it finds its move in the log
    and must not play again); after its 3rd acknowledged move the connection dies while it
    waits for its turn. No close handshake anywhere: the TCP connection just vanishes.
    """

    sends = 0
    drops: list[str]

    async def _connect(self) -> None:
        await super()._connect()
        client = self.client
        assert client is not None
        for name in ("play", "pass_"):
            setattr(client, name, self._flaky(client, getattr(client, name)))

    def _flaky(self, client: DominoClient, send: Callable[..., Awaitable[Ack]]):
        async def flaky(*args: object, **kwargs: object) -> Ack:
            self.sends += 1
            if self.sends == 1:
                self.drops.append("before the send")
                client.ws.transport.abort()
                await client.closed.wait()
            ack = await send(*args, **kwargs)
            if self.sends == 3:
                self.drops.append("ack lost")
                client.ws.transport.abort()
                raise ConnectionError("the ack was lost")
            return ack

        return flaky


async def test_a_runner_resumes_after_its_connection_drops(server: DominoServer) -> None:
    url = _url(server)
    async with await DominoClient.connect(url) as creator:
        table_id = await creator.create_table(target=TARGET)

    async def idle_drop(runner: BotRunner) -> None:
        if runner.moves == 3:
            assert isinstance(runner, FlakyRunner) and runner.client is not None
            runner.drops.append("waiting for its turn")
            runner.client.ws.transport.abort()

    west = FlakyRunner(url, table_id, "W", make_bot("pimc", seed=2, samples=4, nodes=10_000),
                       idle_timeout=30, on_move=idle_drop)
    west.drops = []
    runners = [west] + [
        BotRunner(url, table_id, seat, make_bot(bot, seed=seat), idle_timeout=30)
        for seat, bot in (("S", "greedy"), ("N", "random"), ("E", "greedy"))
    ]
    results = await asyncio.wait_for(asyncio.gather(*(r.run() for r in runners)), timeout=120)

    log = _stored(server, table_id)
    assert west.drops == ["before the send", "ack lost", "waiting for its turn"]
    assert results[0].resumes == 3
    # every W move in the log is one the runner had acknowledged: none played twice (the
    # lost ack), none lost (the dead send), none by a stand-in (it was back within the grace)
    assert results[0].moves == _moves_by("W", log)
    for result in results:
        assert result.winner == log[-1].winner
        _assert_saw_only_its_seat(result, log)


async def test_a_taken_seat_is_refused_and_the_runner_closes(server: DominoServer) -> None:
    url = _url(server)
    async with await DominoClient.connect(url) as person:
        table_id = await person.create_table(target=TARGET)
        await person.join(table_id, "S", name="a person")
        runner = BotRunner(url, table_id, "S", make_bot("greedy"), idle_timeout=5)
        with pytest.raises(ServerError) as refused:
            await runner.run()
        assert refused.value.code == "seat_taken"
        assert runner.client is not None and runner.client.closed.is_set()


def test_the_bot_command_refuses_pimc_options_for_other_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["bot", "--url", "ws://127.0.0.1:9/ws", "--table", "t", "--seat", "N",
                 "--bot", "greedy", "--nodes", "3000"])
    assert code == 2 and "pimc's options" in capsys.readouterr().err

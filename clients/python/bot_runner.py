"""A strategy bot (random, greedy, pimc) playing one seat of a live table as a remote client.

The server runs table bots in its own process; this runs the same bots anywhere, through the
protocol, the way a person plays: join a seat (or resume one with its token), keep the events
the server sends that seat — already redacted for it — and on the seat's turn ask the bot for a
move from those events alone, then send `play` or `pass`. So the bot knows exactly what a
person in that seat would, and nothing of the server's state.

A dropped connection is not the end: the runner reconnects with backoff and resumes with its
token after the last seq it holds; a move that was in flight is re-sent with the same command
id, which the server answers with the original ack if it had already applied it (protocol
"Retries"), so a move is never played twice. The runner returns when the match ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from websockets.exceptions import WebSocketException

from clients.python.client import DominoClient, ServerError
from games.dominoes.commands import Move
from games.dominoes.events import Event, Passed, TilePlayed, parse_event
from games.dominoes.seat_view import SeatView
from games.dominoes.strategy.bots import Bot
from games.dominoes.tiles import Seat
from protocol import EventMessage, ServerMessage

STALE_VIEW_CODES = frozenset({"not_your_turn", "illegal_move", "wrong_phase"})
"""Refusals that mean the view was behind the table (e.g. a stand-in played meanwhile)."""
FATAL_RESUME_CODES = frozenset({"unauthorized", "unknown_table", "bad_request"})
"""Resume refusals that retrying cannot fix."""
_DROPPED = (ConnectionError, OSError, TimeoutError, WebSocketException)


@dataclass
class RunnerResult:
    table_id: str
    seat: Seat
    bot: str
    moves: int
    """Plays and passes the server acknowledged for this runner."""
    refused: int
    """Moves refused because the view was stale (not an error; see STALE_VIEW_CODES)."""
    resumes: int
    scores: dict[str, int]
    winner: str | None
    events: list[Event] = field(repr=False)
    """The seat's events as received (redacted by the server), in seq order."""


class BotRunner:
    """Plays `seat` at `table_id` with `bot` until the match ends (`await runner.run()`)."""

    def __init__(
        self,
        url: str,
        table_id: str,
        seat: Seat,
        bot: Bot,
        *,
        name: str = "",
        token: str | None = None,
        reconnect_seconds: float = 60.0,
        idle_timeout: float | None = None,
        on_move: Callable[[BotRunner], Awaitable[None] | None] | None = None,
    ) -> None:
        self.url = url
        self.table_id = table_id
        self.seat = seat
        self.bot = bot
        self.name = name or f"remote-{bot.name}"
        self.token = token
        """Given: resume this seat instead of joining; else set by `join`."""
        self.reconnect_seconds = reconnect_seconds
        self.idle_timeout = idle_timeout
        """Give up (TimeoutError) after this many seconds without a message; None: wait."""
        self.on_move = on_move
        """Called after each acknowledged move (tests use it to cut the connection)."""
        self.view = SeatView(seat)
        self.client: DominoClient | None = None
        self.moves = 0
        self.refused = 0
        self.resumes = 0
        self._caught_up_to = 0
        self._acted_at = -1
        self._ids = f"{seat}-{secrets.token_hex(4)}"

    # -- the loop ------------------------------------------------------------------------

    async def run(self) -> RunnerResult:
        try:
            await self._connect()
            while not self.finished:
                await self._pump()
                if self._should_act():
                    await self._act()
        finally:
            if self.client is not None:
                await self.client.close()
        state = self.view.state
        assert state is not None
        return RunnerResult(self.table_id, self.seat, self.bot.name, self.moves, self.refused,
                            self.resumes, {side: n for side, n in state.scores.items()},
                            state.winner,
                            list(self.view.events))

    @property
    def finished(self) -> bool:
        return self.view.state is not None and self.view.state.phase == "finished"

    @property
    def last_seq(self) -> int:
        return self.view.events[-1].seq if self.view.events else 0

    async def _pump(self) -> None:
        """Read one message (events are folded in); on a dropped connection, resume."""
        message = await self._receive()
        if message is None:
            await self._reconnect()
        elif isinstance(message, EventMessage) and message.table_id == self.table_id:
            self._apply(message)

    def _apply(self, message: EventMessage) -> None:
        if message.seq <= self.last_seq:
            return  # already held (a resume overlapping what arrived before the drop)
        if message.seq != self.last_seq + 1:
            raise RuntimeError(f"seq {message.seq} after {self.last_seq}: the feed has a gap")
        self.view.apply(parse_event(message.event))

    def _should_act(self) -> bool:
        """Our turn, at a seq not yet acted on, with everything the server sent us read.

        `_caught_up_to` is the table's last seq when we joined or resumed: the events up to
        it follow the reply, and acting before they arrive would act on an old position.
        """
        state = self.view.state
        assert self.client is not None
        return (
            state is not None
            and state.to_move == self.seat
            and self.last_seq >= self._caught_up_to
            and self.last_seq > self._acted_at
            and self.client.feed.empty()
        )

    async def _act(self) -> None:
        self._acted_at = self.last_seq
        moves = self.view.legal_moves()
        move: Move | None = None
        if moves:  # a decision can take the pimc budget: off the loop, so pings stay answered
            move = await asyncio.to_thread(self.bot.choose, self.view, moves, self.bot.rng)
        command_id = f"{self._ids}-{self._acted_at}"
        while True:
            assert self.client is not None
            try:
                if move is None:
                    await self.client.pass_(self.table_id, id=command_id)
                else:
                    await self.client.play(self.table_id, str(move.tile), move.end, id=command_id)
                break
            except ServerError as error:
                if error.code not in STALE_VIEW_CODES:
                    raise
                self.refused += 1
                return
            except _DROPPED:
                await self._reconnect()
                while self.last_seq < self._caught_up_to:  # what happened while away
                    await self._pump()
                if self.last_seq == self._acted_at:
                    continue  # nothing did: send again, same id (applied at most once)
                if not self._moved_after(self._acted_at):
                    self.refused += 1  # the table moved on without it (a stand-in played)
                    return
                break  # it was applied before the drop
        self.moves += 1
        if self.on_move is not None:
            result = self.on_move(self)
            if result is not None:
                await result

    def _moved_after(self, seq: int) -> bool:
        """Whether the event right after `seq` is this seat's play or pass."""
        events = self.view.events  # seqs 1, 2, ... without a gap (checked in _apply)
        following = events[seq] if len(events) > seq else None
        return isinstance(following, TilePlayed | Passed) and following.seat == self.seat

    # -- the connection ------------------------------------------------------------------

    async def _connect(self) -> None:
        self.client = await DominoClient.connect(self.url, trust_beliefs=True)
        if self.token is None:
            joined = await self.client.join(self.table_id, self.seat, self.name)
            self.token = joined.token
            self._caught_up_to = joined.last_seq
        else:
            resumed = await self.client.resume(self.table_id, self.token, self.last_seq)
            if resumed.seat != self.seat:
                raise ValueError(f"that token holds seat {resumed.seat}, not {self.seat}")
            self._caught_up_to = resumed.last_seq

    async def _reconnect(self) -> None:
        """Connect again and resume after the last seq held, with backoff, or raise."""
        self.resumes += 1
        deadline = time.monotonic() + self.reconnect_seconds
        delay = 0.1
        while True:
            if self.client is not None:
                with contextlib.suppress(Exception):
                    await self.client.close()
            try:
                await self._connect()
                return
            except ServerError as error:
                if error.code in FATAL_RESUME_CODES:
                    raise
            except _DROPPED:
                pass
            if time.monotonic() + delay > deadline:
                raise ConnectionError(
                    f"could not resume {self.seat} at {self.table_id} within "
                    f"{self.reconnect_seconds:g} s"
                )
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def _receive(self) -> ServerMessage | None:
        """The next message; None once the connection has closed and nothing is left."""
        client = self.client
        assert client is not None
        if not client.feed.empty():
            return client.feed.get_nowait()
        if client.closed.is_set():
            return None
        getter = asyncio.ensure_future(client.feed.get())
        closer = asyncio.ensure_future(client.closed.wait())
        try:
            done, _ = await asyncio.wait(
                {getter, closer}, timeout=self.idle_timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            closer.cancel()
            if not getter.done():
                getter.cancel()
        if getter in done:
            return getter.result()
        if not done:
            raise TimeoutError(f"nothing from the server for {self.idle_timeout:g} s")
        # closed: the reader puts every message before it sets `closed`
        return client.feed.get_nowait() if not client.feed.empty() else None


async def run_bot(
    url: str,
    table_id: str,
    seat: Seat,
    bot: Bot,
    *,
    name: str = "",
    token: str | None = None,
    reconnect_seconds: float = 60.0,
) -> RunnerResult:
    """Play `seat` with `bot` until the match ends; see BotRunner."""
    runner = BotRunner(url, table_id, seat, bot, name=name, token=token,
                       reconnect_seconds=reconnect_seconds)
    return await runner.run()

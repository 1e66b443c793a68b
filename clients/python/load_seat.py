"""A load-test table's seats, driven by their connections' frames, with no task per seat.

Each seat is a state machine its connection calls in the read that brought a frame
(clients/python/load_client.py): an event that offers it moves (the server's `legal_moves`,
in the seat's own feed only) makes it play one at random, at once or after a seeded
exponential think time (`pace`, a timer); the reply to its move records the play -> ack
latency; its beliefs go to the table's tracker on arrival. A seat reads no more of a frame
than that needs: a belief's seq from its fixed head (protocol.frames.belief_frame writes
`type`, `table_id`, `seq` first), and an event in full only when it offers moves or may end
the match (the others say only that the turn moved on). Before, each seat was a task woken
per message through a queue, over websockets' reader task per connection (issue 31: the
generator cost ~0.4x the server's CPU per move at human pace).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, TypeVar

from clients.python.client import ServerError
from clients.python.load_client import LoadClient
from clients.python.loadtest_tracking import BeliefTracker, Deadline, Figures
from games.interface import table_seats
from games.registry import Registry

RATE_LIMITED = "rate_limited"
RATE_LIMIT_PAUSE = 0.05
"""Seconds a seat waits after the rate limit refused it (the bucket refills at 50/s)."""
BELIEF_WAIT = 10.0
"""Seconds a table's seats keep reading, after play stops, for beliefs still owed."""
MOVE_TIMEOUT = 30.0
"""Seconds a move may wait for its reply before the table fails."""
WATCH_EVERY = 5.0
"""Seconds between a table's looks for a move past MOVE_TIMEOUT."""
T = TypeVar("T")

_SEQ = re.compile(rb"\d+")
_BELIEF_HEAD = re.compile(rb'\{"type":"belief","table_id":"((?:[^"\\]|\\.)*)","seq":(\d+)')
_OFFER = b'"legal_moves":'
_MATCH_ENDED = b'"match_ended"'


class Seat:
    """One seat of one match: plays what it is offered, records its acks and beliefs.
    `done` resolves True when the match ended, False when play stopped (the deadline), once
    no move is in flight; with the connection's error if it was lost."""

    def __init__(self, client: LoadClient, table_id: str, name: str, tracker: BeliefTracker,
                 figures: Figures, deadline: Deadline, rng: random.Random,
                 pace: float | None) -> None:
        self.loop = asyncio.get_running_loop()
        self.client, self.table_id, self.name = client, table_id, name
        self.tracker, self.figures, self.deadline = tracker, figures, deadline
        self.rng, self.pace = rng, pace
        quoted = json.dumps(table_id, ensure_ascii=False).encode()
        self._belief_head = b'{"type":"belief","table_id":' + quoted + b',"seq":'
        self._event_head = b'{"type":"event","table_id":' + quoted + b","
        self.offer: list[dict[str, Any]] | None = None
        """The moves offered on the latest event (None: not this seat's turn)."""
        self.move_at: float | None = None
        """When the seat, thinking, plays (loop time; None: not thinking)."""
        self.move_id: str | None = None
        self.sent = 0.0
        """perf_counter when the move in flight was sent."""
        self._offered: list[dict[str, Any]] | None = None
        self.events_read = 0
        """Events of this table read (a refused move's offer is restored only if none came)."""
        self._events_at_send = 0
        self._timer: asyncio.TimerHandle | None = None
        self._scheduled = False
        self.started = False
        self.finished: bool | None = None
        self.done: asyncio.Future[bool] = self.loop.create_future()

    # -- frames, from the connection -------------------------------------------------------

    def belief(self, frame: bytes) -> None:
        head = self._belief_head
        if frame.startswith(head):
            seq = _SEQ.match(frame, len(head))
            if seq is not None:
                self.tracker.belief(self.name, int(seq[0]))
            return
        match = _BELIEF_HEAD.match(frame)  # another table's, or an id written differently
        if match is not None and json.loads(b'"' + match[1] + b'"') == self.table_id:
            self.tracker.belief(self.name, int(match[2]))

    def event(self, frame: bytes) -> None:
        if frame.startswith(self._event_head):
            if _OFFER not in frame and _MATCH_ENDED not in frame:
                self.events_read += 1  # the turn moved on, not to this seat: nothing to read
                self._withdraw()
                return
            data = json.loads(frame)
        else:
            data = json.loads(frame)
            if data.get("table_id") != self.table_id:
                return
        self.events_read += 1
        if data["event"].get("type") == "match_ended":
            self.finish(True)
            return
        moves = data.get("legal_moves") or None
        if moves is None:
            self._withdraw()  # the turn moved on (a hand ended): think afresh
        else:
            self.offer = moves
            self._soon()

    def replied(self, reply: dict[str, Any]) -> None:
        """The reply to the move in flight: its ack (the latency recorded), or a refusal."""
        self.move_id = None
        if reply.get("type") == "ack":
            figures = self.figures
            figures.ack_ms.append((time.perf_counter() - self.sent) * 1000)
            figures.moves += 1
            self.tracker.acked(reply["seq"], self.sent)
        elif reply.get("code") == RATE_LIMITED:  # nothing was done: wait, then again
            self.figures.rate_limited += 1
            if self.events_read == self._events_at_send:  # no event since: still offered
                self.offer = self._offered
            self._cancel()
            self._timer = self.loop.call_later(RATE_LIMIT_PAUSE, self._timer_fired)
        else:
            self.figures.refused += 1  # an offer overtaken (a hand just ended)
        if self.finished is not None:
            self._resolve()
        elif self.offer is not None and self._timer is None:
            self._soon()

    def lost(self, error: BaseException) -> None:
        self._cancel()
        if not self.done.done():
            self.done.set_exception(error)

    # -- the table's calls -----------------------------------------------------------------

    def start(self) -> None:
        """Play from now on (the table is seated)."""
        self.started = True
        if self.offer is not None:
            self._soon()

    def stop(self) -> None:
        """Play stopped (the deadline): done once the move in flight, if any, is answered."""
        if self.finished is None:
            self.finish(False)

    def finish(self, result: bool) -> None:
        if self.finished is None:
            self.finished = result
        self._cancel()
        if self.move_id is None:
            self._resolve()

    # -- playing ---------------------------------------------------------------------------

    def _soon(self) -> None:
        """Act after the frames already read (as a seat that drained its feed first did)."""
        if not self._scheduled:
            self._scheduled = True
            self.loop.call_soon(self._act)

    def _act(self) -> None:
        self._scheduled = False
        if (not self.started or self.finished is not None or self.move_id is not None
                or self.offer is None or self._timer is not None):
            return
        if self.deadline.passed():
            self.finish(False)
            return
        if self.pace is not None:
            now = self.loop.time()
            if self.move_at is None:
                self.move_at = now + self.rng.expovariate(1.0 / self.pace)
            if now < self.move_at:
                self._timer = self.loop.call_at(self.move_at, self._timer_fired)
                return
        self._send()

    def _timer_fired(self) -> None:
        self._timer = None
        self._act()

    def _send(self) -> None:
        offer = self.offer
        assert offer is not None
        payload = self.rng.choice(offer)
        self._offered, self.offer, self.move_at = offer, None, None
        self.move_id = move_id = self.client.new_id()
        self._events_at_send = self.events_read
        self.sent = time.perf_counter()
        try:
            self.client.send_move(self.table_id, move_id, payload)
        except ConnectionError as error:
            self.move_id = None
            self.lost(error)

    def _withdraw(self) -> None:
        self.offer = self.move_at = None
        self._cancel()

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _resolve(self) -> None:
        if not self.done.done():
            self.done.set_result(bool(self.finished))


async def _until_done(seats: list[Seat]) -> list[bool]:
    """Every seat's result; TimeoutError if a move waits past MOVE_TIMEOUT for its reply,
    the connection's error if one was lost. One watchdog timer per table, every
    WATCH_EVERY seconds (not a timer per move)."""
    loop = asyncio.get_running_loop()
    watchdog: list[asyncio.TimerHandle] = []

    def watch() -> None:
        now = time.perf_counter()
        for seat in seats:
            if seat.move_id is not None and now - seat.sent > MOVE_TIMEOUT:
                seat.lost(TimeoutError(f"a move had no reply in {MOVE_TIMEOUT:g} s"))
        watchdog[:] = [loop.call_later(WATCH_EVERY, watch)]

    watch()
    try:
        return list(await asyncio.gather(*(seat.done for seat in seats)))
    finally:
        watchdog[0].cancel()


async def play_table(url: str, spectators: int, figures: Figures, deadline: Deadline, seed: int,
                     *, variant: str, games: Registry, target: int = 100,
                     belief_wait: float = BELIEF_WAIT, pace: float | None = None,
                     seated: asyncio.Event | None = None,
                     options: dict[str, Any] | None = None) -> None:
    """Play matches of `variant` at one table (random offered moves, flat out or at `pace`)
    until `deadline`; after each, wait up to `belief_wait` for the beliefs still owed."""
    rng = random.Random(seed)
    game = games.game_of_variant(variant)
    seats = table_seats(game, variant, options)  # table options may decide them (Clue)
    clients = [await LoadClient.connect(url) for _ in seats]
    watchers = [await LoadClient.connect(url) for _ in range(spectators)]
    tracker = BeliefTracker(figures, seats)
    playing: list[Seat] = []

    def stop_all() -> None:
        for seat in playing:
            seat.stop()

    deadline.on_stop(stop_all)
    loop = asyncio.get_running_loop()
    try:
        while not deadline.passed():
            table_id = await _paced(figures, partial(clients[0].create_table, variant, target,
                                                     options))
            for watcher in watchers:
                await _paced(figures, partial(watcher.watch, table_id))
            tracker.reset()
            playing[:] = [Seat(client, table_id, seat, tracker, figures, deadline,
                               random.Random(rng.random()), pace)
                          for seat, client in zip(seats, clients, strict=True)]
            for seat in playing:
                seat.client.seat = seat
            for seat in playing:
                await _paced(figures, partial(seat.client.join, table_id, seat.name,
                                              name=f"load-{seat.name}"))
            if seated is not None:
                seated.set()
            left = deadline.left()
            stopping = None if left is None else loop.call_later(left, stop_all)
            for seat in playing:
                seat.start()
            try:
                done = await _until_done(playing)
            finally:
                if stopping is not None:
                    stopping.cancel()
            if all(done):
                figures.matches += 1
            figures.play_stopped = max(figures.play_stopped, time.monotonic())
            await tracker.settle(belief_wait)
            for client in [*clients, *watchers]:
                with contextlib.suppress(Exception):
                    await client.leave(table_id)
                client.seat = None
    finally:
        for client in [*clients, *watchers]:
            with contextlib.suppress(Exception):
                await client.close()


async def _paced(figures: Figures, request: Callable[[], Awaitable[T]]) -> T:
    """`request()`, waited for and sent again while the server's rate limit refuses it."""
    while True:
        try:
            return await request()
        except ServerError as error:
            if error.code != RATE_LIMITED:
                raise
            figures.rate_limited += 1
            await asyncio.sleep(RATE_LIMIT_PAUSE)

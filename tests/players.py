"""Seat players that play random legal moves over the protocol, and belief checks: shared by
the tests that kill servers and workers mid-match."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field

import pytest

from clients.python import DominoClient, SeatView, ServerError
from clients.python.player import STALE_VIEW_CODES
from games.dominoes.audience import view
from games.dominoes.belief_partnership import Belief
from games.dominoes.events import Event
from games.dominoes.game import MODEL as BELIEF_MODEL
from protocol import BeliefMessage, EventMessage
from protocol.frames import belief_frame


@dataclass
class Player:
    seat: str
    token: str = ""
    view: SeatView = field(default_factory=lambda: SeatView("?"))
    acks: dict[int, str] = field(default_factory=dict)
    beliefs: list[BeliefMessage] = field(default_factory=list)
    inflight: tuple[str, str | None, str | None] | None = None
    counter: int = 0


async def send_move(client: DominoClient, table_id: str, player: Player) -> None:
    """Send the in-flight move; `internal` (owner unreachable mid-failover) is retried."""
    assert player.inflight is not None
    command_id, tile, end = player.inflight
    for _ in range(40):
        try:
            ack = await (client.pass_(table_id, id=command_id) if tile is None
                         else client.play(table_id, tile, end, id=command_id))
        except ServerError as error:
            if error.code != "internal":
                raise
            await asyncio.sleep(0.25)
            continue
        player.acks[ack.seq] = tile or "pass"
        player.inflight = None
        return
    raise AssertionError(f"{player.seat}: move {command_id} never acknowledged")


async def retry_inflight(client: DominoClient, table_id: str, player: Player) -> None:
    """After a resume, retry the move a kill interrupted with its id: applied at most once.

    If it was applied, the server answers with the original ack. If not, it is decided now
    and may be refused as stale (e.g. a pass decided before the hand_ended on its way had
    arrived); then it was never applied, and the player just plays on.
    """
    if player.inflight is None:
        return
    try:
        await send_move(client, table_id, player)
    except ServerError as error:
        assert error.code in STALE_VIEW_CODES, error
        player.inflight = None


async def move_now(
    client: DominoClient, table_id: str, player: Player, rng: random.Random
) -> str | None:
    """A random legal move (or a pass) with a fresh command id, kept in flight until acked.

    Returns None once acked, or the refusal's code (the move is then dropped). A dead
    connection raises, leaving the move in flight for a retry after resuming.
    """
    move = player.view.random_move(rng)
    player.counter += 1
    player.inflight = (f"{player.seat}-{player.counter}",
                       None if move is None else str(move.tile),
                       None if move is None else move.end)
    try:
        await send_move(client, table_id, player)
    except ServerError as error:
        player.inflight = None
        return error.code
    return None


async def play(client: DominoClient, table_id: str, player: Player, rng: random.Random) -> None:
    """Play until the match ends or the connection dies; keep every ack and belief."""
    acted_at = -1
    view_ = player.view
    while not view_.finished:
        try:
            message = await client.next_message(timeout=0.5)
        except TimeoutError:
            if client.closed.is_set():
                return
            continue
        if isinstance(message, EventMessage):
            view_.apply(message)
        elif isinstance(message, BeliefMessage):
            player.beliefs.append(message)
        if view_.my_turn() and view_.last_seq > acted_at and client.feed.empty():
            acted_at = view_.last_seq
            try:
                refused = await move_now(client, table_id, player, rng)
            except (ConnectionError, OSError, TimeoutError):
                return  # killed mid-request: the command stays in flight
            assert refused is None or refused in STALE_VIEW_CODES, refused


async def collect_beliefs(client: DominoClient, into: list[BeliefMessage], upto: int,
                          timeout: float = 20) -> None:
    """Read the feed until a belief for seq `upto` has arrived."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not into or into[-1].seq < upto:
        message = await client.next_message(max(0.01, deadline - loop.time()))
        if isinstance(message, BeliefMessage):
            into.append(message)


def expected_belief(table_id: str, events: list[Event], observer: str, seq: int) -> dict:
    """The belief recomputed from the stored log, exactly as a worker would publish it."""
    belief = Belief.from_events([view(e, observer) for e in events[:seq]], observer)  # type: ignore[arg-type]
    return json.loads(belief_frame(table_id, {**belief.snapshot().to_json_dict(),
                                              "model": BELIEF_MODEL}))


def check_beliefs(table_id: str, events: list[Event], observer: str,
                  beliefs: list[BeliefMessage]) -> None:
    """In order (seq never goes back) and equal to the recomputation at their seq."""
    assert beliefs, f"{observer} got no belief"
    seqs = [b.seq for b in beliefs]
    assert seqs == sorted(seqs), f"{observer}: beliefs out of order {seqs}"
    for message in beliefs:
        expected = expected_belief(table_id, events, observer, message.seq)
        assert message.observer == observer
        assert str(message.consistent_deals) == str(expected["consistent_deals"]), message.seq
        assert message.marginals.keys() == expected["marginals"].keys()
        for holder, tiles in expected["marginals"].items():
            assert message.marginals[holder] == pytest.approx(tiles, abs=1e-12), message.seq


async def until_my_turn_with_a_belief(client: DominoClient, seat: str
                                      ) -> tuple[SeatView, list[BeliefMessage]]:
    """Read `seat`'s feed until it is its turn and its latest belief is at the head (the bots
    play up to there): its view and every belief it received."""
    seen = SeatView(seat)
    beliefs: list[BeliefMessage] = []
    async with asyncio.timeout(60):
        while not (seen.my_turn() and beliefs and beliefs[-1].seq == seen.last_seq):
            message = await client.next_message(60)
            if isinstance(message, EventMessage):
                seen.apply(message)
            elif isinstance(message, BeliefMessage):
                beliefs.append(message)
    return seen, beliefs

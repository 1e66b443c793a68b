"""The `odds` request over real WebSockets on loopback (a real server, its SQLite file):
the behaviour layer beside the exact belief, from the asker's own view only."""

from __future__ import annotations

import random
import time

import pytest

from clients.python import DominoClient, ServerError
from games.dominoes.behaviour.odds import behaviour_odds
from games.dominoes.events import parse_event
from protocol import BeliefMessage, EventMessage, Odds, OddsBelief, ServerMessage
from server.app import DominoServer

GIVE_UP = 60.0
"""Seconds before a wait is given up (a bound, not a timing assertion)."""


class Follower:
    """One connection's feed, folded: its events (as sent) and its beliefs by seq."""

    def __init__(self, client: DominoClient, audience: str) -> None:
        self.client = client
        self.audience = audience
        self.events: list[dict] = []
        self.beliefs: dict[int, BeliefMessage] = {}

    def take(self, message: ServerMessage) -> None:
        if isinstance(message, EventMessage):
            assert message.seq == len(self.events) + 1
            self.events.append(message.event)
        elif isinstance(message, BeliefMessage):
            self.beliefs[message.seq] = message

    async def pump(self, until: object) -> None:
        """Fold the feed until `until()` holds (given up after GIVE_UP seconds)."""
        deadline = time.monotonic() + GIVE_UP
        while not until():  # type: ignore[operator]
            self.take(await self.client.next_message(max(0.01, deadline - time.monotonic())))


async def _odds(client: DominoClient, table_id: str, model: str = "behaviour:greedy"
                ) -> OddsBelief:
    reply = await client.request(Odds(table_id=table_id, model=model), GIVE_UP)
    assert isinstance(reply, OddsBelief)
    return reply


def _my_turn(follower: Follower, seat: str) -> bool:
    """The last event leaves `seat` to play, and its belief for that seq has come."""
    if not follower.events or len(follower.events) not in follower.beliefs:
        return False
    return _to_move(follower) == seat


def _to_move(follower: Follower) -> str | None:
    from games.dominoes.rules import evolve
    state = None
    for event in follower.events:
        state = evolve(state, parse_event(event))
    if state is None or state.phase != "playing" or state.hand is None:
        return None
    return state.to_move


def _check_against_uniform(reply: OddsBelief, uniform: BeliefMessage,
                           own: set[str]) -> None:
    """The layer covers exactly the uniform belief's unseen tiles and holders, sums to 1
    per tile, never puts a tile where the exact belief says it cannot be, and never names
    a tile of the asker's own hand."""
    assert reply.model == "behaviour:greedy" and "greedy" in reply.label
    assert uniform.model is not None and uniform.model.startswith("uniform")
    assert set(reply.marginals) == set(uniform.marginals)
    for holder, column in reply.marginals.items():
        assert set(column) == set(uniform.marginals[holder]), holder
        assert not set(column) & own, "the asker's own tiles are not unseen"
        for tile, p in column.items():
            assert 0.0 <= p <= 1.0
            if uniform.marginals[holder][tile] == 0.0:
                assert p == 0.0, (holder, tile)
            assert reply.stderr[holder][tile] >= 0.0
    tiles = {t for column in reply.marginals.values() for t in column}
    for tile in tiles:
        total = sum(column.get(tile, 0.0) for column in reply.marginals.values())
        assert abs(total - 1.0) < 1e-4, (tile, total)
    if reply.exact:
        assert reply.error_95 is None and reply.status == "live"
    else:
        assert reply.error_95 is not None and reply.error_95 > 0 and reply.status == "estimate"
        assert reply.ess >= 1.0 and reply.samples >= 1


async def test_odds_come_from_the_asking_seats_own_view_and_the_spectators(
    server: DominoServer, url: str
) -> None:
    """A person at S against a greedy bot (block-2), a spectator: at S's turns both ask.
    Each answer covers exactly what its asker's exact belief leaves open (no own tile, no
    tile where the exact belief says it cannot be). Whenever it is exact (every consistent
    deal weighed, late in a hand), it must equal the model computed from the asker's own
    events as its connection received them — the leak check: an answer computed from any
    other view (another seat's, the referee's unredacted log folded for another audience)
    would differ. (games.dominoes.behaviour.odds also redacts what it is given for the observer:
    tests/games/dominoes/behaviour/test_live_odds.py.)"""
    south, spectator = await DominoClient.connect(url), await DominoClient.connect(url)
    table_id = await south.create_table(variant="block-2", bots={"N": "greedy"},
                                        target=10_000)
    await south.join(table_id, "S")
    await spectator.watch(table_id)
    me, watcher = Follower(south, "S"), Follower(spectator, "spectator")
    exact_seen = asked = 0
    deadline = time.monotonic() + GIVE_UP
    while exact_seen < 1 or asked < 4:
        assert time.monotonic() < deadline, (exact_seen, asked)
        await me.pump(lambda: _my_turn(me, "S"))
        seq = len(me.events)
        reply = await _odds(south, table_id)
        asked += 1
        # the table's log when the request was read: this seat's events up to there
        assert reply.observer == "S" and reply.table_id == table_id and reply.seq >= seq
        await me.pump(lambda: reply.seq in me.beliefs)  # noqa: B023
        seen = me.events[:reply.seq]
        own = _own_hand(seen, "S")
        _check_against_uniform(reply, me.beliefs[reply.seq], own)
        assert set(reply.betas) == {"N"} and reply.betas["N"] == 30.0  # the greedy bot's β
        if reply.exact:
            exact_seen += 1
            alone = behaviour_odds([parse_event(e) for e in seen], "S", random.Random(0))
            assert alone["exact"]
            for holder, column in reply.marginals.items():
                for tile, p in column.items():
                    assert abs(alone["marginals"][holder][tile] - p) < 1e-5
        watched = await _odds(spectator, table_id)
        assert watched.observer == "spectator"
        await watcher.pump(lambda: watched.seq in watcher.beliefs)  # noqa: B023
        _check_against_uniform(watched, watcher.beliefs[watched.seq], set())
        # the spectator sees no hand: S's own tiles are unseen to it, and listed
        assert own <= {t for column in watched.marginals.values() for t in column}
        await _play_first_legal(south, table_id, me)
    for client in (south, spectator):
        await client.close()


def _own_hand(events: list[dict], seat: str) -> set[str]:
    from games.dominoes.rules import evolve
    state = None
    for event in events:
        state = evolve(state, parse_event(event))
    assert state is not None and state.hand is not None
    return {str(t) for t in state.hand.hands[seat] or ()}


async def _play_first_legal(client: DominoClient, table_id: str, me: Follower) -> None:
    """S's first legal play (or its pass), and the feed folded up to it."""
    from games.dominoes.rules import evolve, legal_moves
    state = None
    for event in me.events:
        state = evolve(state, parse_event(event))
    assert state is not None
    moves = legal_moves(state, "S")
    if not moves:
        ack = await client.pass_(table_id)
    else:
        ack = await client.play(table_id, str(moves[0].tile), moves[0].end)
    await me.pump(lambda: len(me.events) >= ack.seq)  # its own move folded in


async def test_odds_refuse_with_typed_errors(server: DominoServer, url: str) -> None:
    asker, other = await DominoClient.connect(url), await DominoClient.connect(url)
    table_id = await asker.create_table(bots={"W": "greedy", "E": "greedy"})
    with pytest.raises(ServerError) as caught:  # not attached to the table
        await _odds(asker, table_id)
    assert caught.value.code == "unauthorized"
    await asker.join(table_id, "S")
    with pytest.raises(ServerError) as caught:  # N is empty: no hand yet
        await _odds(asker, table_id)
    assert caught.value.code == "wrong_phase"
    for model in ("behaviour:nobody", "uniform", "BEHAVIOUR:GREEDY"):
        with pytest.raises(ServerError) as caught:
            await _odds(asker, table_id, model)
        assert caught.value.code == "unknown_model", model
        assert "behaviour:greedy" in caught.value.message
    with pytest.raises(ServerError) as caught:  # a model's name is 1-64 characters
        await asker.request(Odds.model_construct(table_id=table_id, model="", id="x1",
                                                 type="odds"))
    assert caught.value.code == "bad_request"
    with pytest.raises(ServerError) as caught:
        await _odds(asker, "no-such-table")
    assert caught.value.code == "unknown_table"
    texas = await other.create_table(variant="texas-42", bots={"W": "greedy", "N": "greedy",
                                                               "E": "greedy"})
    await other.join(texas, "S")
    with pytest.raises(ServerError) as caught:  # the model is of dominoes players
        await _odds(other, texas)
    assert caught.value.code == "unknown_model"
    # the connection still works after every refusal
    await asker.list_tables()
    for client in (asker, other):
        await client.close()

"""The behaviour model at live tables (issue 20, part 3), over real WebSockets on loopback
with the server's SQLite file: `advise` with `model: behaviour:greedy`, replay advice with a
model, and pimc-behaviour in a seat."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from archive.matches import save_match
from calibration.botmatches import bot_matches
from clients.python import DominoClient, ServerError
from games.dominoes.events import parse_event
from games.dominoes.rules import evolve, legal_moves
from games.dominoes.strategy.advisor import BEHAVIOUR, BEHAVIOUR_LABEL, LABEL, distinct_moves
from protocol import AdviceMessage, Advise, BeliefMessage, EventMessage
from server import strategy_processes
from server.app import DominoServer
from server.replay.advice import ReplayAdvisor
from server.replay.build import ReplayError
from storage import EventStore

GIVE_UP = 90.0
"""Seconds before a wait is given up (a bound, not a timing assertion)."""


async def _advise(client: DominoClient, table_id: str, model: str | None = None
                  ) -> AdviceMessage:
    message = Advise(table_id=table_id) if model is None else Advise(table_id=table_id,
                                                                     model=model)
    reply = await client.request(message, GIVE_UP)
    assert isinstance(reply, AdviceMessage)
    return reply


async def _my_turn_with_a_choice(client: DominoClient, table_id: str, events: list[dict],
                                 seat: str) -> object:
    """Fold the feed until `seat` is to play and has a choice (passing when it has none);
    the state then."""
    deadline = time.monotonic() + GIVE_UP
    seen_belief = -1
    while True:
        state = None
        for event in events:
            state = evolve(state, parse_event(event))
        if (state is not None and state.phase == "playing" and state.hand is not None
                and state.hand.turn == seat and seen_belief >= len(events)
                and client.feed.empty()):
            if legal_moves(state, seat):
                return state
            await client.pass_(table_id)
        message = await client.next_message(max(0.01, deadline - time.monotonic()))
        if isinstance(message, EventMessage):
            events.append(message.event)
        elif isinstance(message, BeliefMessage):
            seen_belief = max(seen_belief, message.seq)


async def test_advice_under_the_behaviour_model_says_its_model_and_ess(
    server: DominoServer, url: str
) -> None:
    south = await DominoClient.connect(url)
    table_id = await south.create_table(bots={"W": "greedy", "N": "greedy", "E": "greedy"},
                                        advice=True, target=10_000)
    await south.join(table_id, "S")
    events: list[dict] = []
    asked = 0
    while asked < 2:
        state = await _my_turn_with_a_choice(south, table_id, events, "S")
        hand = state.hand  # type: ignore[attr-defined]
        legal = {(str(m.tile), m.end)
                 for m in distinct_moves(legal_moves(state, "S"), hand.left, hand.right)}  # type: ignore[arg-type]
        behaviour = await _advise(south, table_id, BEHAVIOUR)
        assert behaviour.model == BEHAVIOUR and behaviour.label.startswith(BEHAVIOUR_LABEL)
        assert "solver nodes" in behaviour.label and "never timed" in behaviour.label
        assert behaviour.ess is not None and 1.0 <= behaviour.ess <= behaviour.pool  # type: ignore[operator]
        assert behaviour.exact_pool is not None
        assert {(m.tile, m.end) for m in behaviour.moves} == legal
        points = [m.expected_points for m in behaviour.moves]
        assert points == sorted(points, reverse=True)
        uniform = await _advise(south, table_id)  # no model: uniform, and it says so
        assert uniform.model == "uniform" and uniform.label.startswith(LABEL)
        assert uniform.ess == uniform.moves[0].samples and uniform.pool is None
        assert {(m.tile, m.end) for m in uniform.moves} == legal
        asked += 1
        best = behaviour.moves[0]
        await south.play(table_id, best.tile, best.end)
    for model in ("behaviour:pimc", "Behaviour:greedy", "exact"):
        with pytest.raises(ServerError) as caught:
            await _advise(south, table_id, model)
        assert caught.value.code == "unknown_model", model
        assert BEHAVIOUR in caught.value.message
    await south.close()


async def test_a_game_without_the_behaviour_model_refuses_it(
    server: DominoServer, url: str
) -> None:
    south = await DominoClient.connect(url)
    table_id = await south.create_table(variant="texas-42", advice=True, bots={
        "W": "greedy", "N": "greedy", "E": "greedy"})
    await south.join(table_id, "S")
    with pytest.raises(ServerError) as caught:
        await _advise(south, table_id, BEHAVIOUR)
    assert caught.value.code == "unknown_model"
    assert "uniform" in caught.value.message
    await south.close()


async def test_replay_advice_takes_the_model(tmp_path: Path) -> None:
    """A stored match of greedy players on a real SQLite file; the replay advisor ranks a
    move under each model in the real worker pool, and names the model it used."""
    match = next(bot_matches("partnership-6", ["greedy"], 1, seed=5, options={"target": 1}))
    with EventStore(tmp_path / "r.sqlite3") as store:
        save_match(store, match)
        desk = ReplayAdvisor(store)
        match_id = match[0].match_id
        play = next(e for e in match[12:] if e.type == "tile_played" and len(legal_moves(
            _state(match[: e.seq - 1]), e.seat)) >= 2)
        behaviour = json.loads(await desk.advice(match_id, str(play.seq), BEHAVIOUR))
        assert behaviour["model"] == BEHAVIOUR and behaviour["label"].startswith(BEHAVIOUR_LABEL)
        assert behaviour["ess"] >= 1 and behaviour["pool"] >= 1 and behaviour["moves"]
        assert behaviour["rank"] is not None and behaviour["seat"] == play.seat
        uniform = json.loads(await desk.advice(match_id, str(play.seq)))
        assert uniform["model"] == "uniform" and uniform["label"].startswith(LABEL)
        assert json.loads(await desk.advice(match_id, str(play.seq), BEHAVIOUR)) == behaviour
        with pytest.raises(ReplayError) as refused:
            await desk.advice(match_id, str(play.seq), "behaviour:nobody")
        assert refused.value.status == 422


def _state(events: list) -> object:
    state = None
    for event in events:
        state = evolve(state, event)
    return state


async def test_a_pimc_behaviour_seat_plays_a_match_to_the_end(
    server: DominoServer, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pimc-behaviour is a table bot: offered by name, it plays legal moves in the pool
    (its job takes the bot's name) until the match ends, and the match records its kind."""
    pooled: list[str] = []
    real = strategy_processes.BOTS.run

    async def spy(fn: Any, *args: Any) -> Any:  # the real job, its bot's name noted
        if fn is strategy_processes.bot_move_job:
            pooled.append(args[0].name)
        return await real(fn, *args)

    monkeypatch.setattr(strategy_processes.BOTS, "run", spy)
    watcher = await DominoClient.connect(url)
    table_id = await watcher.create_table(
        bots={"S": "pimc-behaviour", "W": "greedy", "N": "pimc-behaviour", "E": "random"},
        target=1)
    await watcher.watch(table_id)
    deadline = time.monotonic() + 4 * GIVE_UP
    while True:  # the spectator's feed, to the match's end
        message = await watcher.next_message(max(0.01, deadline - time.monotonic()))
        if isinstance(message, EventMessage) and message.event["type"] == "match_ended":
            break
    # the referee's log (every hand open): each play legal where it was made
    log = await (await server.registry.find(table_id)).referee_log()
    state = None
    plays = 0
    for event in log:
        if event.type == "tile_played":
            assert event.seat == state.hand.turn  # type: ignore[union-attr]
            assert any(str(m.tile) == event.tile and m.end == event.end
                       for m in legal_moves(state, event.seat)), event  # type: ignore[arg-type]
            plays += event.seat in ("S", "N")
        state = evolve(state, event)
    assert state is not None and state.phase == "finished"
    started = log[0]
    assert started.players["S"] == started.players["N"] == "bot:pimc-behaviour"
    assert plays >= 2
    # every pooled decision was pimc-behaviour's own job (none of another bot's name)
    assert pooled and set(pooled) == {"pimc-behaviour"}, pooled
    await watcher.close()

"""Uno's play-aware layer over a real WebSocket: a seated player asks for `odds` under
`behaviour:plays` and gets a labelled belief of the other hand and the deck from its own view
only."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from clients.python import DominoClient, ServerError
from games.behaviour import odds_seed
from protocol import Odds, OddsBelief
from server import strategy_processes
from server.app import DominoServer

TRIES = 600
"""Asks before giving up (0.05 s apart while nothing is dealt): a bound on a hang."""


async def test_a_seat_gets_the_play_aware_layer_of_its_own_view(server: DominoServer,
                                                                 url: str) -> None:
    async with await DominoClient.connect(url) as client:
        table = await client.create_table(variant="uno-2-mini", bots={"N": "greedy"})
        await client.join(table, "S")
        reply = None
        for _ in range(TRIES):
            try:
                reply = await client.request(Odds(table_id=table, model="behaviour:plays"), 60)
                break
            except ServerError as refused:
                # the deal is still to come, or the worker pool is starting: ask again
                assert refused.code in ("wrong_phase", "busy"), refused
                await asyncio.sleep(0.05)
        assert isinstance(reply, OddsBelief), reply
        assert reply.model == "behaviour:plays" and reply.observer == "S"
        assert "fitted" in reply.label
        assert set(reply.marginals) <= {"N", "deck"} and reply.marginals  # never its own hand
        assert reply.exact or reply.error_95 is not None
        with pytest.raises(ServerError) as caught:
            await client.request(Odds(table_id=table, model="behaviour:bids"), 60)
        assert caught.value.code == "unknown_model" and "behaviour:plays" in caught.value.message


async def test_the_live_layer_is_seeded_by_its_position_as_the_replay_s_is(
        server: DominoServer, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # a sampled layer's figures are its draws: seeded by the position (match, seq, observer),
    # the live table's answer is the replay route's for the same step and the same on every
    # ask (a seed drawn per request gave a replay other figures than the table had shown)
    seeds: list[tuple[int, int]] = []
    run = strategy_processes.ADVICE.run

    async def spy(job: Any, *args: Any) -> Any:
        if job is strategy_processes.odds_job:
            _model, events, _observer, seed = args
            seeds.append((events[-1]["seq"], seed))
        return await run(job, *args)

    monkeypatch.setattr(strategy_processes.ADVICE, "run", spy)
    async with await DominoClient.connect(url) as client:
        table = await client.create_table(variant="uno-2-mini", bots={"N": "greedy"})
        await client.join(table, "S")
        replies = []
        for _ in range(TRIES):
            try:
                replies.append(await client.request(
                    Odds(table_id=table, model="behaviour:plays"), 60))
            except ServerError as refused:
                assert refused.code in ("wrong_phase", "busy"), refused
                await asyncio.sleep(0.05)
                continue
            if len(replies) == 2:
                break
    assert len(replies) == 2 and seeds
    for seq, seed in seeds:
        assert seed == odds_seed(table, seq, "S")
    first, second = replies
    if first.seq == second.seq:  # nobody moved between the two asks: the same figures
        assert first.marginals == second.marginals

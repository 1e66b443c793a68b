"""`GET /api/matches/{id}/odds?seq=N&observer=O`: the behaviour layer at a replay step, from
that observer's own view, on a real SQLite store, computed in the real worker pool."""

from __future__ import annotations

import json
import random
from pathlib import Path

from archive.matches import save_match
from games.dominoes.audience import view as redact
from games.dominoes.behaviour.odds import behaviour_odds
from games.dominoes.selfplay import random_match_events
from server.replay.http import ReplayDesk, handle_replay_http
from storage import EventStore


async def test_replay_odds_at_a_step_from_the_observers_own_view(tmp_path: Path) -> None:
    match = random_match_events(random.Random(21), target=30, match_id="m-odds")
    with EventStore(tmp_path / "r.sqlite3") as store:
        save_match(store, match)
        live = random_match_events(random.Random(22), target=30, match_id="m-live")
        cut = next(e.seq for e in live if e.type == "tile_played" and e.seq >= 30)
        save_match(store, live[:cut])  # a match in play, stopped after a play
        desk = ReplayDesk(store)

        async def get(match_id: str, **query: object) -> tuple[int, dict]:
            status, _, body = await handle_replay_http(
                "GET", f"/api/matches/{match_id}/odds", {k: str(v) for k, v in query.items()},
                desk)
            return status, json.loads(body)

        # late in the first hand: few deals left, so the answer may be exact
        play = [e for e in match if e.type == "tile_played" and e.hand == 1][-2]
        for observer in ("S", "W", "spectator"):
            status, data = await get("m-odds", seq=play.seq, observer=observer)
            assert status == 200, data
            assert data["observer"] == observer and data["seq"] == play.seq
            assert data["model"] == "behaviour:greedy"
            own = [redact(e, observer) for e in match[: play.seq]]
            # two plays from the hand's end every deal is listed: the answer is exact, so
            # it must be the model of the observer's own view, whatever the seed
            assert data["exact"] and data["error_95"] is None
            alone = behaviour_odds(own, observer, random.Random(0))
            assert alone["marginals"] == data["marginals"]
            state_tiles = {t for column in data["marginals"].values() for t in column}
            if observer != "spectator":
                dealt = next(e for e in match[: play.seq]
                             if e.type == "hand_dealt" and e.seat == observer)
                assert not state_tiles & set(dealt.tiles)
            again = await get("m-odds", seq=play.seq, observer=observer)
            assert again == (200, data)  # cached
        assert (await get("m-live", seq=cut, observer="S"))[0] == 403
        status, data = await get("m-live", seq=cut, observer="spectator")
        assert status == 200 and data["observer"] == "spectator"
        assert (await get("m-odds", seq=1, observer="S"))[0] == 422  # no hand yet
        assert (await get("m-odds", seq=10**6, observer="S"))[0] == 404
        assert (await get("m-odds", seq="x", observer="S"))[0] == 400
        assert (await get("m-odds", seq=5, observer="Q"))[0] == 400

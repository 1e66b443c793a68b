"""Texas 42's bidding oracle streamed over a real WebSocket as N grows (issue 29, item 2):
`advise {progress: true}` gets `advice_progress` frames (the same id) with the oracle's table
after 25, 50, ... of its N = 150 completions, then the `advice` frame, unchanged; the answer is
kept by position in the server's database, and asking again gets it at once, with no progress.
A real server, real SQLite file, the real advice worker pool (the oracle's work is N
completions, never a time budget)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from games.texas42.dominoes import SEATS
from games.texas42.game import VARIANT
from protocol import AdviceProgress, parse_server
from server.app import DominoServer
from storage.kept import KeptValues
from tests.conftest import make_config
from tests.server.test_texas42_advice import DEADLINE, Seat


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[DominoServer]:
    instance = DominoServer(make_config(tmp_path))
    await instance.start()
    try:
        yield instance
    finally:
        await instance.stop()


async def frames_until_advice(person: Seat, message: dict[str, Any]
                              ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Send `message`; the frames with its id: the progress ones, then the answer."""
    person.n += 1
    tag = f"{person.seat}p{person.n}"
    await person.ws.send(json.dumps({**message, "id": tag}))
    progress: list[dict[str, Any]] = []
    while True:
        frame = json.loads(await asyncio.wait_for(person.ws.recv(), DEADLINE))
        if frame.get("id") != tag:
            person.fold(frame)
            continue
        if frame["type"] != "advice_progress":
            return progress, frame
        progress.append(frame)


def mean_width(oracle: dict[str, Any]) -> float:
    widths = [c["P_dd_CI"][1] - c["P_dd_CI"][0]
              for row in oracle["cells"].values() for c in row.values()]
    return sum(widths) / len(widths)


async def test_the_oracle_streams_its_table_as_n_grows_then_answers_as_before(
        server: DominoServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws"
    async with connect(url) as s, connect(url) as w, connect(url) as n, connect(url) as e:
        people = {seat: Seat(ws, seat) for seat, ws in zip(SEATS, (s, w, n, e), strict=True)}
        south = people["S"]
        created = await south.ask({"type": "create_table", "variant": VARIANT, "advice": True,
                                   "options": {"target_marks": 1}})
        table_id = created["table_id"]
        for seat, person in people.items():
            joined = await person.ask({"type": "join", "table_id": table_id, "seat": seat,
                                       "name": f"p{seat}"})
            assert joined["type"] == "joined", joined
        await south.until_my_turn()  # E deals first: South bids first

        ask = {"type": "advise", "table_id": table_id, "progress": True}
        progress, answer = await frames_until_advice(south, ask)
        assert answer["type"] == "advice" and answer["advice"]["kind"] == "bid", answer
        final = answer["advice"]["oracle"]
        assert final["N"] == final["N_target"] == 150 and "partial" not in answer["advice"]
        # five partial tables, N = 25 ... 125, each a valid frame, in order
        assert [f["step"] for f in progress] == [1, 2, 3, 4, 5]
        assert [f["advice"]["oracle"]["N"] for f in progress] == [25, 50, 75, 100, 125]
        for frame in progress:
            parse_server(json.dumps(frame))
            assert isinstance(parse_server(json.dumps(frame)), AdviceProgress)
            oracle = frame["advice"]["oracle"]
            assert frame["advice"]["partial"] is True and oracle["stopped"] == "in progress"
            assert oracle["cache_key"] == final["cache_key"]
            assert oracle["N_target"] == 150 and frame["seq"] == answer["seq"]
            assert "evaluator" not in oracle["cells"][oracle["trump"]]["30"]
        # the intervals narrow toward the answer's
        widths = [mean_width(f["advice"]["oracle"]) for f in progress] + [mean_width(final)]
        assert widths[0] > widths[-1] and widths[0] > widths[2]
        assert "evaluator" in final["cells"][final["trump"]]["30"]

        # kept by position in the store's database
        kept = server.advice.kept
        assert kept is not None and kept.kept == 1
        assert server.store is not None and len(KeptValues(server.store.store)) == 1

        # asked again: the kept answer at once, no progress; without `progress`, as before
        again_progress, again = await frames_until_advice(south, ask)
        assert again_progress == [] and again["advice"] == answer["advice"]
        plain = await south.ask({"type": "advise", "table_id": table_id})
        assert plain["type"] == "advice" and plain["advice"] == answer["advice"]

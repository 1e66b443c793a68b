"""Every variant's belief leaves no cyclic garbage: folded through a whole match, with
snapshots, for every audience, it makes nothing that only the cycle collector could free;
and a retired table of every variant is freed by reference counting.

The server, its inference processes and the workers freeze what survives a young
collection (server/collector.py); a cycle that is alive when a collection runs (a belief
computed on the inference thread, an automatic collection in the middle of a snapshot) then
stays in memory until the reclaim. Beliefs run for every move of every table, so they must
make none. A first match warms each game up (imports, compiled kernels: once per process);
the second is checked with the collector off, every cache of the exact counting emptied so
its slow paths run too.
"""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from collections import Counter
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from games.interface import SPECTATOR
from games.seat_view import SeatFold
from inference.counting import clear_caches
from server.tables.local import TableOptions
from tests.conformance.cases import REGISTRY, SEEDS, TABLE_CASES, Case, ids, match
from tests.conftest import make_config, serving
from tests.games.toy.player import request
from tests.server.helpers import wait_for

GIVE_UP = 120.0
"""Seconds a wait gives up after (a costly belief on a loaded machine): a bound, never a
figure a test checks."""


def fold(case: Case, seed: int) -> None:
    """Every audience's belief through the match, a snapshot at each quarter of it."""
    events = match(case.variant, seed).events
    marks = {len(events) * k // 4 for k in range(1, 5)}
    for audience in case.audiences:
        belief = case.game.belief(audience, case.variant)
        for seq, event in enumerate(events, 1):
            belief.apply(case.game.view(event, audience))
            if seq in marks:
                belief.snapshot_dict()


def describe(garbage: list[object]) -> str:
    kinds = Counter(type(o).__name__ for o in garbage)
    functions = Counter(getattr(o, "__qualname__", "?") for o in garbage
                        if type(o).__name__ in ("function", "generator"))
    return f"{len(garbage)} objects: {kinds.most_common(6)}; functions {functions.most_common(6)}"


@pytest.mark.parametrize("case", TABLE_CASES, ids=ids(TABLE_CASES))
def test_a_belief_makes_no_cyclic_garbage(case: Case, collector_off: None) -> None:
    fold(case, SEEDS[0])
    match(case.variant, SEEDS[1])  # played (and cached) before the count starts
    clear_caches()
    gc.collect()
    fold(case, SEEDS[1])
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds unreachable goes to gc.garbage
    gc.collect()
    assert gc.garbage == [], describe(gc.garbage)


@pytest.mark.parametrize("case", TABLE_CASES, ids=ids(TABLE_CASES))
async def test_a_retired_table_of_every_variant_is_freed_by_reference_counting(
        case: Case, tmp_path: Path, collector_off: None) -> None:
    """Bots in every seat, a spectator to the end (so its beliefs are computed); once the
    spectator has left and the table is retired, reference counting alone frees it. A
    costly belief (Uno's, on the inference thread) may still be computing when the table
    retires, as it does here 0.2 s after the match: the table is freed once it is done."""
    options = TableOptions(grace=30.0, bot_delay=0.0, hand_pause=0.0, retire_after=0.2)
    async with serving(make_config(tmp_path, games=REGISTRY, tables=options)) as server:
        async with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
            listed = await request(ws, {"type": "list_variants", "id": 1})
            offered = next(v for v in listed["variants"] if v["name"] == case.variant)
            created = await request(ws, {
                "type": "create_table", "id": 2, "variant": case.variant,
                "options": {o["name"]: o["default"] for o in offered["options"]},
                "bots": dict.fromkeys(offered["seats"], "random")})
            assert created["type"] == "table_created", created
            table_id = created["table_id"]
            watching = await request(ws, {"type": "watch", "id": 3, "table_id": table_id})
            assert watching["type"] == "watching", watching
            fold = SeatFold(case.game, SPECTATOR)
            beliefs = 0
            while not fold.finished:  # the match to its end, its beliefs as they come
                frame = json.loads(await asyncio.wait_for(ws.recv(), GIVE_UP))
                if frame["type"] == "event":
                    fold.fold(case.game.parse_event(frame["event"]))
                beliefs += frame["type"] == "belief"
            assert beliefs, "no belief was computed"
        registry = server.registry
        assert registry is not None
        table = weakref.ref(registry.tables[table_id])
        await wait_for(lambda: table_id not in registry.tables, timeout=GIVE_UP)
        await wait_for(lambda: table() is None, timeout=GIVE_UP)

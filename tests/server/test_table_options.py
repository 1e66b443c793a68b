"""Table options over the real server (real WebSockets on loopback, a real SQLite file).

Clue's `players` option decides the seats: a 3-player and a 6-player table play to the end
with bots in every seat, a spectator watching; the listing, the stored config, the log and
the replay all have that many seats. Bad options are refused with `bad_option` naming the
option, and nothing is stored. A boolean and a choice option reach `start(options)` (a toy
game that declares them: the generic path carries any declared type).
"""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from archive.streams import seats_stream
from archive.tables import TableConfig, read_table
from games.clue.game import CLUE
from games.dominoes.game import DOMINOES
from games.interface import SPECTATOR
from games.registry import Registry
from server.app import DominoServer
from server.table_game import TableGame
from storage import EventStore
from tests.conftest import make_config
from tests.games.toy.game import VARIANT as TOY_VARIANT
from tests.games.toy.options import OptionToy

DEADLINE = 60.0


async def _frame(ws: ClientConnection) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))


async def request(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps(message))
    while True:
        frame = await _frame(ws)
        if frame.get("id") == message["id"]:
            return frame


async def _watch_to_the_end(ws: ClientConnection) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        frame = await _frame(ws)
        if frame["type"] == "event":
            events.append(frame["event"])
        elif frame["type"] == "belief" and events and events[-1]["type"] == "match_ended" \
                and frame["seq"] == len(events):
            return events


def _get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=DEADLINE) as reply:
        return json.loads(reply.read())


def _stored(server: DominoServer, table_id: str) -> tuple[TableConfig, list[Any]]:
    store = EventStore(server.config.db)
    try:
        stored = read_table(store, table_id)
        assert stored is not None
        return stored.config, [CLUE.parse_event(e.payload) for e in store.read(table_id)]
    finally:
        store.close()


@pytest.mark.parametrize("players", [3, 6])
async def test_a_clue_table_of_n_players_plays_to_the_end_with_bots(
        server: DominoServer, players: int) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws"
    seats = [f"P{i}" for i in range(1, players + 1)]
    bots = {s: ("infomax" if i % 2 else "random") for i, s in enumerate(seats)}
    async with connect(url) as ws, connect(url) as watcher:
        created = await request(ws, {"type": "create_table", "id": 1, "variant": "clue",
                                     "options": {"players": players}, "bots": bots})
        assert created["type"] == "table_created", created
        table_id = created["table_id"]
        watching = await request(watcher, {"type": "watch", "id": 2, "table_id": table_id})
        assert watching["type"] == "watching", watching
        listed = await request(ws, {"type": "list_tables", "id": 3})
        info = next(t for t in listed["tables"] if t["table_id"] == table_id)
        assert list(info["seats"]) == seats
        assert info["options"] == {"players": players} and info["game"] == "clue"
        events = await _watch_to_the_end(watcher)

    config, stored = _stored(server, table_id)
    assert config.options == {"players": players} and config.variant == "clue"
    assert list(stored[0].players) == seats and stored[0].variant == "clue"
    dealt = stored[1]
    assert sorted(dealt.hand_sizes) == seats and sum(dealt.hand_sizes.values()) == 18
    assert stored[-1].type == "match_ended" and len(events) == len(stored)
    CLUE.check_log(stored)
    # the last seat's replay: a seat the variant's defaults (four) do not have
    replay = await asyncio.to_thread(
        _get_json, f"http://127.0.0.1:{server.port}/api/matches/{table_id}/replay"
                   f"?perspective={seats[-1]}")
    assert replay["finished"] and len(replay["beliefs"]) == len(stored)
    assert replay["options"] == {"players": players}
    assert replay["events"][1]["hands"][seats[-1]] is not None
    assert all(h is None for s, h in replay["events"][1]["hands"].items() if s != seats[-1])


BAD = [
    ({"players": 7}, "players"),
    ({"players": 2}, "players"),
    ({"players": "five"}, "players"),
    ({"players": True}, "players"),
    ({"players": 4.5}, "players"),
    ({"players": None}, "players"),
    ({"colour": "red"}, "colour"),
    ({"players": 4, "nello": True}, "nello"),
]


@pytest.mark.parametrize("options,named", BAD)
async def test_bad_options_are_refused_by_name_and_nothing_is_stored(
        server: DominoServer, options: dict[str, Any], named: str) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws"
    async with connect(url) as ws:
        reply = await request(ws, {"type": "create_table", "id": 1, "variant": "clue",
                                   "options": options, "bots": {"P2": "random"}})
        assert reply["type"] == "error" and reply["code"] == "bad_option", reply
        assert repr(named) in reply["message"], reply
        listed = await request(ws, {"type": "list_tables", "id": 2})
        assert listed["tables"] == []
    store = EventStore(server.config.db)
    try:
        assert store.streams(prefix=seats_stream("")) == []
    finally:
        store.close()


async def test_options_a_variant_does_not_declare_and_oversized_requests_are_refused(
        server: DominoServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws"
    async with connect(url) as ws:
        dominoes = await request(ws, {"type": "create_table", "id": 1,
                                      "variant": "partnership-6", "options": {"players": 4}})
        assert dominoes["code"] == "bad_option" and "'players'" in dominoes["message"]
        many = {f"o{i}": 1 for i in range(17)}
        too_many = await request(ws, {"type": "create_table", "id": 2, "variant": "clue",
                                      "options": many})
        assert too_many["code"] == "bad_request", too_many
        nested = await request(ws, {"type": "create_table", "id": 3, "variant": "clue",
                                    "options": {"players": [4]}})
        assert nested["code"] == "bad_request", nested
        long_name = await request(ws, {"type": "create_table", "id": 4, "variant": "clue",
                                       "options": {"p" * 33: 1}})
        assert long_name["code"] == "bad_request", long_name
        assert (await request(ws, {"type": "list_tables", "id": 5}))["tables"] == []


async def test_list_variants_declares_clue_players_and_its_seats(server: DominoServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws"
    async with connect(url) as ws:
        reply = await request(ws, {"type": "list_variants", "id": 1})
    assert reply["type"] == "variants"
    by_name = {v["name"]: v for v in reply["variants"]}
    assert "clue-5" not in by_name  # an alias, kept for old logs: not offered
    clue = by_name["clue"]
    assert clue["options"] == [{"name": "players", "kind": "int", "default": 4,
                                "label": "Players", "minimum": 3, "maximum": 6,
                                "choices": None, "decides_seats": True}]
    assert clue["seats_by"]["players"]["6"] == ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert clue["seats"] == ["P1", "P2", "P3", "P4"]
    # dominoes' target and scoring are its own declared options (no longer generic fields)
    assert by_name["partnership-6"]["options"] == [
        {"name": "target", "kind": "int", "default": 100, "label": "Points to win the match",
         "minimum": 1, "maximum": 10_000, "choices": None, "decides_seats": False},
        {"name": "scoring", "kind": "choice", "default": "losers", "label": "Scoring",
         "minimum": None, "maximum": None, "choices": ["losers", "all"],
         "decides_seats": False}]
    assert by_name["partnership-6"]["seats_by"] == {}
    assert all(o["name"] != "target" for o in by_name["texas-42"]["options"])


async def test_booleans_and_choices_reach_start_and_the_listing(tmp_path: Path) -> None:
    toy = OptionToy()
    instance = DominoServer(make_config(tmp_path, games=Registry([DOMINOES, toy])))
    await instance.start()
    try:
        url = f"ws://127.0.0.1:{instance.port}/ws"
        async with connect(url) as ws:
            bad = await request(ws, {"type": "create_table", "id": 1, "variant": TOY_VARIANT,
                                     "options": {"house_rule": 1}})
            assert bad["code"] == "bad_option" and "'house_rule'" in bad["message"]
            bad = await request(ws, {"type": "create_table", "id": 2, "variant": TOY_VARIANT,
                                     "options": {"pace": "brisk"}})
            assert bad["code"] == "bad_option" and "'pace'" in bad["message"]
            assert toy.started == []
            created = await request(ws, {"type": "create_table", "id": 3,
                                         "variant": TOY_VARIANT,
                                         "options": {"house_rule": True},
                                         "bots": {"S": "random", "N": "random"}})
            assert created["type"] == "table_created", created
            listed = await request(ws, {"type": "list_tables", "id": 4})
            info = next(t for t in listed["tables"] if t["table_id"] == created["table_id"])
            assert info["options"] == {"house_rule": True, "pace": "slow"}
        assert toy.started and toy.started[0]["house_rule"] is True
        assert toy.started[0]["pace"] == "slow"
    finally:
        await instance.stop()


def test_a_table_stored_before_options_existed_reads_with_the_defaults() -> None:
    """A config record written before the field: no `options` key at all."""
    old = {"type": "table_created", "seq": 1, "table_id": "t1", "variant": "clue",
           "target": 100, "scoring": "losers", "bots": {}, "advice": False,
           "turn_clock": None}
    config = TableConfig.from_record(old)
    assert config.options == {}
    game = TableGame.of(config.variant, options=config.options)
    assert game.seats == ("P1", "P2", "P3", "P4") and game.chosen == {"players": 4}
    alias = TableGame.of("clue-5", options={})
    assert alias.seats == ("P1", "P2", "P3", "P4", "P5") and alias.audiences[-1] == SPECTATOR


async def test_a_waiting_six_player_table_survives_a_restart(tmp_path: Path) -> None:
    """The options live in the stored config: a restarted server rebuilds the table with the
    seats they decide (not the variant's default four) and starts it with them."""
    config = make_config(tmp_path)
    first = DominoServer(config)
    await first.start()
    try:
        async with connect(f"ws://127.0.0.1:{first.port}/ws") as ws:
            created = await request(ws, {"type": "create_table", "id": 1, "variant": "clue",
                                         "options": {"players": 6},
                                         "bots": {f"P{i}": "random" for i in range(2, 7)}})
            table_id = created["table_id"]
    finally:
        await first.stop()
    config.port = 0
    second = DominoServer(config)
    await second.start()
    try:
        async with connect(f"ws://127.0.0.1:{second.port}/ws") as ws:
            listed = await request(ws, {"type": "list_tables", "id": 1})
            info = next(t for t in listed["tables"] if t["table_id"] == table_id)
            assert info["options"] == {"players": 6} and info["status"] == "waiting"
            assert list(info["seats"]) == [f"P{i}" for i in range(1, 7)]
            assert info["seats"]["P1"] is None and info["seats"]["P6"] == "bot:random"
            joined = await request(ws, {"type": "join", "id": 2, "table_id": table_id,
                                        "seat": "P1", "name": "ann"})
            assert joined["type"] == "joined", joined
            while True:
                frame = await _frame(ws)
                if frame["type"] == "event":
                    break
            assert frame["event"]["type"] == "match_started"
            assert list(frame["event"]["players"]) == [f"P{i}" for i in range(1, 7)]
    finally:
        await second.stop()


OLD_DOMINOES = {"type": "table_created", "seq": 1, "table_id": "told1", "variant": "draw-2",
                "target": 30, "scoring": "all", "bots": {"N": "random"}, "advice": False,
                "turn_clock": None}
"""A config record as written before dominoes' target and scoring were its table options:
both were fields of the record itself, and it has no `options`."""


def test_an_old_record_reads_with_the_target_and_scoring_it_was_written_with() -> None:
    config = TableConfig.from_record(OLD_DOMINOES)
    assert config.options == {} and config.legacy == {"target": 30, "scoring": "all"}
    assert TableGame.of_config(config).chosen == {"target": 30, "scoring": "all"}
    assert "legacy" not in config.record() and "target" not in config.record()
    # an old Texas 42 record: the generic target it carried is not Texas 42's (its default
    # 100 meant the usual 7 marks, its own option's default)
    old_42 = {**OLD_DOMINOES, "variant": "texas-42", "target": 100, "scoring": "losers",
              "bots": {}}
    assert TableGame.of_config(TableConfig.from_record(old_42)).chosen == {
        "target_marks": 7, "dealer_must_bid": False, "nello": False}
    # an old record without the fields: the defaults of the time (and of the options now)
    bare = {k: v for k, v in OLD_DOMINOES.items() if k not in ("target", "scoring")}
    assert TableGame.of_config(TableConfig.from_record(bare)).chosen == {
        "target": 100, "scoring": "losers"}


async def test_a_waiting_table_stored_before_options_starts_with_its_target(
        tmp_path: Path) -> None:
    """An old-format config record in a real SQLite file: the server recovers the waiting
    table, lists its target, and its match starts with the target and scoring it was
    created with."""
    config = make_config(tmp_path)
    store = EventStore(config.db)
    try:
        store.append(seats_stream("told1"), 0, [{k: v for k, v in OLD_DOMINOES.items()
                                                 if k != "seq"}])
    finally:
        store.close()
    server = DominoServer(config)
    await server.start()
    try:
        async with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
            listed = await request(ws, {"type": "list_tables", "id": 1})
            info = next(t for t in listed["tables"] if t["table_id"] == "told1")
            assert info["target"] == 30 and info["options"] == {"target": 30, "scoring": "all"}
            joined = await request(ws, {"type": "join", "id": 2, "table_id": "told1",
                                        "seat": "S", "name": "ann"})
            assert joined["type"] == "joined", joined
            while True:
                frame = await _frame(ws)
                if frame["type"] == "event":
                    break
            started = frame["event"]
            assert started["type"] == "match_started"
            assert started["target"] == 30 and started["scoring"] == "all"
    finally:
        await server.stop()


async def test_the_short_target_field_sets_the_option_where_it_is_declared(
        server: DominoServer) -> None:
    """create_table's `target` and `scoring` (from before table options) set dominoes'
    options, over `options` (an old form sends both); a game without them ignores them."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    async with connect(url) as ws:
        made = await request(ws, {"type": "create_table", "id": 1, "variant": "block-2",
                                  "target": 40, "scoring": "all",
                                  "options": {"target": 100}})
        bad = await request(ws, {"type": "create_table", "id": 2, "variant": "block-2",
                                 "scoring": "most"})
        clue = await request(ws, {"type": "create_table", "id": 3, "variant": "clue",
                                  "target": 100, "scoring": "losers"})
        listed = await request(ws, {"type": "list_tables", "id": 4})
    assert bad["code"] == "bad_option" and "'scoring'" in bad["message"]
    by_id = {t["table_id"]: t for t in listed["tables"]}
    assert by_id[made["table_id"]]["options"] == {"target": 40, "scoring": "all"}
    assert by_id[made["table_id"]]["target"] == 40
    assert by_id[clue["table_id"]]["options"] == {"players": 4}
    assert by_id[clue["table_id"]]["target"] is None


async def test_list_variants_carries_what_each_game_declares(server: DominoServer) -> None:
    """The lobby needs no game knowledge of its own: renderer, bots, advice and belief models
    come from each game's declaration (games.interface.Capabilities)."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    async with connect(url) as ws:
        reply = await request(ws, {"type": "list_variants", "id": 1})
    by_name = {v["name"]: v for v in reply["variants"]}
    dominoes, clue, uno, texas = (by_name[n] for n in ("block-2", "clue", "uno-2", "texas-42"))
    assert dominoes["renderer"] == "dominoes" and dominoes["advice"] is True
    assert dominoes["advice_models"] == ["uniform", "behaviour:greedy"]
    assert dominoes["bots"] == ["random", "greedy", "pimc", "pimc-behaviour", "playout", "minimax"]
    assert [(b["name"], b["exact"]) for b in dominoes["beliefs"]] == [
        ("uniform", True), ("behaviour:greedy", False)]
    assert dominoes["fair_dealing"] == "sha256-fisher-yates"
    assert texas["advice"] is True and texas["renderer"] == "texas42"
    for other in (clue, uno):  # each declares its advisor (uniform deals only)
        assert other["advice"] is True and other["advice_models"] == ["uniform"]
        assert [b["name"] for b in other["beliefs"]] == ["uniform"]
        assert "greedy" in other["bots"]
    assert clue["renderer"] == "clue" and uno["renderer"] == "uno"

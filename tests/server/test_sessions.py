"""Resume, retries, bots, stand-ins, spectators' counts: the table as a client sees it."""

from __future__ import annotations

import asyncio
import random

import pytest

from clients.python import DominoClient, SeatView, play_until_finished
from games.dominoes.events import Passed, TilePlayed
from protocol import BeliefMessage, EventMessage
from server.app import DominoServer
from server.tables.local import TableOptions
from tests.conftest import make_config
from tests.server.helpers import collect_until, drain, events_of, wait_for

BOTS3 = {"W": "random", "N": "greedy", "E": "random"}


def _turn(server: DominoServer, table_id: str) -> str | None:
    assert server.registry is not None
    state = server.registry.tables[table_id].state
    return None if state is None else state.to_move


async def _my_move(view: SeatView, client: DominoClient, table_id: str, **kw: object):
    move = view.random_move(random.Random(0))
    if move is None:
        return await client.pass_(table_id, **kw)
    return await client.play(table_id, str(move.tile), move.end, **kw)


async def _until_my_turn(client: DominoClient, view: SeatView, table_id: str) -> None:
    while not (view.my_turn() and client.feed.empty()):
        message = await client.next_message()
        if isinstance(message, EventMessage):
            view.apply(message)


async def test_resume_after_a_dropped_connection_gets_exactly_the_missed_events(
    server: DominoServer, url: str
) -> None:
    client = await DominoClient.connect(url)
    table_id = await client.create_table(bots=BOTS3)
    joined = await client.join(table_id, "S", "South")
    view = SeatView("S")
    await _until_my_turn(client, view, table_id)
    await _my_move(view, client, table_id)
    seen = view.last_seq
    await client.close()  # dropped: our own move's event and the bots' replies are missed

    await wait_for(lambda: _turn(server, table_id) == "S" or server.registry.tables[
        table_id].status == "finished")
    last = server.registry.tables[table_id].last_seq
    assert last > seen

    again = await DominoClient.connect(url)
    resumed = await again.resume(table_id, joined.token, after_seq=seen)
    assert resumed.seat == "S" and resumed.last_seq == last
    messages = await drain(again)
    missed = events_of(messages)
    assert [m.seq for m in missed] == list(range(seen + 1, last + 1))
    beliefs = [m for m in messages if isinstance(m, BeliefMessage)]
    assert beliefs and beliefs[-1].seq == last and beliefs[-1].observer == "S"
    for message in missed:
        view.apply(message)
    assert view.last_seq == last
    await again.close()


async def test_a_retried_command_id_is_applied_once(server: DominoServer, url: str) -> None:
    client = await DominoClient.connect(url)
    table_id = await client.create_table(bots=BOTS3)
    joined = await client.join(table_id, "S")
    view = SeatView("S")
    await _until_my_turn(client, view, table_id)
    first = await _my_move(view, client, table_id, id="move-1")
    again = await _my_move(view, client, table_id, id="move-1")  # same connection
    assert again.seq == first.seq
    await client.close()

    other = await DominoClient.connect(url)  # after a reconnect, with a fresh connection
    await other.resume(table_id, joined.token, after_seq=first.seq)
    retried = await _my_move(view, other, table_id, id="move-1")
    assert retried.seq == first.seq
    table = server.registry.tables[table_id]
    moves_by_s = [e for e in table.log if isinstance(e, TilePlayed | Passed) and e.seat == "S"]
    assert len(moves_by_s) == 1
    await other.close()


async def test_four_bots_play_a_whole_match_for_a_spectator(server: DominoServer, url: str) -> None:
    client = await DominoClient.connect(url)
    bots = {"S": "greedy", "W": "random", "N": "greedy", "E": "random"}
    table_id = await client.create_table(bots=bots, target=20)
    await client.watch(table_id)
    listing = await client.list_tables()
    [info] = [t for t in listing.tables if t.table_id == table_id]
    assert info.spectators == 1 and info.seats["S"] == "bot:greedy"
    messages = await collect_until(
        client, lambda m: isinstance(m, EventMessage) and m.event["type"] == "match_ended"
    )
    events = events_of(messages)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert all(m.observer == "spectator" for m in messages if isinstance(m, BeliefMessage))
    await client.close()


async def test_a_bot_stands_in_for_an_absent_player_after_the_grace_period(tmp_path) -> None:
    """The stand-in waits out the grace: S's turn is still open just before it ends (a bot
    that jumped in early would take the seat from a person reconnecting in time) and is
    played soon after it."""
    grace = 1.0
    options = TableOptions(grace=grace, bot_delay=0.0, hand_pause=0.0)
    server = DominoServer(make_config(tmp_path, tables=options))
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}/ws"
        client = await DominoClient.connect(url)
        table_id = await client.create_table(bots=BOTS3, target=15)
        joined = await client.join(table_id, "S")
        await client.close()
        table = server.registry.tables[table_id]

        def moves_by_s() -> int:
            return sum(1 for e in table.log if isinstance(e, TilePlayed | Passed) and e.seat == "S")

        # the clock starts when S is both absent and on turn (the bots play at once)
        await wait_for(lambda: table.connected["S"] == 0 and _turn(server, table_id) == "S")
        loop = asyncio.get_running_loop()
        absent_on_turn, before = loop.time(), moves_by_s()
        await asyncio.sleep(grace / 2)
        assert _turn(server, table_id) == "S" and moves_by_s() == before
        assert "S" not in table.autopilot
        await wait_for(lambda: moves_by_s() > before, timeout=2 * grace + 2)
        waited = loop.time() - absent_on_turn
        assert grace - 0.05 <= waited <= grace + 2, waited
        assert "S" in table.autopilot
        await wait_for(lambda: table.status == "finished", timeout=20)

        # a person who comes back gets the seat back from the stand-in
        client = await DominoClient.connect(url)
        table2 = await client.create_table(bots=BOTS3, target=100)
        joined = await client.join(table2, "S")
        await client.close()
        t2 = server.registry.tables[table2]
        await wait_for(lambda: "S" in t2.autopilot, timeout=10)
        client = await DominoClient.connect(url)
        await client.resume(table2, joined.token, after_seq=0)
        assert "S" not in t2.autopilot
        await client.close()
    finally:
        await server.stop()


@pytest.mark.parametrize("after", [0, 3])
async def test_watch_after_seq_gives_the_rest(server: DominoServer, url: str, after: int) -> None:
    client = await DominoClient.connect(url)
    bots = {"S": "greedy", "W": "random", "N": "greedy", "E": "random"}
    table_id = await client.create_table(bots=bots, target=10)
    watching = await client.watch(table_id, after_seq=after)
    assert watching.after_seq <= after
    messages = await collect_until(
        client, lambda m: isinstance(m, EventMessage) and m.event["type"] == "match_ended"
    )
    seqs = [m.seq for m in events_of(messages)]
    assert seqs == list(range(watching.after_seq + 1, seqs[-1] + 1))
    await client.close()


async def test_play_until_finished_with_a_target_of_one(server: DominoServer, url: str) -> None:
    clients = [await DominoClient.connect(url) for _ in range(2)]
    table_id = await clients[0].create_table(target=1, bots={"W": "random", "E": "greedy"})
    await clients[0].join(table_id, "S")
    await clients[1].join(table_id, "N")
    views = [SeatView(s) for s in "SN"]
    await asyncio.gather(
        *(play_until_finished(c, table_id, v, random.Random(1))
          for v, c in zip(views, clients, strict=True))
    )
    # both people saw the same whole match, to its end, won by a side reaching the target
    south, north = views
    assert south.finished and north.finished
    assert south.last_seq == north.last_seq
    ended = south.events[-1]
    assert ended.type == "match_ended" and north.events[-1] == ended
    assert max(ended.scores.values()) >= 1
    for c in clients:
        await c.close()


async def test_presence_never_counts_below_zero(server: DominoServer) -> None:
    """A -1 that arrives without its +1 (the +1 went to a table's previous owner) must not
    hide the person's next connection from the grace clock."""
    table = await server.create_table(bots={"W": "random", "N": "random", "E": "random"})
    table.presence("S", -1)
    table.presence("S", +1)
    assert table.connected["S"] == 1

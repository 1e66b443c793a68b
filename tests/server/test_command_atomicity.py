"""A move and the record of its command id commit together or not at all.

Two servers may briefly both think they own a table (cluster takeover). If the other one
moved `commands:<table>` on, our move must not be stored without its id record, or a retry
of that id would be decided again (applied twice, or refused for a move that was made).
"""

from __future__ import annotations

import pytest

from archive.streams import commands_stream
from games.dominoes.commands import PlayTile
from games.dominoes.rules import legal_moves
from protocol import ProtocolError
from server.app import DominoServer
from server.tables.local import Table
from tests.server.helpers import wait_for


async def test_a_move_whose_id_record_conflicts_is_not_stored(server: DominoServer) -> None:
    table = await server.create_table()
    for seat in "SWNE":
        await table.join(seat, f"p{seat}")
    await wait_for(lambda: table.state is not None and table.state.phase == "playing")
    assert table.state is not None and table.state.hand is not None and server.store is not None
    store = server.store.store
    turn = table.state.hand.turn
    move = legal_moves(table.state, turn)[0]
    command = PlayTile(turn, move.tile, move.end)
    before = table.last_seq
    assert store.last_seq(table.table_id) == before

    # the other writer records a command of its own: our view of the stream is now stale
    foreign = {"type": "command_applied", "seat": "W", "id": "elsewhere", "event_seq": before}
    store.append(commands_stream(table.table_id), table.cmd_seq, [foreign])

    with pytest.raises(ProtocolError) as refused:
        await table.apply(turn, command, "cmd-1")
    assert refused.value.code == "internal"
    assert store.last_seq(table.table_id) == before, "the move was stored without its id"
    assert [e.payload["id"] for e in store.read(commands_stream(table.table_id))] == ["elsewhere"]

    # the table folds itself again from the store; the client's retry is applied, once
    await wait_for(lambda: server.registry.tables.get(table.table_id) not in (None, table))
    reloaded: Table = server.registry.tables[table.table_id]
    seq = await reloaded.apply(turn, command, "cmd-1")
    assert seq == before + 1
    assert await reloaded.apply(turn, command, "cmd-1") == seq
    played = store.read(table.table_id, after_seq=before)
    assert [(e.type, e.payload["seat"], e.payload["tile"]) for e in played] == [
        ("tile_played", turn, str(move.tile))
    ]
    records = [e.payload for e in store.read(commands_stream(table.table_id))]
    assert [(r["id"], r["event_seq"]) for r in records] == [("elsewhere", before), ("cmd-1", seq)]

"""The beliefs pushed live are what `domino-oracle infer --json` says about the stored log.

Four real WebSocket clients play part of a hand; the match is exported with the CLI
(`domino-oracle export`), and `domino-oracle infer FILE --seat S --at SEQ --json` runs as a
subprocess for the seq of the last belief S received. Every key the two share must agree:
the CLI is the reference the live workers claim to reproduce.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clients.python import DominoClient, SeatView, play_until_finished
from protocol import BeliefMessage, EventMessage, ServerMessage
from server.app import DominoServer
from tests.server.helpers import drain

SEATS = ("S", "W", "N", "E")
CLI = Path(sys.executable).parent / "domino-oracle"
ROOT = Path(__file__).resolve().parents[2]


async def _cli(*args: str) -> str:
    """Run the installed `domino-oracle` (off the event loop: the server shares it)."""
    done = await asyncio.to_thread(subprocess.run, [str(CLI), *args], cwd=ROOT,
                                   capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _close(live: float | None, cli: float | None) -> bool:
    return live == cli if live is None or cli is None else live == pytest.approx(cli, abs=1e-12)


async def test_live_beliefs_equal_infer_json_on_the_exported_log(
    server: DominoServer, url: str, tmp_path: Path
) -> None:
    clients = [await DominoClient.connect(url) for _ in SEATS]
    watcher = await DominoClient.connect(url)
    table_id = await clients[0].create_table(target=100)
    await watcher.watch(table_id)
    views = {seat: SeatView(seat) for seat in SEATS}
    received: dict[str, list[ServerMessage]] = {seat: [] for seat in SEATS}
    for seat, client in zip(SEATS, clients, strict=True):
        await client.join(table_id, seat, name=f"p{seat}")
    await asyncio.gather(*(  # three moves each, then everyone stops: the hand is mid-play
        play_until_finished(client, table_id, views[seat], random.Random(i),
                            on_message=received[seat].append, stop_after_moves=3)
        for i, (seat, client) in enumerate(zip(SEATS, clients, strict=True))
    ))

    # S reads on until its feed is quiet: the events it had not read, and their beliefs
    for message in await drain(clients[0], quiet=1.0):
        received["S"].append(message)
        if isinstance(message, EventMessage):
            views["S"].apply(message)
    beliefs = [m for m in received["S"] if isinstance(m, BeliefMessage)]
    last = beliefs[-1]
    assert last.seq == views["S"].last_seq, "the last belief reflects every event S saw"
    assert last.observer == "S" and last.status == "live" and last.marginals

    spectated = [m for m in await drain(watcher, quiet=0.2) if isinstance(m, BeliefMessage)]
    public = spectated[-1]
    assert public.seq == last.seq and public.observer == "spectator"

    log = tmp_path / "match.jsonl"
    log.write_text(await _cli("export", table_id, "--db", str(server.config.db)))
    assert len(log.read_text().splitlines()) == last.seq

    for message in (last, public):
        cli: dict[str, Any] = json.loads(await _cli(
            "infer", str(log), "--seat", message.observer, "--at", str(message.seq), "--json"))
        live = message.model_dump(mode="json")
        assert (live["seq"], live["observer"]) == (cli["seq"], cli["observer"])
        assert str(live["consistent_deals"]) == str(cli["consistent_deals"])
        assert isinstance(cli["consistent_deals"], int) and cli["consistent_deals"] > 1
        assert _close(live["entropy_bits"], cli["entropy_bits"])
        assert live["facts"] == cli["facts"]
        assert (live["hand"], live["status"], live["remaining"]) == (
            cli["hand"], cli["status"], cli["remaining"])
        assert live["marginals"].keys() == cli["marginals"].keys() and cli["marginals"]
        for holder, tiles in cli["marginals"].items():
            assert live["marginals"][holder].keys() == tiles.keys(), holder
            for tile, p in tiles.items():
                assert _close(live["marginals"][holder][tile], p), (holder, tile)
        assert live["tile_entropy_bits"].keys() == cli["tile_entropy_bits"].keys()
        for tile, bits in cli["tile_entropy_bits"].items():
            assert _close(live["tile_entropy_bits"][tile], bits), tile

    for client in [*clients, watcher]:
        await client.close()

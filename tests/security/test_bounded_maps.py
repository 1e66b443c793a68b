"""Maps a long-running server keeps per address or per match stay bounded: they forget what
no longer counts without waiting for the same address or match to come back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import archive.reader
from archive.reader import Archive
from games.dominoes.game import DOMINOES
from games.dominoes.selfplay import random_match_events
from protocol import ProtocolError
from server.ratelimit import TableQuota
from storage import EventStore


def test_addresses_whose_tables_ended_are_forgotten_without_coming_back() -> None:
    live: set[str] = set()
    quota = TableQuota(per_address=4, alive=live.__contains__)
    for n in range(10_000):  # each address creates one table, once
        table_id = f"t{n}"
        live.add(table_id)
        quota.check(f"10.0.{n // 256}.{n % 256}", set(), per_connection=4)
        quota.add(f"10.0.{n // 256}.{n % 256}", table_id)
        if n >= 10:
            live.discard(f"t{n - 10}")  # its match ended: ten tables are in play at a time
    assert len(quota.by_address) <= 2_048  # twice the floor at most, not all 10,000
    assert {t for held in quota.by_address.values() for t in held} >= live  # none lost


def test_the_quota_still_counts_an_address_after_a_sweep() -> None:
    live: set[str] = set()
    quota = TableQuota(per_address=2, alive=live.__contains__)
    for table_id in ("a", "b"):
        live.add(table_id)
        quota.add("10.9.9.9", table_id)
    for n in range(5_000):  # other addresses' ended tables: sweeps run meanwhile
        quota.add(f"10.1.{n // 256}.{n % 256}", f"ended{n}")
    with pytest.raises(ProtocolError) as refused:  # the two tables still count after it
        quota.check("10.9.9.9", set(), per_connection=10)
    assert refused.value.code == "limit_reached"


async def test_an_archive_remembers_the_games_of_a_bounded_number_of_matches(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive.reader, "GAMES_KNOWN", 8, raising=False)
    store = EventStore(tmp_path / "events.sqlite3")
    try:
        for n in range(20):
            events = random_match_events(random.Random(n), target=10)[:1]  # its first event
            store.append(f"m{n}", 0, [DOMINOES.event_to_dict(e) for e in events])
        reader = Archive(store)
        for n in range(20):
            assert (await reader.game(f"m{n}")).name == "dominoes"
        assert len(reader._game_of) == 8
        assert list(reader._game_of) == [f"m{n}" for n in range(12, 20)]  # the latest
        assert (await reader.game("m0")).name == "dominoes"  # read again, from the store
    finally:
        store.close()

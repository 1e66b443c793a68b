"""The bench runs end to end on tiny sizes and prints its table (figures are not asserted)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from storage import bench
from tests.pg import PG_URL


def _args(tmp_path: Path, pg: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    return parser.parse_args(
        [
            "--events",
            "200",
            "--single",
            "10",
            "--concurrency",
            "20",
            "--db-dir",
            str(tmp_path),
            "--pg",
            pg,
            "--rounds",
            "2",
        ]
    )


def test_bench_sqlite_and_unreachable_postgresql(tmp_path: Path, capsys) -> None:
    assert bench.run(_args(tmp_path, "postgresql://nobody@127.0.0.1:1/none")) == 0
    out = capsys.readouterr().out
    # five modes, then the store against raw sqlite3: one event per commit, and grouped
    assert out.count("SQLite") == 7 and out.count("unavailable") == 5
    assert "store/raw" in out and "500 streams x 1 event per commit" in out
    assert list(tmp_path.iterdir()) == [], "temporary databases are removed"


@pytest.mark.postgres
def test_bench_postgresql(tmp_path: Path, capsys) -> None:
    assert bench.run(_args(tmp_path, PG_URL)) == 0
    out = capsys.readouterr().out
    assert out.count("PostgreSQL") == 7 and "unavailable" not in out
